package io.cubed.primitive;

import java.io.Serializable;

/**
 * The back key function of a blockwise operation: for the chunk coordinates of one output chunk, the chunk
 * coordinates of the input chunks it reads, as {@code keys[input][k][axis]}. Serializable; tasks evaluate it.
 */
@FunctionalInterface
public interface KeyFunction extends Serializable {
    /** The input chunks read for output chunk {@code outputCoords}: one list of chunk coordinates per input. */
    long[][][] inputKeys(long[] outputCoords);
}
