package io.cubed.array;

/** How {@link Manipulation#pad} fills the new elements. */
public enum PadMode {
    /** A constant value (NumPy's {@code mode="constant"}). */
    CONSTANT,
    /** The array reflected at its edges, edge elements included (NumPy's {@code mode="symmetric"}). */
    SYMMETRIC
}
