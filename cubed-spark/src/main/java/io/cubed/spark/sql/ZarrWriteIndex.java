package io.cubed.spark.sql;

import io.cubed.error.InvalidArgumentException;
import java.util.Arrays;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The index along one dimension of a row's value (a write task's lookup, instead of a join): the coordinate's values
 * sorted, with the stored index of each, searched by halves after trying the last value found and its neighbours (so
 * that input in the coordinate's order, ascending or descending, costs one or two compares a row). Floating values
 * compare as SQL equality does ({@code -0.0 = 0.0}, NaN equal to NaN). Not thread-safe: one per task.
 */
final class ZarrWriteIndex {
    private final ZarrWriteColumn.Kind kind;
    private final long[] keys; // sorted: integer and time values, or floating values as ordered bits
    private final int[] index; // the stored index of keys[i]
    private int last;

    ZarrWriteIndex(ZarrWriteCoordinate c) {
        this.kind = c.column.kind;
        int n = c.size();
        long[] k = new long[n];
        for (int i = 0; i < n; i++) {
            k[i] = kind.isFloating() ? orderedBits(c.doubleAt(i)) : c.longAt(i);
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(k[a], k[b]));
        this.keys = new long[n];
        this.index = new int[n];
        for (int i = 0; i < n; i++) {
            keys[i] = k[order[i]];
            index[i] = order[i];
        }
    }

    /** The key of the value at {@code i} of {@code row} (not null), as {@link #find} takes it. */
    long key(InternalRow row, int i) {
        return key(row, i, kind);
    }

    /** The key of the value at {@code i} of {@code row} (not null), a column of {@code kind}: ordered as the values. */
    static long key(InternalRow row, int i, ZarrWriteColumn.Kind kind) {
        switch (kind) {
            case INT8:
                return row.getByte(i);
            case INT16:
                return row.getShort(i);
            case INT32:
            case DATE:
                return row.getInt(i);
            case FLOAT32:
                return orderedBits(row.getFloat(i));
            case FLOAT64:
                return orderedBits(row.getDouble(i));
            default:
                return row.getLong(i);
        }
    }

    /** The stored index of the value whose key is {@code key}, or -1 when the coordinate does not hold it. */
    int find(long key) {
        int n = keys.length;
        if (n == 0) {
            return -1;
        }
        int l = last;
        if (keys[l] == key) {
            return index[l];
        }
        if (l + 1 < n && keys[l + 1] == key) {
            last = l + 1;
            return index[l + 1];
        }
        if (l > 0 && keys[l - 1] == key) {
            last = l - 1;
            return index[l - 1];
        }
        int at = Arrays.binarySearch(keys, key);
        if (at < 0) {
            return -1;
        }
        last = at;
        return index[at];
    }

    /** The value of a key, for messages. */
    String format(long key) {
        if (kind.isFloating()) {
            double d = fromOrderedBits(key);
            return kind == ZarrWriteColumn.Kind.FLOAT32 ? Float.toString((float) d) : Double.toString(d);
        }
        return ZarrWriteCoordinate.formatLong(kind, key);
    }

    /**
     * A long whose order is that of {@code Double.compare} on {@code d} with {@code -0.0} taken as {@code 0.0} and
     * every NaN as one: equal keys for values SQL takes as equal.
     */
    static long orderedBits(double d) {
        long b = Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
        return b < 0 ? b ^ Long.MAX_VALUE : b;
    }

    static double fromOrderedBits(long k) {
        return Double.longBitsToDouble(k < 0 ? k ^ Long.MAX_VALUE : k);
    }

    static InvalidArgumentException notFound(String path, ZarrWriteColumn dim, String value) {
        return new InvalidArgumentException("zarr write to " + path + ": the dimension column " + dim.name
                + " has the value " + value + ", which is not among the values of its option coords." + dim.name);
    }

    static InvalidArgumentException isNull(String path, ZarrWriteColumn dim) {
        return new InvalidArgumentException("zarr write to " + path + ": the dimension column " + dim.name
                + " is null in a row; dimensions take no nulls");
    }
}
