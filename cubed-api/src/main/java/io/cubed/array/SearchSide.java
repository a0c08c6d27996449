package io.cubed.array;

/** Which insertion point {@link Searching#searchsorted} returns for values equal to elements of the sorted array. */
public enum SearchSide {
    /** The first suitable index: the number of elements below the value. */
    LEFT,
    /** The last suitable index: the number of elements at most the value. */
    RIGHT
}
