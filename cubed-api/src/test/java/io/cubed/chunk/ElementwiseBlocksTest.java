package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.dtype.DType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Elementwise calls whose working arrays are wider than the chunk's elements run block by block
 * ({@link Elementwise#WIDE_BLOCK}): values across block boundaries against plain Java loops, and a whole int8 chunk of
 * 32 MB computed in a JVM whose heap holds the chunks and the projected scratch, where working copies of the whole
 * chunk (eight bytes an element, in and out) would not fit.
 */
class ElementwiseBlocksTest {
    private static final int B = Elementwise.WIDE_BLOCK;

    /** Element counts on both sides of the block length, and a 2-d shape of many uneven blocks. */
    private static final List<int[]> SHAPES =
            List.of(new int[] {B - 1}, new int[] {B}, new int[] {B + 1}, new int[] {3 * B + 7}, new int[] {129, 197});

    private static Chunk int8(int[] shape, IntFunction<Integer> value) {
        Chunk c = Chunk.allocate(DType.INT8, shape);
        byte[] d = c.bytes();
        for (int i = 0; i < d.length; i++) {
            d[i] = (byte) (int) value.apply(i);
        }
        return c;
    }

    @Test
    void int8NegativeFloorDivideAndRemainderWrapAsNumpyAcrossBlocks() {
        for (int[] shape : SHAPES) {
            Chunk a = int8(shape, i -> (i * 37) % 256 - 128);
            Chunk b = int8(shape, i -> i % 11 - 5);
            byte[] x = a.bytes();
            byte[] y = b.bytes();
            byte[] neg = Elementwise.unary(UnaryFunction.NEGATIVE, a).bytes();
            byte[] fd = Elementwise.binary(BinaryFunction.FLOOR_DIVIDE, a, b).bytes();
            byte[] rem = Elementwise.binary(BinaryFunction.REMAINDER, a, b).bytes();
            for (int i = 0; i < x.length; i++) {
                assertThat(neg[i]).as("-x[%d] of %d", i, x.length).isEqualTo((byte) -x[i]);
                // NumPy: division by zero gives 0, and -128 // -1 wraps to -128.
                byte q = y[i] == 0 ? 0 : (byte) Math.floorDiv(x[i], y[i]);
                byte r = y[i] == 0 ? 0 : (byte) Math.floorMod(x[i], y[i]);
                assertThat(fd[i]).as("x[%d] // y[%d]", i, i).isEqualTo(q);
                assertThat(rem[i]).as("x[%d] %% y[%d]", i, i).isEqualTo(r);
            }
        }
    }

    @Test
    void uint16WithABroadcastRowAndAScalarAcrossBlocks() {
        int rows = 129;
        int cols = 197;
        Chunk a = Chunk.allocate(DType.UINT16, rows, cols);
        short[] x = a.shorts();
        for (int i = 0; i < x.length; i++) {
            x[i] = (short) (i * 7919);
        }
        Chunk row = Chunk.allocate(DType.UINT16, cols);
        short[] r = row.shorts();
        for (int j = 0; j < cols; j++) {
            r[j] = (short) (65000 + j);
        }
        Chunk one = Chunk.allocate(DType.UINT16, 1, 1);
        one.shorts()[0] = (short) 65535;
        short[] sum = Elementwise.binary(BinaryFunction.ADD, a, row).shorts();
        short[] prod = Elementwise.binary(BinaryFunction.MULTIPLY, one, a).shorts();
        boolean[] less = Elementwise.binary(BinaryFunction.LESS, row, a).booleans();
        assertThat(Elementwise.binary(BinaryFunction.ADD, a, row).shape()).containsExactly(rows, cols);
        for (int i = 0; i < x.length; i++) {
            int u = x[i] & 0xFFFF;
            int v = r[i % cols] & 0xFFFF;
            assertThat(sum[i] & 0xFFFF).as("a + row at %d", i).isEqualTo((u + v) & 0xFFFF);
            assertThat(prod[i] & 0xFFFF).as("65535 * a at %d", i).isEqualTo((65535 * u) & 0xFFFF);
            assertThat(less[i]).as("row < a at %d", i).isEqualTo(v < u);
        }
    }

    @Test
    void float32ScalarsComparisonsAndCastsAcrossBlocks() {
        for (int[] shape : SHAPES) {
            Chunk a = Chunk.allocate(DType.FLOAT32, shape);
            float[] x = a.floats();
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) Math.sin(i) * 1000f;
            }
            Chunk three = Chunk.allocate(DType.FLOAT32);
            three.floats()[0] = 3.5f;
            float[] scaled =
                    Elementwise.binary(BinaryFunction.MULTIPLY, a, three).floats();
            boolean[] neg = Elementwise.unary(UnaryFunction.SIGNBIT, a).booleans();
            float[] root = Elementwise.unary(UnaryFunction.SQRT, Elementwise.unary(UnaryFunction.ABS, a))
                    .floats();
            short[] asInt16 = Elementwise.astype(a, DType.INT16).shorts();
            for (int i = 0; i < x.length; i++) {
                assertThat(scaled[i]).as("x[%d] * 3.5", i).isEqualTo(x[i] * 3.5f);
                assertThat(neg[i]).as("signbit x[%d]", i).isEqualTo(x[i] < 0);
                assertThat(root[i]).as("sqrt |x[%d]|", i).isEqualTo((float) Math.sqrt(Math.abs(x[i])));
                assertThat(asInt16[i]).as("int16(x[%d])", i).isEqualTo((short) (int) x[i]);
            }
        }
    }

    @Test
    void integersPromotedToFloat64AndComplex64AcrossBlocks() {
        for (int[] shape : SHAPES) {
            Chunk a = Chunk.allocate(DType.INT32, shape);
            int[] x = a.ints();
            for (int i = 0; i < x.length; i++) {
                x[i] = i % 13 == 0 ? 0 : i * 31 - 40000;
            }
            double[] rec = Elementwise.unary(UnaryFunction.RECIPROCAL, a).doubles();
            Chunk z = Chunk.allocate(DType.COMPLEX64, shape);
            float[] zf = z.floats();
            for (int i = 0; i < x.length; i++) {
                zf[2 * i] = i % 7 - 3;
                zf[2 * i + 1] = i % 5 - 2;
            }
            float[] zz = Elementwise.binary(BinaryFunction.MULTIPLY, z, z).floats();
            for (int i = 0; i < x.length; i++) {
                assertThat(rec[i]).as("1 / x[%d]", i).isEqualTo(1.0 / x[i]);
                float re = zf[2 * i];
                float im = zf[2 * i + 1];
                // Small integers: every product and sum is exact.
                assertThat(zz[2 * i]).as("re z[%d]^2", i).isEqualTo(re * re - im * im);
                assertThat(zz[2 * i + 1]).as("im z[%d]^2", i).isEqualTo(2 * re * im);
            }
        }
    }

    @Test
    void theProjectedScratchIsOneBlocksNotTheChunks() {
        long n = 32L << 20;
        assertThat(Elementwise.unaryScratchBytes(UnaryFunction.NEGATIVE, DType.INT8, n))
                .isLessThan(1L << 21);
        assertThat(Elementwise.binaryScratchBytes(BinaryFunction.FLOOR_DIVIDE, DType.INT8, DType.INT8, n, n, n))
                .isLessThan(1L << 21);
        assertThat(Elementwise.astypeScratchBytes(DType.INT8, DType.INT16, n)).isLessThan(1L << 21);
        // A row broadcast to the chunk is held whole, in its own type.
        assertThat(Elementwise.binaryScratchBytes(BinaryFunction.ADD, DType.INT8, DType.INT8, n, 1024, n))
                .isBetween(n, n + (1L << 21));
        // float64 calls convert nothing: no scratch, no blocks.
        assertThat(Elementwise.unaryScratchBytes(UnaryFunction.NEGATIVE, DType.FLOAT64, n))
                .isZero();
    }

    /**
     * {@link ElementwiseBlocksMain} computes {@code negative}, {@code floor_divide} and {@code astype(int16)} of 32 MB
     * int8 chunks in a JVM whose heap is the chunks it holds (two inputs and the largest result), 16 MB for the calls'
     * scratch, which must cover what the plans project for it, and 64 MB for the JVM's own objects. Working copies of
     * a whole chunk (eight bytes an element) take 256 MB each.
     */
    @Test
    void a32MbInt8ChunkComputesWithinItsChunksAndTheProjectedScratch() throws IOException, InterruptedException {
        long n = ElementwiseBlocksMain.ELEMENTS;
        long scratchRoom = 16L << 20;
        // X
        assertThat(Elementwise.binaryScratchBytes(BinaryFunction.FLOOR_DIVIDE, DType.INT8, DType.INT8, n, n, n))
                .isLessThan(scratchRoom);
        assertThat(Elementwise.astypeScratchBytes(DType.INT8, DType.INT16, n)).isLessThan(scratchRoom);
        long heapMb = (2 * n + 2 * n + scratchRoom) / (1 << 20) + 64;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Xmx" + heapMb + "m",
                "-XX:+UseG1GC",
                "-cp",
                System.getProperty("java.class.path"),
                ElementwiseBlocksMain.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(out).as("heap %d MB", heapMb).contains("blocks ok");
        assertThat(p.exitValue()).isZero();
    }
}
