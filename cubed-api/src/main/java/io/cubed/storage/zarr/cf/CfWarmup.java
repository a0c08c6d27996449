package io.cubed.storage.zarr.cf;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.VectorWarmup;
import io.cubed.dtype.DType;
import java.util.Arrays;
import java.util.Random;

/**
 * When {@link CfKernels} switches from its scalar loops to {@link VectorCfKernels}: a {@link VectorWarmup} that times
 * both kernels (packed int16 to float32 with a fill value, and the search for NaN in float32) on 8192 scratch values,
 * started once the scalar loops have decoded {@link #WARMUP_AFTER_VALUES} values.
 */
final class CfWarmup {
    /**
     * System property that turns the vector loops off ({@code false}) or on from the first value ({@code eager}), for
     * comparisons and diagnosis.
     */
    static final String VECTOR_PROPERTY = "cubed.cf.vector";

    /**
     * Values decoded by the scalar loops before the warm-up starts. The warm-up costs 0.53-0.74 s of the process's CPU
     * on an idle 2-core machine (its thread and the JIT's; more beside busy tasks, which it is paced to yield to), and
     * the vector loops save about 0.4 ns a value (the packed loop: 0.56 ns scalar, 0.14 vector), so they repay it after
     * 1.3-1.8 billion values: starting it after 1.5 billion is the ski-rental rule (never much more than twice the
     * cost of the better choice in hindsight), as for Blosc's shuffle. A JVM that decodes little never pays for it, a
     * Spark executor serving scan after scan does within its first few large ones, and a benchmark starts it at once
     * ({@link CfDecoding#warmUp}).
     */
    static final long WARMUP_AFTER_VALUES = 1_500_000_000L;

    static final VectorWarmup VECTOR = new VectorWarmup(
            "CF decoding", VECTOR_PROPERTY, () -> VectorCfKernels.AVAILABLE, WARMUP_AFTER_VALUES, Trial::new);

    private CfWarmup() {}

    /** Random packed values with some fill values, and the same values decoded as float32 with some NaN. */
    private static final class Trial implements VectorWarmup.Trial {
        private static final int N = 8192;
        private static final int SMALL = 32;
        private static final short FILL = -32767;
        private static final float SCALE = 0.002f;
        private static final float OFFSET = 260f;

        private final Chunk packed = Chunk.allocate(DType.INT16, N);
        private final float[] table = new float[1 << 16];
        private final long[] masks = {FILL};
        private final short[] shortMasks = {FILL};
        private final float[] scalarOut = new float[N];
        private final float[] vectorOut = new float[N];
        private final int[] scalarMissing = new int[N];
        private final int[] vectorMissing = new int[N];
        private final int[] scalarNaNs = new int[N];
        private final int[] vectorNaNs = new int[N];
        private int scalarMasked;
        private int scalarNaNCount;
        private int vectorMasked;
        private int vectorNaNCount;

        Trial() {
            Random r = new Random(42);
            short[] s = packed.shorts();
            for (int i = 0; i < N; i++) {
                s[i] = r.nextInt(100) == 0 ? FILL : (short) (r.nextInt(40_000) - 20_000);
            }
            for (int v = 0; v < table.length; v++) {
                table[v] = (short) v == FILL ? Float.NaN : (short) v * SCALE + OFFSET;
            }
        }

        @Override
        public void scalar() {
            scalarMasked = CfKernels.lookup(packed, 0, table, masks, scalarOut, 0, N, scalarMissing);
            scalarNaNCount = CfKernels.nans(scalarOut, 0, N, scalarNaNs);
        }

        @Override
        public void vectorSmall() {
            VectorCfKernels.int16ToFloat32(packed.shorts(), 0, SCALE, OFFSET, shortMasks, vectorOut, 0, SMALL, null);
            VectorCfKernels.nans(vectorOut, 0, SMALL, vectorNaNs);
        }

        @Override
        public double smallShare() {
            return (double) SMALL / N;
        }

        @Override
        public void vector() {
            vectorMasked = VectorCfKernels.int16ToFloat32(
                    packed.shorts(), 0, SCALE, OFFSET, shortMasks, vectorOut, 0, N, vectorMissing);
            vectorNaNCount = VectorCfKernels.nans(vectorOut, 0, N, vectorNaNs);
        }

        @Override
        public boolean same() {
            scalar();
            for (int i = 0; i < N; i++) {
                if (Float.floatToRawIntBits(scalarOut[i]) != Float.floatToRawIntBits(vectorOut[i])) {
                    return false;
                }
            }
            return scalarMasked == vectorMasked
                    && scalarNaNCount == vectorNaNCount
                    && Arrays.equals(scalarMissing, vectorMissing)
                    && Arrays.equals(scalarNaNs, vectorNaNs);
        }
    }
}
