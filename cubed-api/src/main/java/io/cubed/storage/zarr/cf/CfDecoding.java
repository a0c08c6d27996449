package io.cubed.storage.zarr.cf;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.RegroupedChunkStore;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrV3Array;
import java.io.Serializable;
import java.util.Arrays;
import java.util.Map;

/**
 * How the values of one array decode under the CF conventions, as xarray's {@code decode_cf} (2023.01) decodes them,
 * decided from its attributes, data type and Zarr fill value once on the driver and carried by tasks:
 *
 * <ul>
 *   <li>{@code _Unsigned: "true"} on a signed integer array reads its values as the unsigned type of the same size,
 *       {@code "false"} on an unsigned one as the signed type (xarray's {@code UnsignedIntegerCoder}, under
 *       mask-and-scale, before the mask); a {@code _FillValue} or Zarr fill value converts to that type as NumPy
 *       converts it (-1 is 255 as uint8).
 *   <li>mask: values equal (as stored) to {@code _FillValue} or any {@code missing_value} become NaN; the Zarr
 *       {@code fill_value} is the {@code _FillValue} when {@link CfOptions#zarrFillValueAsMask} says so. NaN fill
 *       values mask nothing (NaN stays NaN). A masked integer array becomes float32 (8 and 16 bits) or float64.
 *   <li>scale: with {@code scale_factor} or {@code add_offset}, {@code value * scale_factor + add_offset} in float32
 *       when the type so far is float32, or a 8- or 16-bit integer without {@code add_offset}; else in float64.
 *   <li>durations: units exactly "days", "hours", "minutes", "seconds", "milliseconds", "microseconds" or
 *       "nanoseconds" give {@link DType#INT64} microseconds (numpy's {@code timedelta64}; NaN gives {@link
 *       CfTimeUnits#NAT}), as xarray's {@code CFTimedeltaCoder}, whenever times are decoded.
 *   <li>times: units "UNIT since DATE" give {@link DType#INT64} microseconds since 1970-01-01T00:00 ({@link
 *       CfTimeUnits}; NaN gives {@link CfTimeUnits#NAT}). On calendars whose dates are not all Gregorian ones
 *       ({@code all_leap}, {@code 360_day}, {@code julian}) an array stays numeric (its units kept, {@link
 *       #keptTimeUnits}), except a coordinate every value of which has a Gregorian label ({@link #ofCoordinate}).
 *   <li>an integer array with the attribute {@code dtype: "bool"} (xarray's encoding of booleans) reads as bool:
 *       nonzero is true, after masking and scaling as xarray casts them, so that a masked value (NaN) is true.
 * </ul>
 *
 * Boolean arrays are never masked (xarray would turn them into Python objects). Immutable and serializable.
 */
