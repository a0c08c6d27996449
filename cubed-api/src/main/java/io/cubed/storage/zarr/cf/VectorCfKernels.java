package io.cubed.storage.zarr.cf;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The two hottest loops of {@link CfKernels} with the JDK's Vector API, for JVMs started with {@code --add-modules
 * jdk.incubator.vector}: packed int16 values masked and scaled to float32 (ERA5's encoding), and float32 values
 * searched for NaN. Each converts or compares four float vectors of values per step, tests the step once for a mask
 * value or a NaN, and falls back to scalar code only for a step that holds one (for one mask value, the usual lone
 * {@code _FillValue}, a loop without an inner loop over the mask values). The results are the scalar loops' bit for
 * bit: the conversion, the product and the sum are separate IEEE float operations in both. Only {@link CfKernels}
 * calls this, once {@link CfKernels#VECTOR} says the vector code is warm; without the module this class is never loaded.
 */
final class VectorCfKernels {
    /**
     * 256-bit float vectors where the machine has them (as the byte shuffle, which found JDK 17's 512-bit species
     * slow), otherwise the machine's own (128-bit NEON or SSE).
     */
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED.vectorBitSize() >= 256
            ? FloatVector.SPECIES_256
            : FloatVector.SPECIES_PREFERRED;

    /**
     * As many int16 lanes as {@link #FLOATS} has floats: half its bits. A step loads four and converts each whole:
     * converting the upper half of a vector of twice the lanes made the Blosc shuffle's vector code allocate again in
     * a JVM that ran both (docs/sql.md).
     */
    private static final VectorSpecies<Short> SHORTS =
            VectorSpecies.of(short.class, VectorShape.forBitSize(FLOATS.vectorBitSize() / 2));

    private static final int LANES = FLOATS.length();

    /** True when a vector holds at least four floats, so that vectors beat scalar code. */
    static final boolean AVAILABLE = LANES >= 4 && SHORTS.length() == LANES;

    private VectorCfKernels() {}

    /**
     * {@code in[from .. from + n]} converted to float, times {@code scale}, plus {@code offset}, into {@code f} from
     * {@code off}; NaN where the stored value equals one of {@code masks}, and the index in {@code f} of each such value
     * recorded in {@code missing} (when not null). Returns how many were recorded.
     */
    static int int16ToFloat32(
            short[] in, int from, float scale, float offset, short[] masks, float[] f, int off, int n, int[] missing) {
        int k = 0;
        int i = 0;
        int step = 4 * LANES;
        for (; i + step <= n; i += step) {
            ShortVector s0 = ShortVector.fromArray(SHORTS, in, from + i);
            ShortVector s1 = ShortVector.fromArray(SHORTS, in, from + i + LANES);
            ShortVector s2 = ShortVector.fromArray(SHORTS, in, from + i + 2 * LANES);
            ShortVector s3 = ShortVector.fromArray(SHORTS, in, from + i + 3 * LANES);
            scaled(s0, scale, offset).intoArray(f, off + i);
            scaled(s1, scale, offset).intoArray(f, off + i + LANES);
            scaled(s2, scale, offset).intoArray(f, off + i + 2 * LANES);
            scaled(s3, scale, offset).intoArray(f, off + i + 3 * LANES);
            if (masks.length > 0 && anyMask(s0, s1, s2, s3, masks)) {
                k = maskRun(in, from + i, masks, f, off + i, step, missing, k);
            }
        }
        for (int j = i; j < n; j++) {
            f[off + j] = in[from + j] * scale + offset;
        }
        return masks.length > 0 ? maskRun(in, from + i, masks, f, off + i, n - i, missing, k) : k;
    }

    /** {@code s} as floats, times {@code scale}, plus {@code offset}. */
    private static FloatVector scaled(ShortVector s, float scale, float offset) {
        return ((FloatVector) s.convertShape(VectorOperators.S2F, FLOATS, 0))
                .mul(scale)
                .add(offset);
    }

    /** Whether a lane of {@code s0} to {@code s3} equals one of {@code masks}: one test per mask value. */
    private static boolean anyMask(ShortVector s0, ShortVector s1, ShortVector s2, ShortVector s3, short[] masks) {
        for (short m : masks) {
            if (s0.eq(m).or(s1.eq(m)).or(s2.eq(m)).or(s3.eq(m)).anyTrue()) {
                return true;
            }
        }
        return false;
    }

    /** NaN, and a record, for each of the {@code n} values from {@code at} equal to a mask value; the new count. */
    private static int maskRun(short[] in, int at, short[] masks, float[] f, int off, int n, int[] missing, int k) {
        if (masks.length == 1) {
            // One mask value (a _FillValue alone, the common case): no inner loop.
            short m = masks[0];
            for (int j = 0; j < n; j++) {
                if (in[at + j] == m) {
                    f[off + j] = Float.NaN;
                    if (missing != null) {
                        missing[k++] = off + j;
                    }
                }
            }
            return k;
        }
        for (int j = 0; j < n; j++) {
            short x = in[at + j];
            for (short m : masks) {
                if (x == m) {
                    f[off + j] = Float.NaN;
                    if (missing != null) {
                        missing[k++] = off + j;
                    }
                    break;
                }
            }
        }
        return k;
    }

    /** Records in {@code missing} the index of each NaN of {@code f[off .. off + n]}; returns how many. */
    static int nans(float[] f, int off, int n, int[] missing) {
        int k = 0;
        int i = off;
        int end = off + n;
        // Four vectors per test: their sum is NaN where any of them is (or where infinities of both signs meet, for
        // which the scalar run finds nothing).
        int step = 4 * LANES;
        for (; i + step <= end; i += step) {
            FloatVector a = FloatVector.fromArray(FLOATS, f, i);
            FloatVector b = FloatVector.fromArray(FLOATS, f, i + LANES);
            FloatVector c = FloatVector.fromArray(FLOATS, f, i + 2 * LANES);
            FloatVector d = FloatVector.fromArray(FLOATS, f, i + 3 * LANES);
            if (a.add(b).add(c.add(d)).test(VectorOperators.IS_NAN).anyTrue()) {
                k = nanRun(f, i, step, missing, k);
            }
        }
        return nanRun(f, i, end - i, missing, k);
    }

    private static int nanRun(float[] f, int from, int n, int[] missing, int k) {
        for (int j = from; j < from + n; j++) {
            if (Float.isNaN(f[j])) {
                missing[k++] = j;
            }
        }
        return k;
    }
}
