package io.cubed.array;

/**
 * Options of {@link Sorting#sort} and {@link Sorting#argsort}: the axis to sort along ({@code axis}, -1 by default,
 * negative counting from the end), {@code descending} (false by default) and {@code stable} (true by default). Every
 * sort here is stable, as the standard allows for {@code stable=False}: equal elements keep their relative order, in
 * a descending sort too. Immutable: each method returns a new object.
 *
 * <pre>{@code Sorting.argsort(x, SortOptions.axis(0).descending(true))}</pre>
 */
public final class SortOptions {
    private static final SortOptions DEFAULTS = new SortOptions(-1, false, true);

    private final int axis;
    private final boolean descending;
    private final boolean stable;

    private SortOptions(int axis, boolean descending, boolean stable) {
        this.axis = axis;
        this.descending = descending;
        this.stable = stable;
    }

    /** The standard's defaults: the last axis, ascending, stable. */
    public static SortOptions defaults() {
        return DEFAULTS;
    }

    /** The defaults sorting along {@code axis} (negative counts from the end). */
    public static SortOptions axis(int axis) {
        return DEFAULTS.withAxis(axis);
    }

    /** These options sorting along {@code newAxis} instead. */
    public SortOptions withAxis(int newAxis) {
        return new SortOptions(newAxis, descending, stable);
    }

    /** These options sorting in descending order ({@code descending=True}), equal elements still in original order. */
    public SortOptions descending(boolean d) {
        return new SortOptions(axis, d, stable);
    }

    /**
     * These options with the standard's {@code stable} flag; {@code false} lets an implementation reorder equal
     * elements, and this one never does (the sort is always stable).
     */
    public SortOptions stable(boolean s) {
        return new SortOptions(axis, descending, s);
    }

    public int axis() {
        return axis;
    }

    public boolean descending() {
        return descending;
    }

    public boolean stable() {
        return stable;
    }

    @Override
    public String toString() {
        return "SortOptions{axis=" + axis + ", descending=" + descending + ", stable=" + stable + "}";
    }
}
