package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.FftPlan;
import io.cubed.chunk.Fourier;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.plan.Computation;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fft extension's plans and round trips: inverse transforms give the input back (every pair, several chunkings,
 * both precisions), the rechunk to a whole axis and the cut of the other axes to fit {@code allowedMem}, the refusal
 * when one row cannot fit, empty arrays, and bad arguments. Values against NumPy are in {@link FftNumpyTest}.
 */
class FftTest {
    @TempDir
    Path tmp;

    private Spec spec(long allowed) {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem(allowed)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    private static void assertClose(Chunk got, Chunk want, double tol) {
        assertThat(got.shape()).isEqualTo(want.shape());
        for (int i = 0; i < want.size(); i++) {
            assertThat(got.getDouble(i)).as("element %d", i).isCloseTo(want.getDouble(i), within(tol));
            assertThat(got.getImag(i)).as("element %d imag", i).isCloseTo(want.getImag(i), within(tol));
        }
    }

    private static org.assertj.core.data.Offset<Double> within(double tol) {
        return org.assertj.core.data.Offset.offset(tol);
    }

    @Test
    void inversesGiveTheInputBack() {
        Spec spec = spec(20_000_000);
        Random r = new Random(1);
        Chunk c = FftNumpyTest.random(r, DType.COMPLEX128, 6, 33, 4);
        Chunk f = FftNumpyTest.random(r, DType.FLOAT64, 9, 50);
        Chunk f32 = FftNumpyTest.random(r, DType.FLOAT32, 12, 16);
        CubedArray x = Cubed.asarray(c, spec, 4, 10, 3);
        CubedArray y = Cubed.asarray(f, spec, 2, 7);
        CubedArray z = Cubed.asarray(f32, spec, 12, 16);
        FftOptions o = FftOptions.defaults();
        List<CubedArray> trips = List.of(
                Fft.ifft(Fft.fft(x, o.axis(1)), o.axis(1)),
                Fft.fft(Fft.ifft(x, o.norm(FftNorm.ORTHO)), o.norm(FftNorm.ORTHO)),
                Fft.ifftn(Fft.fftn(x)),
                Fft.ifftn(
                        Fft.fftn(x, o.axes(0, 1).norm(FftNorm.FORWARD)),
                        o.axes(0, 1).norm(FftNorm.FORWARD)),
                Fft.irfft(Fft.rfft(y), o.n(50)),
                Fft.irfft(Fft.rfft(y, o.axis(0)), o.n(9).axis(0)),
                Fft.irfftn(Fft.rfftn(y), o.s(9, 50)),
                Fft.hfft(Fft.ihfft(y), o.n(50)),
                Fft.hfft(
                        Fft.ihfft(y, o.axis(0).norm(FftNorm.ORTHO)),
                        o.n(9).axis(0).norm(FftNorm.ORTHO)),
                Fft.irfft(Fft.rfft(z, o.axis(0)), o.n(12).axis(0)),
                Fft.ifft(Fft.fft(z)));
        List<Chunk> got = Cubed.compute(trips);
        for (int i = 0; i < 4; i++) {
            assertClose(got.get(i), c, 1e-12);
        }
        for (int i = 4; i < 9; i++) {
            assertThat(got.get(i).dtype()).isEqualTo(DType.FLOAT64);
            assertClose(got.get(i), f, 1e-12);
        }
        assertThat(got.get(9).dtype()).isEqualTo(DType.FLOAT32);
        assertClose(got.get(9), f32, 1e-5);
        assertThat(got.get(10).dtype()).isEqualTo(DType.COMPLEX64);
        assertClose(got.get(10), f32, 1e-5);
    }

    @Test
    void theAxisIsRechunkedWholeAndTheOtherAxesCutToFitAllowedMem() {
        // Rows of 1000 float64 in, 1000 complex128 out; Bluestein's tables for 1000 (convolution 2048) and two rows.
        long workspace = 16 * 1000 + 32 * 2048 + (16 * 2047 + 4 * 2048) + 16 * 1000;
        assertThat(Fourier.workspaceBytes(1000)).isEqualTo(workspace);
        // A task: input rows 8000 bytes x (1 + 1 read copy), output rows 16000 x (1 + 1 write copy) on local disk.
        long perRow = 8000 * 2 + 16000 * 2;
        long allowed = workspace + 18 * perRow + perRow / 2; // room for 18 rows
        Spec spec = spec(allowed);
        CubedArray x = Creation.random(new long[] {64, 1000}, new int[] {64, 100}, 2, spec);
        Chunk data = x.compute();
        CubedArray y = Fft.fft(x);
        OpNode op = y.node().op();
        assertThat(op.name()).isEqualTo("fft");
        assertThat(op.inputs().get(0).grid().chunkShape()).containsExactly(18, 1000);
        assertThat(y.chunkShape()).containsExactly(18, 1000);
        assertThat(op.extraMemBytes()).isEqualTo(workspace);
        Computation plan = Computation.prepare(spec, List.of(y.node()), Map.of());
        assertThat(plan.projectedMemBytes().get(op))
                .isEqualTo(18 * perRow + workspace)
                .isLessThanOrEqualTo(allowed);
        // The values: each row's transform, as the kernel computes it on the whole array at once.
        Chunk want = Fourier.transform(data, 1, Fourier.Kind.FORWARD, 1000, 1, false, DType.COMPLEX128);
        assertClose(y.compute(), want, 0);
    }

    @Test
    void aWholeAxisChunkThatFitsIsNotRechunked() {
        Spec spec = spec(10_000_000);
        CubedArray x = Cubed.asarray(FftNumpyTest.random(new Random(3), DType.COMPLEX64, 8, 64), spec, 3, 64);
        CubedArray y = Fft.fft(x);
        assertThat(y.node().op().inputs().get(0)).isSameAs(x.node());
        assertThat(y.chunkShape()).containsExactly(3, 64);
        assertThat(y.node().op().detail()).contains("radix-2").contains("axis 1");
        assertThat(Fft.fft(x, FftOptions.defaults().n(63)).node().op().detail()).contains("Bluestein");
        // Along axis 0 the chunks of 3 are joined into one chunk of 8.
        CubedArray z = Fft.fft(x, FftOptions.defaults().axis(0));
        assertThat(z.node().op().inputs().get(0).grid().chunkShape()).containsExactly(8, 64);
    }

    @Test
    void aRowThatCannotFitIsRefusedAtTheCall() {
        Spec spec = spec(1_000_000);
        CubedArray x = Creation.ones(new long[] {4, 100_000}, new int[] {1, 10_000}, DType.FLOAT64, spec);
        // A row: 100000 float64 in and 50001 complex128 out, each with one buffer copy: 2 x 800000 + 2 x 800016; the
        // tables of Bluestein's 100000 (convolution 262144): chirp 16 x 100000, filter and scratch 32 x 262144, the
        // radix-2 plan 16 x 262143 + 4 x 262144, and two rows of doubles 16 x 100000.
        long tables = 16 * 100_000 + 32 * 262_144 + (16 * 262_143 + 4 * 262_144) + 16 * 100_000;
        assertThat(Fourier.workspaceBytes(100_000)).isEqualTo(tables);
        long need = 2 * 800_000 + 2 * 800_016 + tables;
        assertThatThrownBy(() -> Fft.rfft(x))
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("needs 20.0 MB (" + need + " bytes)")
                .hasMessageContaining("tables (16.8 MB)")
                .hasMessageContaining("rfft of ")
                .hasMessageContaining("one row along axis 1 needs")
                .hasMessageContaining("100000 input elements")
                .hasMessageContaining("50001 output elements of complex128")
                .hasMessageContaining("but allowedMem is 1.0 MB");
        // A shorter transform of the same axis fits: the axis is cut to n before the rechunk.
        CubedArray y = Fft.rfft(x, FftOptions.defaults().n(1024));
        assertThat(y.shape()).containsExactly(4, 513);
        assertThat(y.node().op().inputs().get(0).grid().chunkShape()).containsExactly(1, 1024);
        assertThat(y.compute().getDouble(0)).isEqualTo(1024.0);
    }

    @Test
    void emptyArraysAndZeroPadding() {
        Spec spec = spec(10_000_000);
        CubedArray empty = Creation.zeros(new long[] {0, 4}, new int[] {1, 4}, DType.FLOAT64, spec);
        CubedArray e = Fft.fft(empty);
        assertThat(e.shape()).containsExactly(0, 4);
        assertThat(e.dtype()).isEqualTo(DType.COMPLEX128);
        CubedArray none = Creation.zeros(new long[] {3, 0}, new int[] {1, 1}, DType.FLOAT32, spec);
        Chunk padded = Fft.fft(none, FftOptions.defaults().n(5)).compute();
        assertThat(padded.shape()).containsExactly(3, 5);
        assertThat(padded.dtype()).isEqualTo(DType.COMPLEX64);
        assertThat(padded.isAll(io.cubed.dtype.Scalar.ofLong(0))).isTrue();
        // No axes: a copy in the complex type.
        CubedArray x = Creation.arange(0.0, 4.0, 1.0, 2, spec);
        Chunk same = Fft.fftn(x, FftOptions.defaults().axes(new int[0])).compute();
        assertThat(same.dtype()).isEqualTo(DType.COMPLEX128);
        assertThat(same.getDouble(3)).isEqualTo(3.0);
    }

    @Test
    void frequenciesAndShiftsAreLazyArrays() {
        Spec spec = spec(10_000_000);
        CubedArray f = Fft.fftfreq(8, 0.5, 3, spec);
        assertThat(f.chunkShape()).containsExactly(3);
        assertThat(f.compute().doubles()).containsExactly(0, 0.25, 0.5, 0.75, -1, -0.75, -0.5, -0.25);
        assertThat(Fft.rfftfreq(8, 0.5, 3, spec).compute().doubles()).containsExactly(0, 0.25, 0.5, 0.75, 1);
        assertThat(Fft.fftshift(f).compute().doubles()).containsExactly(-1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75);
        assertThat(Fft.ifftshift(Fft.fftshift(f)).compute().doubles())
                .containsExactly(0, 0.25, 0.5, 0.75, -1, -0.75, -0.5, -0.25);
        assertThat(Fft.fftfreq(5, 1, 5, DType.FLOAT32, spec).compute().floats())
                .containsExactly(0f, 0.2f, 0.4f, -0.4f, -0.2f);
    }

    @Test
    void badArgumentsAreRefusedWithTheirValues() {
        Spec spec = spec(10_000_000);
        CubedArray ints = Creation.ones(new long[] {4}, new int[] {4}, DType.INT32, spec);
        CubedArray c = Creation.ones(new long[] {4, 3}, new int[] {4, 3}, DType.COMPLEX128, spec);
        CubedArray one = Creation.ones(new long[] {1}, new int[] {1}, DType.COMPLEX128, spec);
        CubedArray scalar = Creation.ones(new long[] {}, new int[] {}, DType.FLOAT64, spec);
        FftOptions o = FftOptions.defaults();
        assertThatThrownBy(() -> Fft.fft(ints))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("fft of ")
                .hasMessageContaining("data type int32 is not supported")
                .hasMessageContaining("astype");
        assertThatThrownBy(() -> Fft.rfft(c))
                .hasMessageContaining("rfft of ")
                .hasMessageContaining("complex128 is not supported")
                .hasMessageContaining("real floating-point");
        assertThatThrownBy(() -> Fft.ihfft(c)).hasMessageContaining("ihfft of ");
        assertThatThrownBy(() -> Fft.rfftn(ints)).hasMessageContaining("rfftn of ");
        assertThatThrownBy(() -> Fft.fft(c, o.axis(2)))
                .hasMessageContaining("fft of ")
                .hasMessageContaining("axis 2");
        assertThatThrownBy(() -> o.n(0)).hasMessageContaining("n must be at least 1, got 0");
        assertThatThrownBy(() -> o.s(4, 0)).hasMessageContaining("[4, 0]");
        assertThatThrownBy(() -> Fft.irfft(one))
                .hasMessageContaining("irfft of ")
                .hasMessageContaining("2(m - 1) for its length m = 1");
        assertThatThrownBy(() -> Fft.hfft(one)).hasMessageContaining("hfft of ");
        assertThatThrownBy(() -> Fft.fft(scalar)).hasMessageContaining("rank 1 or more");
        assertThatThrownBy(() -> Fft.fft(c, o.axes(0))).hasMessageContaining("s and axes are for the n-d transforms");
        assertThatThrownBy(() -> Fft.fftn(c, o.n(4))).hasMessageContaining("n and axis are for the one-axis");
        assertThatThrownBy(() -> Fft.fftn(c, o.axes(0, -2)))
                .hasMessageContaining("fftn of ")
                .hasMessageContaining("name axis 0 twice");
        assertThatThrownBy(() -> Fft.fftn(c, o.axes(0, 1).s(4)))
                .hasMessageContaining("s [4] and axes [0, 1] differ in length");
        assertThatThrownBy(() -> Fft.fftn(c, o.s(1, 2, 3))).hasMessageContaining("more than the 2 axes");
        assertThatThrownBy(() -> Fft.irfftn(c, o.axes(new int[0]))).hasMessageContaining("at least one axis");
        assertThatThrownBy(() -> Fft.fftshift(c, 3)).hasMessageContaining("fftshift of ");
        assertThatThrownBy(() -> Fft.fftfreq(0, 1, 1, spec))
                .hasMessageContaining("fftfreq: n must be at least 1, got 0");
        assertThatThrownBy(() -> Fft.rfftfreq(4, 0, 1, spec)).hasMessageContaining("rfftfreq: d must be");
        assertThatThrownBy(() -> Fft.fftfreq(4, 1, 1, DType.INT64, spec)).hasMessageContaining("got int64");
        assertThatThrownBy(() -> FftNorm.fromName("none")).hasMessageContaining("got \"none\"");
        assertThat(FftNorm.fromName("ortho")).isEqualTo(FftNorm.ORTHO);
        assertThat(FftPlan.isPowerOfTwo(1)).isTrue();
    }

    @Test
    void theTasksFunctionsSurviveSerialization() throws Exception {
        Spec spec = spec(10_000_000);
        CubedArray x = Creation.random(new long[] {6, 10}, new int[] {2, 3}, 4, spec);
        CubedArray y = Fft.fftshift(Fft.rfftn(x, FftOptions.defaults().s(5, 16)));
        int transforms = 0;
        for (OpNode op : io.cubed.plan.Plan.of(List.of(y.node())).ops()) {
            assertThat(roundTrip(op.keyFunction())).as(op.toString()).isNotNull();
            Object f = roundTrip(op.function());
            if (op.name().equals("rfftn")) {
                assertThat(f).as(op.toString()).isEqualTo(op.function());
                transforms++;
            }
        }
        assertThat(transforms).isEqualTo(2);
    }

    private static Object roundTrip(Object o) throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (java.io.ObjectInputStream in =
                new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }
}
