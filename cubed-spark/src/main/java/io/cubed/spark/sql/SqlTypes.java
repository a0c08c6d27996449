package io.cubed.spark.sql;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.zarr.cf.CfDecoding;
import io.cubed.storage.zarr.cf.CfTimeUnits;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;

/**
 * Spark SQL column types of Zarr data types, and the copies of chunk elements into column vectors. Unsigned types
 * widen to the next signed type that holds all their values (uint8 to smallint, uint16 to int, uint32 to bigint,
 * uint64 to decimal(20,0)); complex numbers have no SQL column type and are refused.
 */
final class SqlTypes {
    /** The type of uint64 columns: every value from 0 to 2^64 - 1 fits. */
    static final DecimalType UINT64 = DataTypes.createDecimalType(20, 0);

    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    private SqlTypes() {}

    /** Which element values a column shows as SQL NULL. */
    enum Nulls {
        /** None: every value is shown. */
        NONE,
        /** NaN of a floating column. */
        NAN,
        /** {@link CfTimeUnits#NAT} of a time column. */
        NAT;

        /**
         * The NULLs of values decoded by {@code cf}: missing times and durations, and NaN of floating values when
         * {@code nanAsNull}; {@link #NONE} when no value can be missing.
         */
        static Nulls of(CfDecoding cf, boolean nanAsNull) {
            if (cf.isTime() || cf.isDuration()) {
                return cf.canBeMissing() ? NAT : NONE;
            }
            return nanAsNull && cf.dtype().isFloating() ? NAN : NONE;
        }

        /** True when element {@code flat} of {@code values} shows as NULL. */
        boolean isNull(Chunk values, int flat) {
            switch (this) {
                case NAN:
                    return Double.isNaN(values.getDouble(flat));
                case NAT:
                    return values.longs()[flat] == CfTimeUnits.NAT;
                default:
                    return false;
            }
        }
    }

    /** The column type of durations: {@code INTERVAL DAY TO SECOND}, microseconds as Spark holds it. */
    static final DataType DURATION = DataTypes.createDayTimeIntervalType();

    /**
     * The column type of values decoded by {@code cf}: {@code timestamp_ntz} for times (microseconds since
     * 1970-01-01, no time zone), {@link #DURATION} for durations, else the type of the decoded data type.
     */
    static DataType of(CfDecoding cf, String what) {
        return cf.isTime() ? DataTypes.TimestampNTZType : cf.isDuration() ? DURATION : of(cf.dtype(), what);
    }

    /**
     * The field metadata of a column decoded by {@code cf}: its descriptive attributes, without a decoded time's or
     * duration's units.
     */
    static Metadata metadata(CfDecoding cf) {
        MetadataBuilder b = new MetadataBuilder();
        cf.descriptiveAttributes().forEach((k, v) -> {
            if (!(cf.isTime() || cf.isDuration()) || !(k.equals("units") || k.equals("calendar"))) {
                b.putString(k, v);
            }
        });
        return b.build();
    }

    /** As {@link #copy(Chunk, int, WritableColumnVector, int, int)}, then NULL where {@code nulls} says. */
    static void copy(Chunk chunk, int from, WritableColumnVector v, int row, int count, Nulls nulls) {
        copy(chunk, from, v, row, count);
        switch (nulls) {
            case NAN:
                if (chunk.dtype() == DType.FLOAT32) {
                    float[] f = chunk.floats();
                    for (int i = 0; i < count; i++) {
                        if (Float.isNaN(f[from + i])) {
                            v.putNull(row + i);
                        }
                    }
                } else {
                    double[] d = chunk.doubles();
                    for (int i = 0; i < count; i++) {
                        if (Double.isNaN(d[from + i])) {
                            v.putNull(row + i);
                        }
                    }
                }
                return;
            case NAT:
                long[] t = chunk.longs();
                for (int i = 0; i < count; i++) {
                    if (t[from + i] == CfTimeUnits.NAT) {
                        v.putNull(row + i);
                    }
                }
                return;
            default:
        }
    }

    /** As {@link #put(Chunk, int, WritableColumnVector, int)}, or NULL where {@code nulls} says. */
    static void put(Chunk chunk, int flat, WritableColumnVector v, int row, Nulls nulls) {
        if (nulls.isNull(chunk, flat)) {
            v.putNull(row);
        } else {
            put(chunk, flat, v, row);
        }
    }