public final class CfDecoding implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String what;
    private final DType stored;
    /** The type the stored values are read as: {@link #stored}, or its counterpart of the other sign (_Unsigned). */
    private final DType view;

    private final boolean masked;
    /** Mask values of an integer array, as stored (unsigned types widened; uint64 as its bits). */
    private final long[] integerMasks;
    /** Mask values of a floating array. */
    private final double[] floatMasks;

    private final Double scale;
    private final Double offset;
    /** The type after masking and scaling. */
    private final DType numeric;

    private final CfTimeUnits time;
    private final CfTimeUnits keptTime;
    private final boolean bool;
    private final Map<String, String> attributes;

    CfDecoding(
            String what,
            DType stored,
            DType view,
            boolean masked,
            long[] integerMasks,
            double[] floatMasks,
            Double scale,
            Double offset,
            DType numeric,
            CfTimeUnits time,
            CfTimeUnits keptTime,
            boolean bool,
            Map<String, String> attributes) {
        this.what = what;
        this.stored = stored;
        this.view = view;
        this.masked = masked;
        this.integerMasks = integerMasks;
        this.floatMasks = floatMasks;
        this.scale = scale;
        this.offset = offset;
        this.numeric = numeric;
        this.time = time;
        this.keptTime = keptTime;
        this.bool = bool;
        this.attributes = attributes;
    }

    /**
     * Records in {@code missing} the index of every missing value of {@code values[off .. off + n]} (a {@code float[]}
     * or {@code double[]}: NaN; a {@code long[]} of decoded times: {@link CfTimeUnits#NAT}; other arrays have none) and
     * returns how many there are: the search {@link #decodeRun} makes of what it decoded, for values read as stored
     * whose NaN are to show as missing (float32 on the Vector API once warm, as the decoding's own loops).
     */
    public static int missing(Object values, int off, int n, int[] missing) {
        return CfKernels.missing(values, off, n, missing);
    }

    /** No decoding: values as stored (arrays without attributes, computed arrays). */
    public static CfDecoding identity(String what, DType dtype) {
        return new CfDecoding(
                what, dtype, dtype, false, new long[0], new double[0], null, null, dtype, null, null, false, Map.of());
    }

    /**
     * Starts the warm-up of the vector decoding loops now (a background thread, see {@code CfWarmup}) instead of once
     * the scalar loops have decoded 1.5 billion values: a process about to decode billions (a benchmark) gives the JIT
     * a head start. Does nothing where the vector loops are off or already warm.
     */
    public static void warmUp() {
        CfWarmup.VECTOR.start();
    }

    /**
     * The decoding of a data variable {@code array} (a Zarr array of either format, or a regrouped view of one; other
     * arrays decode as the identity) under {@code options}: times on calendars whose dates are not all Gregorian stay
     * numeric. Fails, naming the array and the attribute, when an attribute cannot be decoded.
     */
    public static CfDecoding of(ChunkStore array, CfOptions options) {
        return build(array, options, null);
    }

    /**
     * The decoding of a coordinate {@code array} whose every stored value {@code values} holds: times decode on any
     * calendar when every value has a timestamp with its label, and stay numeric otherwise.
     */
    public static CfDecoding ofCoordinate(ChunkStore array, CfOptions options, Chunk values) {
        return build(array, options, values);
    }

    private static CfDecoding build(ChunkStore array, CfOptions options, Chunk values) {
        ChunkStore a = array instanceof RegroupedChunkStore r ? r.source() : array;
        if (a instanceof ZarrArray v2) {
            return of(a.url(), a.dtype(), v2.metadata().fillValue(), 2, v2.attributes(), options, values);
        }
        if (a instanceof ZarrV3Array v3) {
            return of(a.url(), a.dtype(), v3.metadata().fillValue(), 3, v3.attributes(), options, values);
        }
        return identity(array.url(), array.dtype());
    }

    /**
     * The decoding of an array {@code what} of type {@code dtype} with Zarr fill value {@code zarrFill} (null: none) in
     * Zarr format {@code zarrFormat} and attributes {@code attrs}, by the rules of {@link CfRules}; {@code values}, when
     * given, are all its values (a coordinate's), against which times on any calendar are tried.
     */
    public static CfDecoding of(
            String what,
            DType dtype,
            Scalar zarrFill,
            int zarrFormat,
            Map<String, Object> attrs,
            CfOptions options,
            Chunk values) {
        return CfRules.decide(what, dtype, zarrFill, zarrFormat, attrs, options, values);
    }

    CfDecoding withNumericTimes() {
        return new CfDecoding(
                what,
                stored,
                view,
                masked,
                integerMasks,
                floatMasks,
                scale,
                offset,
                numeric,
                null,
                time,
                bool,
                attributes);
    }

    /**
     * True when masked integer times decode from the stored integers themselves (NAT at the mask values), exactly,
     * rather than through the float64 xarray masks them into (which rounds int64 values above 2^53): integers without
     * scaling, but uint64 (whose values above 2^63 a long does not hold).
     */
    private boolean integerTimes() {
        return masked && scale == null && offset == null && view.isInteger() && view != DType.UINT64;
    }

    boolean everyTimeHasALabel(Chunk values) {
        if (integerTimes()) {
            long[] t = new long[values.size()];
            Chunk raw = viewed(values);
            for (int i = 0; i < t.length; i++) {
                long v = raw.getLong(i);
                if (!CfKernels.isMask(v, integerMasks) && time.labelMicros(v) == CfTimeUnits.UNREPRESENTABLE) {
                    return false;
                }
            }
            return true;
        }
        Chunk numbers = viewed(values);
        if (masked || scale != null || offset != null) {
            numbers = Chunk.allocate(numeric, values.shape());
            numbers(viewed(values), 0, numbers.data(), 0, values.size());
        }
        for (int i = 0; i < numbers.size(); i++) {
            long m = numbers.dtype().isFloating()
                    ? time.labelMicros(numbers.getDouble(i))
                    : time.labelMicros(numbers.getLong(i));
            if (m == CfTimeUnits.UNREPRESENTABLE) {
                return false;
            }
        }
        return true;
    }

    /** The array, for messages. */
    public String what() {
        return what;
    }

    /** The stored data type. */
    public DType storedDType() {
        return stored;
    }

    /**
     * The decoded data type: {@link DType#INT64} (microseconds since 1970-01-01) for times, bool for xarray's encoded
     * booleans, else the type after masking and scaling.
     */
    public DType dtype() {
        return time != null ? DType.INT64 : bool ? DType.BOOL : numeric;
    }

    /** True when values decode to times ({@link #dtype} holds microseconds since 1970-01-01, {@link CfTimeUnits#NAT}). */
    public boolean isTime() {
        return time != null && !time.isDuration();
    }

    /** True when values decode to durations ({@link #dtype} holds microseconds, {@link CfTimeUnits#NAT}). */
    public boolean isDuration() {
        return time != null && time.isDuration();
    }

    /** The units of the values when they decode to times or durations, else null. */
    public CfTimeUnits timeUnits() {
        return time;
    }

    /** The time units of an array kept numeric because its calendar's dates are not all Gregorian, or null. */
    public CfTimeUnits keptTimeUnits() {
        return keptTime;
    }

    /** True when values are masked (a non-NaN fill value or missing value). */
    public boolean isMasked() {
        return masked;
    }

    Double scale() {
        return scale;
    }

    Double offset() {
        return offset;
    }

    DType numeric() {
        return numeric;
    }

    long[] integerMasks() {
        return integerMasks;
    }

    double[] floatMasks() {
        return floatMasks;
    }

    /** True when decoding changes nothing. */
    public boolean isIdentity() {
        return time == null && !bool && !masked && scale == null && offset == null && view == stored;
    }

    /** True when a decoded value may be missing: NaN (a floating type) or {@link CfTimeUnits#NAT}. */
    public boolean canBeMissing() {
        return numeric.isFloating() && !bool;
    }

    /** The string attributes {@code units}, {@code calendar}, {@code long_name}, {@code standard_name} it has. */
    public Map<String, String> descriptiveAttributes() {
        return attributes;
    }

    /**
     * Decodes {@code raw} (a chunk of the stored type) into a new chunk of {@link #dtype} ({@code raw} itself when
     * decoding changes nothing); fails naming the array, the value and the units when a time has no timestamp
     * (before year 1 or after 9999).
     */
    public Chunk decode(Chunk raw) {
        checkStored(raw);
        if (isIdentity()) {
            return raw;
        }
        Chunk out = Chunk.allocate(dtype(), raw.shape());
        decodeRun(raw, 0, out.data(), 0, raw.size());
        return out;
    }

    /**
     * Decodes the {@code n} elements of {@code raw} (a chunk of the stored type) from C-order position {@code from}
     * into {@code dst}, an array of {@link #dtype}'s element type (as {@link Chunk#data} holds them), from {@code
     * dstOff}: a run at a time, without allocating a decoded chunk (the SQL reader decodes into one batch-sized
     * buffer).
     */
    public void decodeRun(Chunk raw, int from, Object dst, int dstOff, int n) {
        decodeRun(raw, from, dst, dstOff, n, null);
    }

    /**
     * As {@link #decodeRun(Chunk, int, Object, int, int)}, also recording in {@code missing} (when not null, of at
     * least {@code n} elements) the index in {@code dst} of every decoded value that is missing (NaN, or {@link
     * CfTimeUnits#NAT}), and returning how many there are (0 when {@code missing} is null).
     */
    public int decodeRun(Chunk storedValues, int from, Object dst, int dstOff, int n, int[] missing) {
        checkStored(storedValues);
        Chunk raw = viewed(storedValues);
        if (bool) {
            if (masked || scale != null || offset != null) {
                // xarray masks and scales first, then casts to bool: a masked value (NaN) is true, as numpy casts it.
                Chunk numbers = Chunk.allocate(numeric, n);
                numbers(raw, from, numbers.data(), 0, n);
                CfKernels.boolsOfNumbers(numbers, (boolean[]) dst, dstOff, n);
            } else {
                CfKernels.bools(raw, from, (boolean[]) dst, dstOff, n);
            }
            return 0;
        }
        if (time != null) {
            long[] t = (long[]) dst;
            if (integerTimes()) {
                CfKernels.maskedIntegerTimes(raw, from, integerMasks, time, what, t, dstOff, n);
                return missing == null ? 0 : CfKernels.missing(t, dstOff, n, missing);
            }
            Chunk numbers = raw;
            int at = from;
            if (masked || scale != null || offset != null) {
                numbers = Chunk.allocate(numeric, n);
                numbers(raw, from, numbers.data(), 0, n);
                at = 0;
            }
            CfKernels.times(numbers, at, time, what, t, dstOff, n);
            return missing == null ? 0 : CfKernels.missing(t, dstOff, n, missing);
        }
        if (masked || scale != null || offset != null) {
            Object table = table();
            if (table != null) {
                if (int16ToFloat32 != null) {
                    return CfKernels.int16ToFloat32(
                            raw,
                            from,
                            int16ToFloat32,
                            (float[]) table,
                            integerMasks,
                            (float[]) dst,
                            dstOff,
                            n,
                            missing);
                }
                return CfKernels.lookup(raw, from, table, integerMasks, dst, dstOff, n, missing);
            }
            numbers(raw, from, dst, dstOff, n);
        } else {
            int slots = view.slotsPerElement();
            System.arraycopy(raw.data(), from * slots, dst, dstOff * slots, n * slots);
        }
        return missing == null || !numeric.isFloating() ? 0 : CfKernels.missing(dst, dstOff, n, missing);
    }

    /**
     * The decoded value of every stored value of an 8- or 16-bit integer array (indexed by its bits), NaN exactly where
     * a mask value is: decoding by lookup costs less than converting and scaling each value. Null for other arrays.
     * Made once per deserialized copy (256 KB for 16 bits).
     */
    private transient Object table;

    private transient boolean tableChecked;

    /** How an int16 array packed into float32 decodes, for the vector loops; null for other arrays. */
    private transient CfKernels.Int16ToFloat32 int16ToFloat32;

    private Object table() {
        if (!tableChecked) {
            if (view.isInteger() && view.itemSizeBytes() <= 2) {
                int size = 1 << (8 * view.itemSizeBytes());
                Chunk all = Chunk.allocate(view, size);
                for (int v = 0; v < size; v++) {
                    if (view.itemSizeBytes() == 1) {
                        all.bytes()[v] = (byte) v;
                    } else {
                        all.shorts()[v] = (short) v;
                    }
                }
                Chunk decoded = Chunk.allocate(numeric, size);
                numbers(all, 0, decoded.data(), 0, size);
                // The positions of missing values come from the mask values: only when nothing else is NaN.
                boolean onlyMasksNaN = true;
                for (int v = 0; v < size && onlyMasksNaN; v++) {
                    boolean isMask = false;
                    for (long m : integerMasks) {
                        isMask |= (m & (size - 1)) == v;
                    }
                    onlyMasksNaN = isMask || !Double.isNaN(decoded.getDouble(v));
                }
                table = onlyMasksNaN ? decoded.data() : null;
                if (table != null && view == DType.INT16 && numeric == DType.FLOAT32) {
                    short[] masks = new short[integerMasks.length];
                    for (int i = 0; i < masks.length; i++) {
                        masks[i] = (short) integerMasks[i];
                    }
                    int16ToFloat32 = new CfKernels.Int16ToFloat32(
                            scale == null ? 1f : (float) (double) scale,
                            offset == null ? -0.0f : (float) (double) offset,
                            masks);
                }
            }
            tableChecked = true;
        }
        return table;
    }

    /** Masks and scales {@code n} elements of {@code raw} from {@code from} into {@code dst}, of {@link #numeric}. */
    private void numbers(Chunk raw, int from, Object dst, int off, int n) {
        if (numeric == DType.FLOAT32) {
            CfKernels.toFloat32(raw, from, this, (float[]) dst, off, n);
        } else {
            CfKernels.toFloat64(raw, from, this, (double[]) dst, off, n);
        }
    }

    /** {@code raw}, of the stored type, as the type its values are read as (the same array, no copy). */
    private Chunk viewed(Chunk raw) {
        return view == stored ? raw : Chunk.wrap(view, raw.shape(), raw.data());
    }

    private void checkStored(Chunk raw) {
        if (raw.dtype() != stored) {
            throw new IllegalArgumentException(
                    "a chunk of " + raw.dtype() + " given to the decoding of " + what + ", which is " + stored);
        }
    }

    /** The decoded value of a stored one (a fill value, say): NaN when masked. */
    public Scalar decode(Scalar raw) {
        Chunk one = Chunk.full(stored, raw, 1);
        Chunk d = decode(one);
        return d.getScalar(0);
    }

    @Override
    public String toString() {
        StringBuilder s =
                new StringBuilder("CfDecoding{").append(what).append(": ").append(stored);
        if (view != stored) {
            s.append(" read as ").append(view);
        }
        if (masked) {
            s.append(", masks ")
                    .append(view.isFloating() ? Arrays.toString(floatMasks) : Arrays.toString(integerMasks));
        }
        if (scale != null) {
            s.append(", scale ").append(scale);
        }
        if (offset != null) {
            s.append(", offset ").append(offset);
        }
        s.append(" -> ").append(numeric);
        if (time != null) {
            s.append(time.isDuration() ? ", durations " : ", times ").append(time);
        }
        if (keptTime != null) {
            s.append(", numeric times ").append(keptTime);
        }
        return s.append('}').toString();
    }
}
