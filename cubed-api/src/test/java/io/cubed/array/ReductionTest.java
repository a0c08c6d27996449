package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.ReduceFunction;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.error.TaskFailedException;
import io.cubed.plan.Computation;
import io.cubed.plan.FusionOptions;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Reductions against {@link ReferenceReductions} (plain loops over the whole array) for every function, dtype family,
 * axis combination and keepdims, on several chunkings (one chunk, uneven edge chunks, chunks of one element along an
 * axis); multiple rounds within a small allowedMem; dtype rules; error messages.
 */
class ReductionTest {
    private static final long[] SHAPE = {7, 5, 6};
    private static final int[][] CHUNKINGS = {{7, 5, 6}, {3, 2, 4}, {1, 5, 2}, {2, 1, 1}};
    private static final int[][] AXES = {null, {}, {0}, {1}, {2}, {-1}, {0, 1}, {0, 2}, {1, 2}, {0, 1, 2}};

    /**
     * Intermediates in memory: these cases check values, and their thousands of tiny chunk files took minutes (up to
     * 126 s for this class in CI) on a disk busy with the rest of the suite, against seconds in memory.
     */
    private Spec spec(long allowed) {
        return Spec.builder()
                .workDir("memory://" + getClass().getSimpleName() + "-" + java.util.UUID.randomUUID() + "/work")
                .allowedMem(allowed)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /**
     * Computes {@code f} of {@code data} on every chunking and axis combination (with and without keepdims) in one
     * computation per chunking, and returns the differences from the reference.
     */
    private List<String> check(ReduceFunction f, Chunk data, int[][] chunkings, int[][] axesList, double tol) {
        return check(f, data, chunkings, axesList, tol, false);
    }

    /**
     * As above; with {@code stored}, {@code data} is first written as Zarr with Blosc blocks of 128 bytes, so that
     * reductions that take chunks box by box get blocks that end inside rows and planes.
     */
    private List<String> check(
            ReduceFunction f, Chunk data, int[][] chunkings, int[][] axesList, double tol, boolean stored) {
        Spec spec = spec(50_000_000);
        List<String> failures = new ArrayList<>();
        for (int[] chunks : chunkings) {
            CubedArray x =
                    stored ? Cubed.fromZarr(storedAsBlosc(data, chunks), spec) : Cubed.asarray(data, spec, chunks);
            List<CubedArray> results = new ArrayList<>();
            List<Chunk> expected = new ArrayList<>();
            List<String> labels = new ArrayList<>();
            for (int[] axes : axesList) {
                if (f.isArg() && axes != null && axes.length != 1) {
                    continue;
                }
                for (boolean keep : new boolean[] {false, true}) {
                    ReductionOptions o = (axes == null ? ReductionOptions.all() : ReductionOptions.axis(axes))
                            .keepdims(keep)
                            .splitEvery(chunks[0] == 2 ? 2 : 4);
                    results.add(Reduction.reduce(x, f, o));
                    expected.add(ReferenceReductions.reduce(f, data, axes, keep, 0));
                    labels.add(f + " " + data.dtype() + " chunks " + Arrays.toString(chunks) + " axis "
                            + (axes == null ? "None" : Arrays.toString(axes)) + " keepdims " + keep);
                }
            }
            List<Chunk> actual = Cubed.compute(results);
            for (int i = 0; i < actual.size(); i++) {
                String diff = ReferenceReductions.compare(expected.get(i), actual.get(i), tol);
                if (diff != null) {
                    failures.add(labels.get(i) + ": " + diff);
                }
            }
        }
        return failures;
    }

    /** {@code data} written to a new in-memory Zarr array in {@code chunks}, Blosc-LZ4 in blocks of 128 bytes. */
    private static String storedAsBlosc(Chunk data, int[] chunks) {
        return io.cubed.storage.zarr.StoredArrays.blosc(
                        data, chunks, io.cubed.storage.zarr.blosc.BloscShuffle.SHUFFLE, 128)
                .url();
    }

    @Test
    void storedChunksReducedBlockByBlockMatchPlainLoops() {
        // Every reducer takes each Blosc block while it is in cache (ChunkBoxes); the chunkings include full chunks
        // whose 16-element blocks end inside rows (6 elements) and planes (30), and edge chunks read whole.
        Chunk data = ReferenceReductions.random(DType.FLOAT64, new int[] {7, 5, 6}, 4, 0.1);
        Chunk ints = ReferenceReductions.random(DType.INT32, new int[] {7, 5, 6}, 5, 0);
        Chunk floats = ReferenceReductions.random(DType.FLOAT32, new int[] {7, 5, 6}, 6, 0);
        int[][] chunkings = {{7, 5, 6}, {3, 5, 6}, {2, 2, 6}, {7, 5, 4}};
        List<String> failures = new ArrayList<>();
        for (ReduceFunction f : new ReduceFunction[] {
            ReduceFunction.NANSUM, ReduceFunction.NANMEAN, ReduceFunction.SUM, ReduceFunction.MEAN, ReduceFunction.PROD
        }) {
            failures.addAll(check(f, data, chunkings, AXES, 1e-12, true));
        }
        failures.addAll(check(ReduceFunction.SUM, ints, chunkings, AXES, 0, true));
        failures.addAll(check(ReduceFunction.MEAN, floats, chunkings, AXES, 2e-6, true));
        for (ReduceFunction f : new ReduceFunction[] {
            ReduceFunction.MAX,
            ReduceFunction.NANMIN,
            ReduceFunction.NANARGMAX,
            ReduceFunction.ARGMIN,
            ReduceFunction.VAR,
            ReduceFunction.NANSTD,
            ReduceFunction.ANY,
            ReduceFunction.COUNT_NONZERO
        }) {
            failures.addAll(check(f, data, chunkings, AXES, 1e-12, true));
        }
        failures.addAll(check(ReduceFunction.ALL, ints, chunkings, AXES, 0, true));
        failures.addAll(check(ReduceFunction.ARGMAX, ints, chunkings, AXES, 0, true));
        assertThat(failures).isEmpty();
    }

    @Test
    void float64EveryFunctionAxisAndChunkingMatchesPlainLoops() {
        Chunk data = ReferenceReductions.random(DType.FLOAT64, new int[] {7, 5, 6}, 1, 0);
        List<String> failures = new ArrayList<>();
        for (ReduceFunction f : new ReduceFunction[] {
            ReduceFunction.SUM,
            ReduceFunction.PROD,
            ReduceFunction.MIN,
            ReduceFunction.MAX,
            ReduceFunction.MEAN,
            ReduceFunction.VAR,
            ReduceFunction.STD,
            ReduceFunction.ARGMAX,
            ReduceFunction.ARGMIN,
            ReduceFunction.COUNT_NONZERO
        }) {
            failures.addAll(check(f, data, CHUNKINGS, AXES, 1e-12));
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void integerBoolAndFloat32FamiliesMatchPlainLoops() {
        List<String> failures = new ArrayList<>();
        int[][] chunkings = {{3, 2, 4}, {2, 1, 1}};
        int[] shape = {7, 5, 6};
        Object[][] cases = {
            {
                DType.INT32,
                new ReduceFunction[] {
                    ReduceFunction.SUM,
                    ReduceFunction.PROD,
                    ReduceFunction.MIN,
                    ReduceFunction.MAX,
                    ReduceFunction.ARGMAX,
                    ReduceFunction.ARGMIN,
                    ReduceFunction.ALL
                }
            },
            {DType.UINT8, new ReduceFunction[] {ReduceFunction.SUM, ReduceFunction.MAX, ReduceFunction.ARGMIN}},
            {DType.INT8, new ReduceFunction[] {ReduceFunction.SUM, ReduceFunction.MIN, ReduceFunction.NANSUM}},
            {DType.INT64, new ReduceFunction[] {ReduceFunction.SUM, ReduceFunction.PROD, ReduceFunction.MAX}},
            {DType.UINT64, new ReduceFunction[] {ReduceFunction.MAX, ReduceFunction.MIN, ReduceFunction.ARGMAX}},
            {
                DType.BOOL,
                new ReduceFunction[] {
                    ReduceFunction.SUM, ReduceFunction.ALL, ReduceFunction.ANY, ReduceFunction.COUNT_NONZERO
                }
            },
            {
                DType.FLOAT32,
                new ReduceFunction[] {ReduceFunction.SUM, ReduceFunction.MEAN, ReduceFunction.VAR, ReduceFunction.MAX}
            },
            {
                DType.COMPLEX128,
                new ReduceFunction[] {ReduceFunction.SUM, ReduceFunction.PROD, ReduceFunction.MEAN, ReduceFunction.ANY}
            },
        };
        long seed = 10;
        for (Object[] c : cases) {
            DType t = (DType) c[0];
            Chunk data = ReferenceReductions.random(t, shape, seed++, 0);
            for (ReduceFunction f : (ReduceFunction[]) c[1]) {
                failures.addAll(check(f, data, chunkings, AXES, t == DType.FLOAT32 ? 2e-6 : 1e-12));
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void nanAwareFunctionsSkipNanAndPlainOnesPropagateIt() {
        // A quarter of the elements NaN, and one row (all of axis 2 at [0, 0]) entirely NaN.
        Chunk data = ReferenceReductions.random(DType.FLOAT64, new int[] {7, 5, 6}, 3, 0.25);
        for (int k = 0; k < 6; k++) {
            data.doubles()[k] = Double.NaN;
        }
        List<String> failures = new ArrayList<>();
        for (ReduceFunction f : new ReduceFunction[] {
            ReduceFunction.NANSUM,
            ReduceFunction.NANPROD,
            ReduceFunction.NANMEAN,
            ReduceFunction.NANMIN,
            ReduceFunction.NANMAX,
            ReduceFunction.NANVAR,
            ReduceFunction.NANSTD,
            ReduceFunction.SUM,
            ReduceFunction.MAX,
            ReduceFunction.MEAN,
            ReduceFunction.VAR,
            ReduceFunction.ARGMAX,
            ReduceFunction.ARGMIN,
            ReduceFunction.ALL
        }) {
            failures.addAll(check(f, data, new int[][] {{3, 2, 4}, {1, 5, 2}}, AXES, 1e-12));
        }
        // nanargmax/nanargmin along axes 0 and 1 (every slice has a non-NaN value) and flattened.
        int[][] argAxes = {null, {0}, {1}};
        for (ReduceFunction f : new ReduceFunction[] {ReduceFunction.NANARGMAX, ReduceFunction.NANARGMIN}) {
            failures.addAll(check(f, data, new int[][] {{3, 2, 4}, {2, 1, 1}}, argAxes, 0));
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void nanArgReductionOfAnAllNanSliceFailsClearly() {
        Chunk data = ReferenceReductions.random(DType.FLOAT64, new int[] {4, 6}, 4, 0);
        for (int k = 0; k < 6; k++) {
            data.doubles()[6 + k] = Double.NaN; // row 1 is all NaN
        }
        CubedArray x = Cubed.asarray(data, spec(10_000_000), 2, 4);
        assertThat(Searching.nanargmax(x, ReductionOptions.axis(0)).compute().longs())
                .hasSize(6);
        assertThatThrownBy(
                        () -> Searching.nanargmax(x, ReductionOptions.axis(1)).compute())
                .isInstanceOf(TaskFailedException.class)
                .hasMessageContaining("nanargmax of " + x.name() + ": All-NaN slice encountered");
        assertThatThrownBy(() ->
                        Searching.nanargmin(Cubed.asarray(nans(5), x.spec(), 2)).compute())
                .isInstanceOf(TaskFailedException.class)
                .hasMessageContaining("All-NaN slice encountered");
        // nanmax and nanmean of an all-NaN slice are NaN, as NumPy (without its warning).
        double[] nanmax =
                Statistical.nanmax(x, ReductionOptions.axis(1)).compute().doubles();
        assertThat(nanmax[1]).isNaN();
        assertThat(nanmax[0]).isNotNaN();
        assertThat(Statistical.nanmean(x, ReductionOptions.axis(1)).compute().doubles()[1])
                .isNaN();
        assertThat(Statistical.nansum(x, ReductionOptions.axis(1)).compute().doubles()[1])
                .isZero();
    }

    private static Chunk nans(int n) {
        double[] d = new double[n];
        Arrays.fill(d, Double.NaN);
        return Chunk.wrap(DType.FLOAT64, new int[] {n}, d);
    }

    @Test
    void dtypeRulesOfTheStandard() {
        Spec spec = spec(10_000_000);
        Object[][] sumTypes = {
            {DType.BOOL, DType.INT64}, {DType.INT8, DType.INT64}, {DType.INT16, DType.INT64},
            {DType.INT32, DType.INT64}, {DType.INT64, DType.INT64}, {DType.UINT8, DType.UINT64},
            {DType.UINT16, DType.UINT64}, {DType.UINT32, DType.UINT64}, {DType.UINT64, DType.UINT64},
            {DType.FLOAT32, DType.FLOAT32}, {DType.FLOAT64, DType.FLOAT64}, {DType.COMPLEX64, DType.COMPLEX64},
            {DType.COMPLEX128, DType.COMPLEX128}
        };
        for (Object[] st : sumTypes) {
            CubedArray x = Creation.ones(new long[] {6}, new int[] {4}, (DType) st[0], spec);
            assertThat(Statistical.sum(x).dtype()).as("sum of %s", st[0]).isEqualTo(st[1]);
            assertThat(Statistical.prod(x).dtype()).as("prod of %s", st[0]).isEqualTo(st[1]);
        }
        CubedArray u8 =
                Creation.full(new long[] {300}, io.cubed.dtype.Scalar.ofLong(255), new int[] {7}, DType.UINT8, spec);
        Chunk s = Statistical.sum(u8).compute();
        assertThat(s.dtype()).isEqualTo(DType.UINT64);
        assertThat(s.shape()).isEmpty();
        assertThat(s.longs()[0]).isEqualTo(300L * 255);
        assertThat(Statistical.max(u8).compute().bytes()[0]).isEqualTo((byte) 255);
        CubedArray f32 = Creation.ones(new long[] {5, 3}, new int[] {2, 2}, DType.FLOAT32, spec);
        assertThat(Statistical.mean(f32).dtype()).isEqualTo(DType.FLOAT32);
        assertThat(Statistical.std(f32).compute().floats()[0]).isZero();
        assertThat(Statistical.sum(f32, ReductionOptions.all().dtype(DType.FLOAT64))
                        .compute()
                        .doubles()[0])
                .isEqualTo(15.0);
        CubedArray i32 = Creation.ones(new long[] {5}, new int[] {2}, DType.INT32, spec);
        assertThat(Statistical.sum(i32, ReductionOptions.all().dtype(DType.INT32))
                        .compute()
                        .ints()[0])
                .isEqualTo(5);
        assertThat(Searching.argmax(i32).dtype()).isEqualTo(DType.INT64);
        assertThat(Utility.any(i32).dtype()).isEqualTo(DType.BOOL);
        assertThat(Searching.countNonzero(f32).compute().longs()[0]).isEqualTo(15);
    }

    @Test
    void badAxesAndTypesAreRefusedNamingTheOperationArrayAndValue() {
        Spec spec = spec(10_000_000);
        CubedArray x = Creation.ones(new long[] {4, 3}, new int[] {2, 2}, DType.INT32, spec);
        assertThatThrownBy(() -> Statistical.sum(x, ReductionOptions.axis(2)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("sum of " + x.name())
                .hasMessageContaining("axis 2 is out of bounds for an array of rank 2");
        assertThatThrownBy(() -> Statistical.max(x, ReductionOptions.axis(-3)))
                .hasMessageContaining("max of " + x.name())
                .hasMessageContaining("axis -3");
        assertThatThrownBy(() -> Statistical.sum(x, ReductionOptions.axis(0, -2)))
                .hasMessageContaining("axis -2 is repeated in [0, -2]");
        assertThatThrownBy(() -> Statistical.mean(x))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("mean: " + x.name() + " has data type int32")
                .hasMessageContaining("requires a floating-point data type");
        assertThatThrownBy(() -> Statistical.var(Creation.ones(new long[] {3}, new int[] {2}, DType.COMPLEX64, spec)))
                .hasMessageContaining("var: ")
                .hasMessageContaining("complex64")
                .hasMessageContaining("real floating-point");
        assertThatThrownBy(() -> Statistical.max(Creation.ones(new long[] {3}, new int[] {2}, DType.BOOL, spec)))
                .hasMessageContaining("max: ")
                .hasMessageContaining("has data type bool");
        assertThatThrownBy(() -> Searching.argmax(x, ReductionOptions.axis(0, 1)))
                .hasMessageContaining("argmax of " + x.name() + ": axis must be one axis or none");
        assertThatThrownBy(() -> Statistical.max(
                        Creation.ones(new long[] {0, 3}, new int[] {2, 2}, DType.INT32, spec),
                        ReductionOptions.axis(0)))
                .hasMessageContaining("zero-size array to reduction operation max which has no identity");
        assertThatThrownBy(() -> Statistical.var(
                        Creation.ones(new long[] {3}, new int[] {2}, DType.FLOAT64, spec),
                        ReductionOptions.all().correction(-1)))
                .hasMessageContaining("correction must be a finite number >= 0, got -1.0");
        assertThatThrownBy(() -> Statistical.max(x, ReductionOptions.all().dtype(DType.INT64)))
                .hasMessageContaining("the dtype argument (int64) is only for sum and prod");
        assertThatThrownBy(() -> ReductionOptions.all().splitEvery(1)).hasMessageContaining("at least 2");
    }

    @Test
    void storedZarrInputsCountTheirReadCopiesAndGiveTheSameResults() {
        Spec spec = spec(10_000_000);
        Chunk data = ReferenceReductions.random(DType.FLOAT32, new int[] {7, 5, 6}, 9, 0);
        CubedArray stored = Cubed.fromArray(data, spec, 3, 2, 4);
        CubedArray virtual = Cubed.asarray(data, spec, 3, 2, 4);
        CubedArray m = Statistical.mean(stored, ReductionOptions.axis(0, 2));
        Computation cs = Computation.prepare(spec, List.of(m.node()), Map.of());
        Computation cv = Computation.prepare(
                spec,
                List.of(Statistical.mean(virtual, ReductionOptions.axis(0, 2)).node()),
                Map.of());
        long chunkBytes = 3 * 2 * 4 * 4;
        long asarrayBytes = 7 * 5 * 6 * 4;
        // The same plan, one read copy more of the (3, 2, 4) float32 input chunk in round 1 for the stored array; the
        // asarray's round 1 carries the whole (7, 5, 6) float32 array inside its tasks instead.
        assertThat(cs.projectedMemBytes().values().iterator().next()
                        - cv.projectedMemBytes().values().iterator().next())
                .isEqualTo(chunkBytes - asarrayBytes);
        List<Chunk> r = Cubed.compute(List.of(m, Searching.argmin(stored, ReductionOptions.axis(1))));
        assertThat(ReferenceReductions.compare(
                        ReferenceReductions.reduce(ReduceFunction.MEAN, data, new int[] {0, 2}, false, 0),
                        r.get(0),
                        2e-6))
                .isNull();
        assertThat(ReferenceReductions.compare(
                        ReferenceReductions.reduce(ReduceFunction.ARGMIN, data, new int[] {1}, false, 0), r.get(1), 0))
                .isNull();
    }

    @Test
    void zeroDimensionalArraysReduceToThemselves() {
        Spec spec = spec(10_000_000);
        CubedArray x = Cubed.asarray(Chunk.full(DType.INT16, io.cubed.dtype.Scalar.ofLong(-7)), spec);
        Chunk s = Statistical.sum(x).compute();
        assertThat(s.shape()).isEmpty();
        assertThat(s.dtype()).isEqualTo(DType.INT64);
        assertThat(s.longs()).containsExactly(-7);
        assertThat(Searching.argmax(x).compute().longs()).containsExactly(0);
        assertThat(Statistical.max(x, ReductionOptions.all().keepdims(true))
                        .compute()
                        .shorts())
                .containsExactly((short) -7);
    }

    @Test
    void emptyAxesGiveTheIdentityOrNan() {
        Spec spec = spec(10_000_000);
        CubedArray e = Creation.ones(new long[] {0, 3}, new int[] {2, 2}, DType.FLOAT64, spec);
        assertThat(Statistical.sum(e, ReductionOptions.axis(0)).compute().doubles())
                .containsExactly(0, 0, 0);
        assertThat(Statistical.prod(e, ReductionOptions.axis(0)).compute().doubles())
                .containsExactly(1, 1, 1);
        assertThat(Statistical.mean(e, ReductionOptions.axis(0)).compute().doubles())
                .containsOnly(Double.NaN);
        assertThat(Utility.all(e).compute().booleans()).containsExactly(true);
        assertThat(Statistical.sum(e, ReductionOptions.axis(1)).compute().size())
                .isZero();
    }

    /**
     * Cubed's test_reduction_multiple_rounds: sum over axis 0 of ones((100, 10), uint8, chunks=(1, 10)) with
     * allowedMem 1000 bytes takes rounds 100 -> 25 -> 7 -> 2 -> 1, every task projected within 1000 bytes.
     */
    @Test
    void sumOverManyChunksTakesSeveralRoundsWithinASmallAllowedMem() {
        long allowed = 1000;
        Spec spec = spec(allowed);
        CubedArray x = Creation.ones(new long[] {100, 10}, new int[] {1, 10}, DType.UINT8, spec);
        CubedArray s = Statistical.sum(x, ReductionOptions.axis(0));
        // Each round as its own operation (fusion could run round 1 inside round 2's tasks; see FusionTest).
        Computation c = Computation.prepare(spec, List.of(s.node()), Map.of(), FusionOptions.disabled());
        List<OpNode> ops = c.plan().ops();
        assertThat(ops).hasSize(4);
        assertThat(ops).extracting(OpNode::numTasks).containsExactly(25L, 7L, 2L, 1L);
        assertThat(ops.get(0).name()).isEqualTo("sum round 1/4");
        assertThat(ops.get(0).detail()).contains("[100, 1] -> [25, 1]");
        // Round 1, term by term: input (1, 10) uint8 = 10 B held once, no read copy (a virtual array); extra: one more
        // input chunk (10), two states of (1, 10) int64 (2 x 80) and row buffers (16 x 10); output state 80 B, 1 write
        // copy. Round 2 reads the stored state: 80 B with 1 read copy.
        assertThat(c.projectedMemBytes().get(ops.get(0))).isEqualTo(10 + (10 + 2 * 80 + 16 * 10) + 80 * 2);
        assertThat(c.projectedMemBytes().get(ops.get(1))).isEqualTo(80 * 2 + (80 + 2 * 80 + 16 * 10) + 80 * 2);
        assertThat(c.projectedMemBytes().values()).allSatisfy(m -> assertThat(m).isLessThanOrEqualTo(allowed));

        Map<String, Long> measured = new ConcurrentHashMap<>();
        Callback record = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                measured.merge(event.stage().id(), event.stage().projectedMemBytes(), Math::max);
            }
        };
        Chunk r = Cubed.compute(
                        List.of(s), ComputeOptions.builder().optimize(false).build(), record)
                .get(0);
        assertThat(r.dtype()).isEqualTo(DType.UINT64);
        assertThat(r.longs()).containsOnly(100L).hasSize(10);
        assertThat(measured).hasSize(4);
        assertThat(measured.values()).allSatisfy(m -> assertThat(m).isLessThanOrEqualTo(allowed));
        // Fused, the same result within the same budget.
        Chunk fused = Cubed.compute(
                        List.of(s), ComputeOptions.builder().optimize(true).build())
                .get(0);
        assertThat(fused.longs()).containsOnly(100L).hasSize(10);
    }

    @Test
    void splitEverySpreadsOverTheReducedAxes() {
        assertThat(Reduction.splitPerAxis(4, 1)).isEqualTo(4);
        assertThat(Reduction.splitPerAxis(4, 2)).isEqualTo(2);
        assertThat(Reduction.splitPerAxis(4, 3)).isEqualTo(2);
        assertThat(Reduction.splitPerAxis(8, 3)).isEqualTo(2);
        assertThat(Reduction.splitPerAxis(27, 3)).isEqualTo(3);
        assertThat(Reduction.splitPerAxis(16, 2)).isEqualTo(4);
        assertThat(Reduction.rounds(new long[] {100, 3}, new boolean[] {true, false}, new int[] {4, 1}))
                .extracting(a -> a[0])
                .containsExactly(25L, 7L, 2L, 1L);
        Spec spec = spec(10_000_000);
        CubedArray x = Creation.ones(new long[] {16, 16}, new int[] {1, 1}, DType.FLOAT64, spec);
        // 16 x 16 chunks, split 2 per axis: 8x8, 4x4, 2x2, 1x1.
        Computation c = Computation.prepare(spec, List.of(Statistical.mean(x).node()), Map.of());
        assertThat(c.plan().ops()).extracting(OpNode::numTasks).containsExactly(64L, 16L, 4L, 1L);
        assertThat(Statistical.mean(x).compute().doubles()[0]).isEqualTo(1.0);
        // Per axis (Cubed's dict form): 8 along axis 0, 2 along axis 1 (not named): 16x16 -> 2x8 -> 1x4 -> 1x2 -> 1x1.
        CubedArray perAxis = Statistical.sum(x, ReductionOptions.all().splitEvery(Map.of(0, 8)));
        Computation cp = Computation.prepare(spec, List.of(perAxis.node()), Map.of());
        assertThat(cp.plan().ops()).extracting(OpNode::numTasks).containsExactly(16L, 4L, 2L, 1L);
        assertThat(perAxis.compute().doubles()[0]).isEqualTo(256.0);
        assertThat(Statistical.sum(x, ReductionOptions.axis(1).splitEvery(Map.of(-1, 16)))
                        .explain())
                .contains("up to 16 input chunks per task");
        assertThatThrownBy(() -> ReductionOptions.all().splitEvery(Map.of(0, 1)))
                .hasMessageContaining("at least 2 on every axis, got 1 for axis 0");
        assertThatThrownBy(() -> Statistical.sum(x, ReductionOptions.all().splitEvery(Map.of(2, 4))))
                .hasMessageContaining("axis 2 is out of bounds");
        Computation c16 = Computation.prepare(
                spec,
                List.of(Statistical.sum(x, ReductionOptions.all().splitEvery(256))
                        .node()),
                Map.of());
        assertThat(c16.plan().ops()).hasSize(1);
    }

    @Test
    void aRoundOverTheBudgetIsRefusedBeforeAnythingRuns() {
        Spec spec = spec(2000);
        CubedArray x = Creation.ones(new long[] {100, 100}, new int[] {10, 100}, DType.FLOAT64, spec);
        assertThatThrownBy(() -> Statistical.sum(x, ReductionOptions.axis(0)).compute())
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("exceeds allowedMem")
                .hasMessageContaining("sum round 1/2");
    }

    @Test
    void varianceIsStableForDataWithALargeMean() {
        int n = 20_000;
        double[] d = new double[n];
        Random r = new Random(7);
        for (int i = 0; i < n; i++) {
            d[i] = 1e9 + r.nextDouble();
        }
        double mean = 0;
        for (double v : d) {
            mean += v;
        }
        mean /= n;
        double ss = 0;
        for (double v : d) {
            ss += (v - mean) * (v - mean);
        }
        Spec spec = spec(10_000_000);
        CubedArray x = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {n}, d), spec, 333);
        double var = Statistical.var(x).compute().doubles()[0];
        double std = Statistical.std(x, ReductionOptions.all().correction(1))
                .compute()
                .doubles()[0];
        assertThat(var).isCloseTo(ss / n, org.assertj.core.data.Offset.offset(1e-6 * ss / n));
        assertThat(std).isCloseTo(Math.sqrt(ss / (n - 1)), org.assertj.core.data.Offset.offset(1e-6));
        assertThat(var).isBetween(1 / 12.0 - 0.01, 1 / 12.0 + 0.01);
        assertThat(Statistical.mean(x).compute().doubles()[0])
                .isCloseTo(mean, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void correctionAboveTheCountGivesInfinityOrNanAsNumpy() {
        Spec spec = spec(10_000_000);
        Chunk d = Chunk.wrap(DType.FLOAT64, new int[] {2, 2}, new double[] {1, 2, 3, 3});
        CubedArray x = Cubed.asarray(d, spec, 1, 1);
        double[] v = Statistical.var(x, ReductionOptions.axis(1).correction(2))
                .compute()
                .doubles();
        assertThat(v[0]).isInfinite();
        assertThat(v[1]).isNaN();
        assertThat(Statistical.var(x, ReductionOptions.axis(1).correction(1))
                        .compute()
                        .doubles())
                .containsExactly(0.5, 0.0);
    }
}
