package io.cubed.spark.sql;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;

/**
 * The coordinate values of one dimension of a DataFrame written as Zarr, in the order they are stored, as a row holds
 * them ({@code InternalRow}: integers, times as microseconds, dates as days in {@link #longs}; floating values in
 * {@link #doubles}).
 */
final class ZarrWriteCoordinate implements Serializable {
    private static final long serialVersionUID = 1L;

    final ZarrWriteColumn column;
    private final long[] longs; // null for floating dimensions
    private final double[] doubles; // null otherwise

    private ZarrWriteCoordinate(ZarrWriteColumn column, long[] longs, double[] doubles) {
        this.column = column;
        this.longs = longs;
        this.doubles = doubles;
    }

    /**
     * The coordinate of {@code values} (boxed Long or Double, as {@link ZarrWriter} collects them): sorted when {@code
     * sort}, else kept in the order given; two equal values are an error naming the dimension.
     */
    static ZarrWriteCoordinate of(String path, ZarrWriteColumn column, Object[] values, boolean sort) {
        String dim = column.name;
        if (column.kind.isFloating()) {
            double[] d = new double[values.length];
            for (int i = 0; i < d.length; i++) {
                double v = ((Number) values[i]).doubleValue();
                d[i] = v == 0.0 ? 0.0 : v; // -0.0 and 0.0 are one coordinate, as SQL equality and joins take them
            }
            if (sort) {
                Arrays.sort(d);
            }
            double[] s = d.clone();
            Arrays.sort(s);
            for (int i = 1; i < s.length; i++) {
                if (Double.compare(s[i - 1], s[i]) == 0) {
                    if (sort) {
                        return new ZarrWriteCoordinate(column, null, distinct(d));
                    }
                    throw duplicate(path, dim, Double.toString(s[i]));
                }
            }
            return new ZarrWriteCoordinate(column, null, d);
        }
        long[] l = new long[values.length];
        for (int i = 0; i < l.length; i++) {
            l[i] = ((Number) values[i]).longValue();
        }
        if (sort) {
            Arrays.sort(l);
        }
        long[] s = l.clone();
        Arrays.sort(s);
        for (int i = 1; i < s.length; i++) {
            if (s[i - 1] == s[i]) {
                throw duplicate(path, dim, new ZarrWriteCoordinate(column, new long[] {s[i]}, null).format(0));
            }
        }
        return new ZarrWriteCoordinate(column, l, null);
    }

    private static double[] distinct(double[] sorted) {
        return Arrays.stream(sorted).distinct().toArray();
    }

    private static InvalidArgumentException duplicate(String path, String dim, String value) {
        return new InvalidArgumentException("zarr write to " + path + ": the option coords." + dim + " gives the value "
                + value + " twice; a coordinate holds each value once");
    }

    int size() {
        return longs != null ? longs.length : doubles.length;
    }

    private static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    }

    /** The value at {@code i} for messages: times in ISO form (UTC for timestamps). */
    String format(int i) {
        switch (column.kind) {
            case FLOAT32:
                return Float.toString((float) doubles[i]);
            case FLOAT64:
                return Double.toString(doubles[i]);
            default:
                return formatLong(column.kind, longs[i]);
        }
    }

    /** An integer, date (days) or time (microseconds) value of {@code kind} for messages. */
    static String formatLong(ZarrWriteColumn.Kind kind, long v) {
        switch (kind) {
            case DATE:
                return LocalDate.ofEpochDay(v).toString();
            case TIMESTAMP:
                return instant(v).toString();
            case TIMESTAMP_NTZ:
                return LocalDateTime.ofInstant(instant(v), ZoneOffset.UTC).toString();
            default:
                return Long.toString(v);
        }
    }

    /** The value at {@code i} of an integer, date or time coordinate (as a row holds it). */
    long longAt(int i) {
        return longs[i];
    }

    /** The value at {@code i} of a floating coordinate. */
    double doubleAt(int i) {
        return doubles[i];
    }

    /** The stored coordinate array: times in their CF units, one chunk of the whole coordinate. */
    Chunk toChunk() {
        int n = size();
        DType dtype = column.dtype();
        Chunk c = Chunk.allocate(dtype, n);
        switch (column.kind) {
            case FLOAT32:
                for (int i = 0; i < n; i++) {
                    c.floats()[i] = (float) doubles[i];
                }
                break;
            case FLOAT64:
                System.arraycopy(doubles, 0, c.doubles(), 0, n);
                break;
            case INT8:
                for (int i = 0; i < n; i++) {
                    c.bytes()[i] = (byte) longs[i];
                }
                break;
            case INT16:
                for (int i = 0; i < n; i++) {
                    c.shorts()[i] = (short) longs[i];
                }
                break;
            case INT32:
            case DATE:
                for (int i = 0; i < n; i++) {
                    c.ints()[i] = (int) longs[i];
                }
                break;
            default: // INT64 and times
                for (int i = 0; i < n; i++) {
                    c.longs()[i] = longs[i] / column.unitMicros;
                }
                break;
        }
        return c;
    }
}
