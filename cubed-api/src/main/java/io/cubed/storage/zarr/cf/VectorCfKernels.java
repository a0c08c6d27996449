package io.cubed.storage.zarr.cf;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The two hottest loops of {@link CfKernels} with the JDK's Vector API, for JVMs started with {@code --add-modules
 * jdk.incubator.vector}: packed int16 values masked and scaled to float32 (ERA5's encoding), and float32 values
 * searched for NaN. Each converts or compares a vector of values per step and falls back to scalar code only for a
 * step that holds a mask value or a NaN, which are rare. The results are the scalar loops' bit for bit: the
 * conversion, the product and the sum are separate IEEE float operations in both. Only {@link CfKernels} calls this,
 * once {@link CfKernels#VECTOR} says the vector code is warm; without the module this class is never loaded.
 */
final class VectorCfKernels {
    /**
     * 256-bit float vectors where the machine has them (as the byte shuffle, which found JDK 17's 512-bit species
     * slow), otherwise the machine's own (128-bit NEON or SSE).
     */
    private static final VectorSpecies<Float> FLOATS = FloatVector.SPECIES_PREFERRED.vectorBitSize() >= 256
            ? FloatVector.SPECIES_256
            : FloatVector.SPECIES_PREFERRED;

    /** As many int16 lanes as {@link #FLOATS} has floats: half its bits. */
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
        for (; i + LANES <= n; i += LANES) {
            ShortVector s = ShortVector.fromArray(SHORTS, in, from + i);
            FloatVector v = (FloatVector) s.convertShape(VectorOperators.S2F, FLOATS, 0);
            v.mul(scale).add(offset).intoArray(f, off + i);
            if (masks.length > 0 && anyMask(s, masks)) {
                k = maskRun(in, from + i, masks, f, off + i, LANES, missing, k);
            }
        }
        for (int j = i; j < n; j++) {
            f[off + j] = in[from + j] * scale + offset;
        }
        return masks.length > 0 ? maskRun(in, from + i, masks, f, off + i, n - i, missing, k) : k;
    }

    private static boolean anyMask(ShortVector s, short[] masks) {
        VectorMask<Short> hit = s.eq(masks[0]);
        for (int m = 1; m < masks.length; m++) {
            hit = hit.or(s.eq(masks[m]));
        }
        return hit.anyTrue();
    }

    /** NaN, and a record, for each of the {@code n} values from {@code at} equal to a mask value; the new count. */
    private static int maskRun(short[] in, int at, short[] masks, float[] f, int off, int n, int[] missing, int k) {
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
        for (; i + LANES <= end; i += LANES) {
            FloatVector v = FloatVector.fromArray(FLOATS, f, i);
            if (v.test(VectorOperators.IS_NAN).anyTrue()) {
                k = nanRun(f, i, LANES, missing, k);
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
