package io.cubed.array;

/**
 * The constants of the Array API standard: {@code e}, {@code inf}, {@code nan}, {@code pi} as Java doubles, and
 * {@code newaxis}, the indexing item that inserts an axis of length 1 ({@code x.get(Constants.NEWAXIS)} is
 * {@code x[None]}; the same as {@link Index#newAxis()}).
 */
public final class Constants {
    private Constants() {}

    /** Euler's number, the base of the natural logarithm. */
    public static final double E = Math.E;

    /** Positive infinity. */
    public static final double INF = Double.POSITIVE_INFINITY;

    /** Not a number. */
    public static final double NAN = Double.NaN;

    /** The ratio of a circle's circumference to its diameter. */
    public static final double PI = Math.PI;

    /** An indexing item that inserts a new axis of length 1 (Python's {@code None} in a key). */
    public static final Index NEWAXIS = Index.newAxis();
}