    /** As {@link #fill(Chunk, int, WritableColumnVector, int, int)}, or NULLs where {@code nulls} says. */
    static void fill(Chunk chunk, int flat, WritableColumnVector v, int row, int count, Nulls nulls) {
        if (nulls.isNull(chunk, flat)) {
            v.putNulls(row, count);
        } else {
            fill(chunk, flat, v, row, count);
        }
    }

    /** The column type of {@code dtype}; {@code what} names the array in the error for a type SQL cannot hold. */
    static DataType of(DType dtype, String what) {
        switch (dtype) {
            case BOOL:
                return DataTypes.BooleanType;
            case INT8:
                return DataTypes.ByteType;
            case INT16:
            case UINT8:
                return DataTypes.ShortType;
            case INT32:
            case UINT16:
                return DataTypes.IntegerType;
            case INT64:
            case UINT32:
                return DataTypes.LongType;
            case UINT64:
                return UINT64;
            case FLOAT32:
                return DataTypes.FloatType;
            case FLOAT64:
                return DataTypes.DoubleType;
            default:
                throw new InvalidArgumentException("zarr data source: " + what + " has data type " + dtype
                        + ", which has no Spark SQL column type (supported: bool, int8-int64, uint8-uint64, float32, "
                        + "float64); leave it out with the option 'variables', or read it with the array API");
        }
    }

    /** Copies {@code count} elements of {@code chunk} from C-order position {@code from} into rows {@code row}... */
    static void copy(Chunk chunk, int from, WritableColumnVector v, int row, int count) {
        switch (chunk.dtype()) {
            case FLOAT64:
                v.putDoubles(row, count, chunk.doubles(), from);
                return;
            case FLOAT32:
                v.putFloats(row, count, chunk.floats(), from);
                return;
            case INT64:
                v.putLongs(row, count, chunk.longs(), from);
                return;
            case INT32:
                v.putInts(row, count, chunk.ints(), from);
                return;
            case INT16:
                v.putShorts(row, count, chunk.shorts(), from);
                return;
            case INT8:
                v.putBytes(row, count, chunk.bytes(), from);
                return;
            default:
                for (int i = 0; i < count; i++) {
                    put(chunk, from + i, v, row + i);
                }
        }
    }

    /** Puts the element of {@code chunk} at C-order position {@code flat} into row {@code row} of {@code v}. */
    static void put(Chunk chunk, int flat, WritableColumnVector v, int row) {
        switch (chunk.dtype()) {
            case BOOL:
                v.putBoolean(row, chunk.booleans()[flat]);
                return;
            case INT8:
                v.putByte(row, chunk.bytes()[flat]);
                return;
            case UINT8:
                v.putShort(row, (short) Byte.toUnsignedInt(chunk.bytes()[flat]));
                return;
            case INT16:
                v.putShort(row, chunk.shorts()[flat]);
                return;
            case UINT16:
                v.putInt(row, Short.toUnsignedInt(chunk.shorts()[flat]));
                return;
            case INT32:
                v.putInt(row, chunk.ints()[flat]);
                return;
            case UINT32:
                v.putLong(row, Integer.toUnsignedLong(chunk.ints()[flat]));
                return;
            case INT64:
                v.putLong(row, chunk.longs()[flat]);
                return;
            case UINT64:
                v.putDecimal(row, unsigned(chunk.longs()[flat]), UINT64.precision());
                return;
            case FLOAT32:
                v.putFloat(row, chunk.floats()[flat]);
                return;
            case FLOAT64:
                v.putDouble(row, chunk.doubles()[flat]);
                return;
            default:
                throw new AssertionError(chunk.dtype());
        }
    }

    /** Puts the element of {@code chunk} at {@code flat} into {@code count} rows from {@code row}. */
    static void fill(Chunk chunk, int flat, WritableColumnVector v, int row, int count) {
        switch (chunk.dtype()) {
            case FLOAT64:
                v.putDoubles(row, count, chunk.doubles()[flat]);
                return;
            case FLOAT32:
                v.putFloats(row, count, chunk.floats()[flat]);
                return;
            case INT64:
                v.putLongs(row, count, chunk.longs()[flat]);
                return;
            case INT32:
                v.putInts(row, count, chunk.ints()[flat]);
                return;
            default:
                for (int i = 0; i < count; i++) {
                    put(chunk, flat, v, row + i);
                }
        }
    }

    /** A uint64 (held in a long's bits) as a decimal(20,0). */
    static Decimal unsigned(long bits) {
        BigInteger b = BigInteger.valueOf(bits);
        if (bits < 0) {
            b = b.add(TWO_64);
        }
        return Decimal.apply(new BigDecimal(b), UINT64.precision(), UINT64.scale());
    }
}
