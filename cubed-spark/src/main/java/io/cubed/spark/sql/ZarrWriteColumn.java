package io.cubed.spark.sql;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * One column of a DataFrame written as Zarr: its Spark type, the Zarr data type it is stored as, its fill value (the
 * value of cells no row gives; null: none declared) and, for times, the CF encoding: timestamps as int64 counts of
 * {@link #unitMicros} since 1970-01-01 (the coarsest of seconds, milliseconds and microseconds that holds every value
 * exactly), dates as int32 days since 1970-01-01, both on the proleptic Gregorian calendar.
 */
final class ZarrWriteColumn implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The Spark types written, by how a row holds them ({@code InternalRow}). */
    enum Kind {
        BOOL(DType.BOOL),
        INT8(DType.INT8),
        INT16(DType.INT16),
        INT32(DType.INT32),
        INT64(DType.INT64),
        FLOAT32(DType.FLOAT32),
        FLOAT64(DType.FLOAT64),
        TIMESTAMP(DType.INT64),
        TIMESTAMP_NTZ(DType.INT64),
        DATE(DType.INT32);

        final DType dtype;

        Kind(DType dtype) {
            this.dtype = dtype;
        }

        boolean isTime() {
            return this == TIMESTAMP || this == TIMESTAMP_NTZ;
        }

        boolean isInteger() {
            return this == INT8 || this == INT16 || this == INT32 || this == INT64;
        }

        boolean isFloating() {
            return this == FLOAT32 || this == FLOAT64;
        }
    }

    final String name;
    final Kind kind;
    final Scalar fill;
    final long unitMicros;

    ZarrWriteColumn(String name, Kind kind, Scalar fill, long unitMicros) {
        this.name = name;
        this.kind = kind;
        this.fill = fill;
        this.unitMicros = unitMicros;
    }

    DType dtype() {
        return kind.dtype;
    }

    /** The kind of a column of {@code type}; other types are an error naming the column, its type and the path. */
    static Kind kindOf(String path, String column, DataType type) {
        if (type.equals(DataTypes.BooleanType)) {
            return Kind.BOOL;
        } else if (type.equals(DataTypes.ByteType)) {
            return Kind.INT8;
        } else if (type.equals(DataTypes.ShortType)) {
            return Kind.INT16;
        } else if (type.equals(DataTypes.IntegerType)) {
            return Kind.INT32;
        } else if (type.equals(DataTypes.LongType)) {
            return Kind.INT64;
        } else if (type.equals(DataTypes.FloatType)) {
            return Kind.FLOAT32;
        } else if (type.equals(DataTypes.DoubleType)) {
            return Kind.FLOAT64;
        } else if (type.equals(DataTypes.TimestampType)) {
            return Kind.TIMESTAMP;
        } else if (type.equals(DataTypes.TimestampNTZType)) {
            return Kind.TIMESTAMP_NTZ;
        } else if (type.equals(DataTypes.DateType)) {
            return Kind.DATE;
        }
        throw new InvalidArgumentException("zarr write to " + path + ": column " + column + " has type "
                + type.simpleString() + ", which Zarr cannot hold; the types written are boolean, tinyint, smallint,"
                + " int, bigint, float, double, timestamp, timestamp_ntz and date (cast it, or drop the column)");
    }

    /**
     * The fill value of a variable of {@code kind}: {@code given} (the option {@code fillValue.COLUMN}) if set, else
     * NaN for floats, the least value of the type for integers and times (NaT for xarray), none for booleans.
     */
    static Scalar fillOf(String path, String column, Kind kind, String given) {
        if (given == null) {
            switch (kind) {
                case BOOL:
                    return null;
                case FLOAT32:
                case FLOAT64:
                    return Scalar.ofDouble(Double.NaN);
                case INT8:
                    return Scalar.ofLong(Byte.MIN_VALUE);
                case INT16:
                    return Scalar.ofLong(Short.MIN_VALUE);
                case INT32:
                case DATE:
                    return Scalar.ofLong(Integer.MIN_VALUE);
                default:
                    return Scalar.ofLong(Long.MIN_VALUE);
            }
        }
        String g = given.trim();
        try {
            switch (kind) {
                case BOOL:
                    if (g.equalsIgnoreCase("true") || g.equalsIgnoreCase("false")) {
                        return Scalar.ofBoolean(Boolean.parseBoolean(g));
                    }
                    throw new NumberFormatException();
                case FLOAT32:
                case FLOAT64:
                    return Scalar.ofDouble(Double.parseDouble(g));
                default:
                    long v = Long.parseLong(g);
                    long min = kind == Kind.INT8
                            ? Byte.MIN_VALUE
                            : kind == Kind.INT16
                                    ? Short.MIN_VALUE
                                    : kind == Kind.INT32 || kind == Kind.DATE ? Integer.MIN_VALUE : Long.MIN_VALUE;
                    long max = -(min + 1);
                    if (v < min || v > max) {
                        throw new NumberFormatException();
                    }
                    return Scalar.ofLong(v);
            }
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException("zarr write to " + path + ": fillValue." + column + "='" + given
                    + "' is not a value of the " + kind.dtype + " the column is stored as");
        }
    }

    /** The CF attributes of a time column ({@code units}, {@code calendar}); empty for others. */
    Map<String, Object> cfAttributes() {
        Map<String, Object> a = new LinkedHashMap<>();
        if (kind == Kind.DATE) {
            a.put("units", "days since 1970-01-01");
        } else if (kind.isTime()) {
            String unit = unitMicros == 1_000_000L ? "seconds" : unitMicros == 1_000L ? "milliseconds" : "microseconds";
            a.put("units", unit + " since 1970-01-01");
        } else {
            return a;
        }
        a.put("calendar", "proleptic_gregorian");
        return a;
    }
}
