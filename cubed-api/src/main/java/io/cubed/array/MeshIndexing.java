package io.cubed.array;

/** The axis order of {@link Creation#meshgrid}: Cartesian ({@code "xy"}, the default) or matrix ({@code "ij"}). */
public enum MeshIndexing {
    /** Cartesian: the first two axes are swapped, so the first input varies along the columns. */
    XY,
    /** Matrix: input {@code i} varies along axis {@code i}. */
    IJ
}
