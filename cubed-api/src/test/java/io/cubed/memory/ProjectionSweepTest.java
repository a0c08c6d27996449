package io.cubed.memory;

import static io.cubed.array.Index.all;
import static io.cubed.array.Index.slice;
import static io.cubed.array.Index.take;
import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.Blockwise;
import io.cubed.array.Creation;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.array.Indexing;
import io.cubed.array.LinearAlgebra;
import io.cubed.array.Manipulation;
import io.cubed.array.Overlap;
import io.cubed.array.PadMode;
import io.cubed.array.ReductionOptions;
import io.cubed.array.SearchSide;
import io.cubed.array.Searching;
import io.cubed.array.Sets;
import io.cubed.array.SortOptions;
import io.cubed.array.Sorting;
import io.cubed.array.Statistical;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import io.cubed.runtime.TaskResult;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every public operation family run on chunks of 2-8 MB (uneven edge chunks, several data types, codecs, Zarr v3 shards,
 * CF decoding) with the in-process executor measuring the first task of every operation ({@link
 * LocalExecutor#withMemoryMeasurement}, {@code reservedMem} 0): the measured peak live heap of each task stays within
 * its operation's projected memory, and the values match a plain Java loop over the same input. The table of every
 * operation's projection and measure is printed (docs/core.md, "The memory bound", quotes it).
 *
 * <p>The measure is exact at chunk reads and writes and blind between them. With {@code -Dcubed.sweep.sample=true}
 * each case also runs again on one thread while another thread takes the live heap over and over (a full collection
 * each time), which also catches the kernels' temporaries between reads and writes, at whatever moments the samples
 * fall; the table gains a column for it. Too slow for every build (minutes), it is for audits of the projection.
 */
class ProjectionSweepTest {
    private static final int R = 1000;
    private static final int C = 800;
    private static final int CH = 700;
    private static final int N = 1_200_000;
    private static final int NCH = 500_000;

    @TempDir
    static Path dir;

    static Spec spec;
    static double[] a; // R x C float64, chunks CH x CH: 8 MB chunks, edges of 500 rows and 100 columns
    static float[] f; // R x C float32
    static int[] i32; // R x C int32
    static short[] i16; // C int16, chunks CH (broadcast along rows)
    static double[] v; // N float64, chunks NCH
    static CubedArray xa;
    static CubedArray xf;
    static CubedArray xi;
    static CubedArray xrow;
    static CubedArray xv;

    /** One measured operation of one case. */
    record Row(String kase, String stage, long tasks, long projected, long measured, long allocated, long sampled) {}

    /** The executor of every array here: measuring by default, or running one task at a time while sampled. */
    static final class Switch implements io.cubed.runtime.Executor {
        static final io.cubed.runtime.Executor MEASURING = new LocalExecutor(2, 1, 0).withMemoryMeasurement(1);
        volatile io.cubed.runtime.Executor current = MEASURING;

        @Override
        public String name() {
            return current.name();
        }

        @Override
        public int parallelism() {
            return 2;
        }

        @Override
        public void execute(io.cubed.runtime.ExecutionPlan plan, List<Callback> callbacks) {
            current.execute(plan, callbacks);
        }
    }

    static final Switch SWITCH = new Switch();

    /** Full collections so far (the old generation's collector). */
    static long fullCollections() {
        long n = 0;
        for (java.lang.management.GarbageCollectorMXBean b :
                java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            if (b.getName().contains("Old") || b.getName().contains("MarkSweep")) {
                n += b.getCollectionCount();
            }
        }
        return n;
    }

    /**
     * The live heap sampled on another thread (a full collection each time) while a one-thread executor runs {@code x},
     * per operation, above the live heap before: sees the kernels' temporaries between chunk reads and writes, where
     * the measurement does not look, at whatever moments the samples fall.
     */
    static Map<String, Long> sample(CubedArray x) {
        return sample(cb -> x.compute(cb));
    }

    /** As {@link #sample(CubedArray)}, for any computation given its callback (a {@code toZarr}, say). */
    static Map<String, Long> sample(java.util.function.Consumer<Callback> computation) {
        java.util.concurrent.atomic.AtomicReference<String> running =
                new java.util.concurrent.atomic.AtomicReference<>();
        Map<String, Long> peaks = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        long base = HeapProbe.liveHeap();
        Thread sampler = new Thread(() -> {
            while (!stop.get()) {
                String s = running.get();
                if (s == null) {
                    Thread.onSpinWait();
                    continue;
                }
                long full = fullCollections();
                long live = HeapProbe.liveHeap();
                // A histogram taken while a thread holds the GC locker (inside a JNI critical section: zlib) skips its
                // collection and counts garbage too: such a sample is dropped.
                if (s.equals(running.get()) && fullCollections() > full) {
                    peaks.merge(s, live - base, Math::max);
                }
            }
        });
        SWITCH.current = new LocalExecutor(1, 1, 0);
        sampler.start();
        try {
            computation.accept(new Callback() {
                @Override
                public void onOperationStart(OperationStart e) {
                    running.set(e.stage().id());
                }

                @Override
                public void onOperationEnd(OperationEnd e) {
                    running.set(null);
                }
            });
        } finally {
            stop.set(true);
            SWITCH.current = Switch.MEASURING;
            try {
                sampler.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return peaks;
    }

    static final List<Row> ROWS = new ArrayList<>();

    @BeforeAll
    static void inputs() {
        spec = Spec.builder()
                .workDir(dir.resolve("work").toString())
                .allowedMem("2GB")
                .reservedMem(0)
                .executor(SWITCH)
                .build();
        a = new double[R * C];
        f = new float[R * C];
        i32 = new int[R * C];
        for (int k = 0; k < R * C; k++) {
            a[k] = ((k * 7919L) % 10007) / 100.0 - 50;
            f[k] = (float) (((k * 31L) % 997) / 10.0 - 40);
            i32[k] = (int) ((k * 131L) % 2001) - 1000;
        }
        i16 = new short[C];
        for (int j = 0; j < C; j++) {
            i16[j] = (short) (j * 37 % 601 - 300);
        }
        v = new double[N];
        for (int k = 0; k < N; k++) {
            v[k] = ((k * 104729L) % 1000003) / 1000.0;
        }
        xa = stored(
                "a",
                new long[] {R, C},
                new int[] {CH, CH},
                DType.FLOAT64,
                Chunk.wrap(DType.FLOAT64, new int[] {R, C}, a));
        xf = stored(
                "f",
                new long[] {R, C},
                new int[] {CH, CH},
                DType.FLOAT32,
                Chunk.wrap(DType.FLOAT32, new int[] {R, C}, f));
        xi = stored(
                "i",
                new long[] {R, C},
                new int[] {CH, CH},
                DType.INT32,
                Chunk.wrap(DType.INT32, new int[] {R, C}, i32));
        xrow = stored("row", new long[] {C}, new int[] {CH}, DType.INT16, Chunk.wrap(DType.INT16, new int[] {C}, i16));
        xv = stored("v", new long[] {N}, new int[] {NCH}, DType.FLOAT64, Chunk.wrap(DType.FLOAT64, new int[] {N}, v));
    }

    static CubedArray stored(String name, long[] shape, int[] chunks, DType dtype, Chunk data) {
        return Cubed.fromZarr(write(name, shape, chunks, dtype, data, null, Map.of()), spec);
    }

    static String write(
            String name,
            long[] shape,
            int[] chunks,
            DType dtype,
            Chunk data,
            io.cubed.storage.zarr.Compressor compressor,
            Map<String, Object> attributes) {
        String url = dir.resolve(name + ".zarr").toString();
        ZarrCreateOptions.Builder options =
                ZarrCreateOptions.builder(shape, chunks, dtype).compressor(compressor);
        if (attributes.get("_FillValue") instanceof Number fill) {
            options.fillValue(Scalar.ofLong(fill.longValue()));
        }
        ZarrArray z = ZarrArray.create(url, options.build());
        if (!attributes.isEmpty()) {
            z.writeAttributes(attributes);
        }
        int n = shape.length;
        int[] grid = new int[n];
        for (int d = 0; d < n; d++) {
            grid[d] = (int) ((shape[d] + chunks[d] - 1) / chunks[d]);
        }
        int[] c = new int[n];
        do {
            int[] offset = new int[n];
            int[] extent = new int[n];
            long[] coords = new long[n];
            for (int d = 0; d < n; d++) {
                offset[d] = c[d] * chunks[d];
                extent[d] = (int) Math.min(chunks[d], shape[d] - offset[d]);
                coords[d] = c[d];
            }
            Chunk part = Chunk.allocate(dtype, extent);
            Chunk.copyRegion(data, offset, part, new int[n], extent);
            z.writeChunk(part, coords);
        } while (Chunk.nextIndex(c, grid, n));
        return url;
    }

    @AfterAll
    static void table() {
        StringBuilder s = new StringBuilder();
        for (Row r : ROWS) {
            s.append(String.format(
                    "%-28s %-50s %5d tasks  projected %9.2f MB  measured %9.2f MB  ratio %5.2f  allocated %9.2f MB sampled %9.2f MB %5.2f%n",
                    r.kase,
                    r.stage.length() > 50 ? r.stage.substring(0, 50) : r.stage,
                    r.tasks,
                    r.projected / 1e6,
                    r.measured / 1e6,
                    r.projected == 0 ? 0 : (double) r.measured / r.projected,
                    r.allocated / 1e6,
                    r.sampled / 1e6,
                    r.projected == 0 ? 0 : (double) r.sampled / r.projected));
        }
        System.out.print(s);
    }

    /**
     * What the measure sees beyond the element bytes the projection counts: the objects around them (a chunk's header
     * and shape, keys, a task's bookkeeping), under a kilobyte per chunk, which {@code reservedMem} covers; a stage of
     * a few bytes per chunk measures more than it projects by that much.
     */
    static final long OBJECT_SLACK = 256 * 1024;

    static final List<String> OVER = new ArrayList<>();

    /** Writes {@code x} to a new Zarr array, recording every operation's measured peak, and reads it back. */
    static Chunk runToZarr(String kase, CubedArray x) {
        String url = dir.resolve("out-" + ROWS.size() + "-" + kase.replaceAll("[^a-z0-9]", "") + ".zarr")
                .toString();
        record(kase, cb -> x.toZarr(url, cb));
        return Cubed.fromZarr(
                        url,
                        Spec.builder().workDir(dir.resolve("work2").toString()).build())
                .compute();
    }

    /** Computes {@code x}, recording every operation's measured peak against its projection. */
    static Chunk run(String kase, CubedArray x) {
        Chunk[] out = new Chunk[1];
        record(kase, cb -> out[0] = x.compute(cb), SAMPLE ? sample(x) : Map.of());
        return out[0];
    }

    static final boolean SAMPLE = Boolean.getBoolean("cubed.sweep.sample");

    static void record(String kase, java.util.function.Consumer<Callback> computation) {
        record(kase, computation, Map.of());
    }

    static void record(String kase, java.util.function.Consumer<Callback> computation, Map<String, Long> sampled) {
        Map<String, long[]> stages = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        Callback rec = new Callback() {
            @Override
            public synchronized void onTaskEnd(TaskEnd e) {
                TaskResult r = e.result();
                long[] s = stages.computeIfAbsent(e.stage().id(), k -> new long[] {0, -1, 0, 0});
                names.put(e.stage().id(), e.stage().description());
                s[0] = e.stage().projectedMemBytes();
                s[1] = Math.max(s[1], r.peakLiveBytes());
                s[2] = Math.max(s[2], r.allocatedBytes());
                s[3] = e.stage().numTasks();
            }
        };
        computation.accept(rec);
        synchronized (rec) {
            for (Map.Entry<String, long[]> e : stages.entrySet()) {
                long[] s = e.getValue();
                Row row = new Row(
                        kase,
                        e.getKey() + " " + names.get(e.getKey()),
                        s[3],
                        s[0],
                        s[1],
                        s[2],
                        sampled.getOrDefault(e.getKey(), -1L));
                ROWS.add(row);
                if (s[1] > s[0] + OBJECT_SLACK) {
                    OVER.add(row.toString());
                }
            }
        }
    }

    static void check(String kase, CubedArray x, IntToDoubleFunction expected, double tol) {
        compare(kase, run(kase, x), expected, tol);
    }

    static void compare(String kase, Chunk out, IntToDoubleFunction expected, double tol) {
        double[] got = out.toDoubleArray();
        for (int k = 0; k < got.length; k++) {
            double e = expected.applyAsDouble(k);
            if (!(Math.abs(got[k] - e) <= tol * Math.max(1, Math.abs(e))
                    || (Double.isNaN(e) && Double.isNaN(got[k])))) {
                throw new AssertionError(kase + ": element " + k + " is " + got[k] + ", expected " + e);
            }
        }
    }

    @AfterAll
    static void noneOver() {
        assertThat(OVER)
                .as("operations whose measured peak exceeds the projection")
                .isEmpty();
    }

    // ---- elementwise

    @Test
    void elementwise() {
        check("sin f32", Elementwise.sin(xf), k -> Math.sin(f[k]), 1e-6);
        check("add f32+f64 promote", Elementwise.add(xf, xa), k -> f[k] + a[k], 1e-12);
        check("multiply i32*i16 broadcast", Elementwise.multiply(xi, xrow), k -> (double) i32[k] * i16[k % C], 0);
        check(
                "where",
                Searching.where(Elementwise.greater(xa, Scalar.ofDouble(0)), xa, Elementwise.astype(xf, DType.FLOAT64)),
                k -> a[k] > 0 ? a[k] : f[k],
                0);
        check(
                "fused chain",
                Elementwise.multiply(
                        Elementwise.exp(Elementwise.divide(xa, Scalar.ofDouble(50))),
                        Elementwise.add(xf, Scalar.ofDouble(1))),
                k -> Math.exp(a[k] / 50) * (f[k] + 1.0),
                1e-6);
    }

    // ---- reductions

    @Test
    void reductions() {
        double[] colSum = new double[C];
        double[] rowSum = new double[R];
        double total = 0;
        double mx = Double.NEGATIVE_INFINITY;
        int am = 0;
        for (int i = 0; i < R; i++) {
            for (int j = 0; j < C; j++) {
                double x = a[i * C + j];
                colSum[j] += x;
                rowSum[i] += x;
                total += x;
                if (x > mx) {
                    mx = x;
                    am = i * C + j;
                }
            }
        }
        double t = total;
        check("sum axis 0", Statistical.sum(xa, ReductionOptions.axis(0)), k -> colSum[k], 1e-9);
        check("sum all", Statistical.sum(xa), k -> t, 1e-9);
        long[] isum = new long[R];
        for (int i = 0; i < R; i++) {
            for (int j = 0; j < C; j++) {
                isum[i] += i32[i * C + j];
            }
        }
        check("sum i32 axis 1", Statistical.sum(xi, ReductionOptions.axis(1)), k -> isum[k], 0);
        int amx = am;
        check("argmax all", Searching.argmax(xa), k -> amx, 0);
        int[] argmin0 = new int[C];
        for (int j = 0; j < C; j++) {
            for (int i = 1; i < R; i++) {
                if (f[i * C + j] < f[argmin0[j] * C + j]) {
                    argmin0[j] = i;
                }
            }
        }
    }

    @Test
    void cumulative() {
        double[] cs = new double[R * C];
        for (int i = 0; i < R; i++) {
            for (int j = 0; j < C; j++) {
                cs[i * C + j] = a[i * C + j] + (i > 0 ? cs[(i - 1) * C + j] : 0);
            }
        }
        check("cumulative_sum axis 0", Statistical.cumulativeSum(xa, ReductionOptions.axis(0)), k -> cs[k], 1e-9);
        double[] cv = new double[N];
        double s = 0;
        for (int k = 0; k < N; k++) {
            s += v[k];
            cv[k] = s;
        }
    }

    // ---- linear algebra

    @Test
    void products() {
        int p = 300;
        double[] w = new double[C * p];
        for (int k = 0; k < w.length; k++) {
            w[k] = ((k * 13L) % 101) / 50.0 - 1;
        }
        CubedArray xw = stored(
                "w",
                new long[] {C, p},
                new int[] {CH, p},
                DType.FLOAT64,
                Chunk.wrap(DType.FLOAT64, new int[] {C, p}, w));
        double[] mm = new double[R * p];
        for (int i = 0; i < R; i++) {
            for (int k = 0; k < C; k++) {
                double x = a[i * C + k];
                for (int j = 0; j < p; j++) {
                    mm[i * p + j] += x * w[k * p + j];
                }
            }
        }
        check("matmul", LinearAlgebra.matmul(xa, xw), k -> mm[k], 1e-9);
        double[] vd = new double[R];
        for (int i = 0; i < R; i++) {
            for (int j = 0; j < C; j++) {
                vd[i] += a[i * C + j] * f[i * C + j];
            }
        }
        check("vecdot", LinearAlgebra.vecdot(xa, Elementwise.astype(xf, DType.FLOAT64)), k -> vd[k], 1e-9);
        CubedArray v1 = Indexing.index(xv, slice(0L, 3000L));
        CubedArray v2 = Indexing.index(xv, slice(5000L, 7000L));
        check(
                "outer",
                LinearAlgebra.outer(Manipulation.rechunk(v1, 1000), Manipulation.rechunk(v2, 1000)),
                k -> v[k / 2000] * v[5000 + k % 2000],
                1e-12);
    }

    // ---- rechunk and manipulation

    @Test
    void rechunks() {
        check("rechunk rows->cols", Manipulation.rechunk(xa, 250, C), k -> a[k], 0);
    }

    @Test
    void manipulation() {
        CubedArray top = Indexing.index(xa, slice(0L, (long) CH), all());
        check("concat axis 0", Manipulation.concat(List.of(xa, xa), 0), k -> a[k % (R * C)], 0);
        check("flatten", Manipulation.reshape(top, -1), k -> a[k], 0);
        check("expand_dims+squeeze", Manipulation.squeeze(Manipulation.expandDims(xa, 0), 0), k -> a[k], 0);
        check("permute_dims", Manipulation.permuteDims(xa, 1, 0), k -> a[(k % R) * C + k / R], 0);
        check("flip both", Manipulation.flip(xa), k -> a[R * C - 1 - k], 0);
        long[][] pw = {{3, 5}, {0, 7}};
        check(
                "broadcast_to",
                Manipulation.broadcastTo(xrow, new long[] {2000, C}, new int[] {CH, CH}),
                k -> i16[k % C],
                0);
    }

    // ---- indexing

    @Test
    void indexing() {
        check("slice step 3", Indexing.index(xa, slice(1L, null, 3), all()), k -> a[(1 + 3 * (k / C)) * C + k % C], 0);
        check(
                "slice step -2",
                Indexing.index(xa, all(), slice(null, null, -2)),
                k -> a[(k / (C / 2)) * C + C - 1 - 2 * (k % (C / 2))],
                0);
        long[] idx = {900, 3, 699, 700, 7, 999, 500};
        check(
                "integer array key",
                Indexing.index(xa, all(), take(799, 0, 700, 5)),
                k -> {
                    int[] js = {799, 0, 700, 5};
                    return a[(k / 4) * C + js[k % 4]];
                },
                0);
    }

    // ---- sorting, sets, searching

    @Test
    void sorting() {
        int n = 600_000;
        double[] w = Arrays.copyOf(v, n);
        CubedArray xw = stored(
                "sortme",
                new long[] {n},
                new int[] {250_000},
                DType.FLOAT64,
                Chunk.wrap(DType.FLOAT64, new int[] {n}, w));
        double[] sv = w.clone();
        Arrays.sort(sv);
        check("sort 1-D", Sorting.sort(xw), k -> sv[k], 0);
        Chunk order = run("argsort 1-D", Sorting.argsort(xw));
        long[] o = order.toLongArray();
        for (int k = 0; k < n; k++) {
            assertThat(w[(int) o[k]]).isEqualTo(sv[k]);
        }
        CubedArray sorted = stored(
                "sorted",
                new long[] {n},
                new int[] {250_000},
                DType.FLOAT64,
                Chunk.wrap(DType.FLOAT64, new int[] {n}, sv));
        check(
                "searchsorted",
                Searching.searchsorted(sorted, xv, SearchSide.LEFT),
                k -> {
                    int lo = 0;
                    int hi = n;
                    double x = v[k];
                    while (lo < hi) {
                        int mid = (lo + hi) >>> 1;
                        if (sv[mid] < x) {
                            lo = mid + 1;
                        } else {
                            hi = mid;
                        }
                    }
                    return lo;
                },
                0);
    }

    // ---- blockwise functions

    @Test
    void blockwiseFunctions() {
        check(
                "map_blocks",
                Blockwise.mapBlocks(
                        (blocks, id) -> {
                            Chunk out = Chunk.allocate(DType.FLOAT64, blocks[0].shape());
                            double[] in = blocks[0].doubles();
                            for (int k = 0; k < in.length; k++) {
                                out.doubles()[k] = 2 * in[k];
                            }
                            return out;
                        },
                        DType.FLOAT64,
                        xa),
                k -> 2 * a[k],
                0);
        check(
                "map_overlap",
                Overlap.mapOverlap(
                        (blocks, id) -> {
                            Chunk b = blocks[0];
                            int rows = b.shape(0);
                            int cols = b.shape(1);
                            Chunk out = Chunk.allocate(DType.FLOAT64, rows, cols);
                            for (int i = 1; i < rows - 1; i++) {
                                for (int j = 0; j < cols; j++) {
                                    out.doubles()[i * cols + j] =
                                            b.doubles()[(i - 1) * cols + j] + b.doubles()[(i + 1) * cols + j];
                                }
                            }
                            return out;
                        },
                        new int[] {1, 0},
                        Scalar.ofDouble(0),
                        DType.FLOAT64,
                        xa),
                k -> {
                    int i = k / C;
                    int j = k % C;
                    return (i > 0 ? a[(i - 1) * C + j] : 0) + (i < R - 1 ? a[(i + 1) * C + j] : 0);
                },
                0);
    }

    // ---- creation

    @Test
    void creation() {
        check("arange", Creation.arange(0, 1_200_000, 1, NCH, DType.FLOAT64, spec), k -> k, 0);
        check(
                "linspace",
                Creation.linspace(0, 1, 1_000_001, true, NCH, DType.FLOAT64, spec),
                k -> k / 1_000_000.0,
                1e-12);
        check(
                "eye",
                Creation.eye(R, C, 3, new int[] {CH, CH}, DType.FLOAT64, spec),
                k -> k % C == k / C + 3 ? 1 : 0,
                0);
        check(
                "full",
                Creation.full(new long[] {R, C}, Scalar.ofDouble(2.5), new int[] {CH, CH}, DType.FLOAT64, spec),
                k -> 2.5,
                0);
        check("zeros_like+x", Elementwise.add(Creation.zerosLike(xa), xa), k -> a[k], 0);
        // Data carried inside the task function: the projection counts the whole 6.4 MB asarray beside the chunks. In
        // this JVM it is live before any task starts, so the measure (above the live heap at a task's start) does
        // not see it.
        CubedArray carried = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {R, C}, a), spec, CH, CH);
        check("asarray (6.4 MB) + x", Elementwise.add(carried, xa), k -> 2 * a[k], 0);
    }

    @Test
    void creationStored() {
        compare(
                "arange to zarr",
                runToZarr("arange to zarr", Creation.arange(0, 1_200_000, 1, NCH, DType.FLOAT64, spec)),
                k -> k,
                0);
        compare(
                "eye to zarr",
                runToZarr("eye to zarr", Creation.eye(R, C, -2, new int[] {CH, CH}, DType.FLOAT32, spec)),
                k -> k % C == k / C - 2 ? 1 : 0,
                0);
    }

    // ---- stored with codecs, CF decoding, several rounds, several stages

    @Test
    void compressedInputs() {
        Chunk data = Chunk.wrap(DType.FLOAT64, new int[] {R, C}, a);
        CubedArray az = Cubed.fromZarr(
                write(
                        "az",
                        new long[] {R, C},
                        new int[] {CH, CH},
                        DType.FLOAT64,
                        data,
                        io.cubed.storage.zarr.Compressor.parseSpec("zlib:1"),
                        Map.of()),
                spec);
        CubedArray ab = Cubed.fromZarr(
                write(
                        "ab",
                        new long[] {R, C},
                        new int[] {CH, CH},
                        DType.FLOAT64,
                        data,
                        io.cubed.storage.zarr.Compressor.parseSpec("blosc:lz4:5:shuffle"),
                        Map.of()),
                spec);
        check("zlib+blosc add", Elementwise.add(az, ab), k -> 2 * a[k], 0);
        check("zlib rechunk", Manipulation.rechunk(az, 250, C), k -> a[k], 0);
        double[] colSum = new double[C];
        for (int k = 0; k < R * C; k++) {
            colSum[k % C] += a[k];
        }
        check("zlib sum axis 0", Statistical.sum(az, ReductionOptions.axis(0)), k -> colSum[k], 1e-9);
        Spec zspec = spec.toBuilder().intermediateCodec("zlib").build();
        CubedArray zi = Cubed.fromZarr(dir.resolve("az.zarr").toString(), zspec);
        check(
                "zlib intermediates sum split 2",
                Statistical.sum(Manipulation.flip(zi), ReductionOptions.axis(0).splitEvery(2)),
                k -> colSum[C - 1 - k],
                1e-9);
    }

    @Test
    void cfDecoding() {
        short[] packed = new short[R * C];
        for (int k = 0; k < packed.length; k++) {
            packed[k] = k % 101 == 0 ? Short.MIN_VALUE : (short) (k % 20011 - 10000);
        }
        String url = write(
                "cf",
                new long[] {R, C},
                new int[] {CH, CH},
                DType.INT16,
                Chunk.wrap(DType.INT16, new int[] {R, C}, packed),
                io.cubed.storage.zarr.Compressor.parseSpec("zlib:1"),
                Map.of("scale_factor", 0.01, "add_offset", 5.0, "_FillValue", -32768));
        CubedArray cf = Cubed.fromZarr(url, spec, io.cubed.storage.zarr.cf.CfOptions.defaults());
        check(
                "cf scale_factor",
                Elementwise.multiply(cf, Scalar.ofDouble(2)),
                k -> packed[k] == Short.MIN_VALUE ? Double.NaN : 2 * (packed[k] * 0.01 + 5.0),
                1e-6);
        long[] days = new long[R * C / 2];
        for (int k = 0; k < days.length; k++) {
            days[k] = k % 36500;
        }
        String turl = write(
                "times",
                new long[] {R * C / 2},
                new int[] {NCH / 2},
                DType.INT64,
                Chunk.wrap(DType.INT64, new int[] {R * C / 2}, days),
                null,
                Map.of("units", "days since 2000-01-01", "calendar", "standard", "_FillValue", -1));
        CubedArray t = Cubed.fromZarr(turl, spec, io.cubed.storage.zarr.cf.CfOptions.defaults());
        Chunk got = run("cf times max", Statistical.max(t));
        assertThat(got.getLong(0)).isEqualTo((36499L * 86_400 + 946_684_800L) * 1_000_000L);
        check("cf times copy", Manipulation.rechunk(t, 300_000), k -> (days[k] * 86_400 + 946_684_800.0) * 1e6, 0);
    }

    @Test
    void severalRounds() {
        CubedArray a300 = Cubed.fromZarr(
                write(
                        "a300",
                        new long[] {R, C},
                        new int[] {400, C},
                        DType.FLOAT64,
                        Chunk.wrap(DType.FLOAT64, new int[] {R, C}, a),
                        null,
                        Map.of()),
                spec);
        double[] colSum = new double[C];
        for (int k = 0; k < R * C; k++) {
            colSum[k % C] += a[k];
        }
        check(
                "mean axis 0 split 2",
                Statistical.mean(a300, ReductionOptions.axis(0).splitEvery(2)),
                k -> colSum[k] / R,
                1e-9);
        double[] var0 = new double[C];
        for (int k = 0; k < R * C; k++) {
            double d = a[k] - colSum[k % C] / R;
            var0[k % C] += d * d / R;
        }
        check(
                "var axis 0 split 2",
                Statistical.var(a300, ReductionOptions.axis(0).splitEvery(2)),
                k -> var0[k],
                1e-9);
        int[] am = new int[C];
        for (int j = 0; j < C; j++) {
            for (int i = 1; i < R; i++) {
                if (a[i * C + j] > a[am[j] * C + j]) {
                    am[j] = i;
                }
            }
        }
        check(
                "argmax axis 0 split 2",
                Searching.argmax(a300, ReductionOptions.axis(0).splitEvery(2)),
                k -> am[k],
                0);
        Spec tight = spec.toBuilder().allowedMem("20MB").build();
        CubedArray xt = Cubed.fromZarr(dir.resolve("a.zarr").toString(), tight);
        check("rechunk multi-stage", Manipulation.rechunk(xt, R, 20), k -> a[k], 0);
    }

    @Test
    void narrowAndWideTypes() {
        int rows = 2000;
        int cols = 1500;
        byte[] b = new byte[rows * cols];
        byte[] u = new byte[rows * cols];
        for (int k = 0; k < b.length; k++) {
            b[k] = (byte) (k * 7 % 255 - 127);
            u[k] = (byte) (k * 13 % 256);
        }
        CubedArray x8 = stored(
                "i8",
                new long[] {rows, cols},
                new int[] {1500, 1500},
                DType.INT8,
                Chunk.wrap(DType.INT8, new int[] {rows, cols}, b));
        CubedArray xu8 = stored(
                "u8",
                new long[] {rows, cols},
                new int[] {1500, 1500},
                DType.UINT8,
                Chunk.wrap(DType.UINT8, new int[] {rows, cols}, u));
        check("int8 negative", Elementwise.negative(x8), k -> (byte) -b[k], 0);
        byte[] r8 = new byte[cols];
        for (int j = 0; j < cols; j++) {
            r8[j] = (byte) (j % 50 + 1);
        }
        CubedArray row8 = stored(
                "r8", new long[] {cols}, new int[] {1500}, DType.INT8, Chunk.wrap(DType.INT8, new int[] {cols}, r8));
        check(
                "int8 floor_divide int8 row",
                Elementwise.floorDivide(x8, row8),
                k -> Math.floorDiv(b[k], r8[k % cols]),
                0);
        check(
                "int8 fused chain",
                Elementwise.multiply(
                        Elementwise.add(Elementwise.abs(x8), Scalar.ofLong(1)), Elementwise.subtract(x8, row8)),
                k -> (byte) ((byte) (Math.abs(b[k]) + 1) * (byte) (b[k] - r8[k % cols])),
                0);
        check("int8+uint8 -> int16", Elementwise.add(x8, xu8), k -> b[k] + (u[k] & 0xff), 0);
        long[] colSum = new long[cols];
        long[] rowCum = new long[rows * cols];
        for (int i = 0; i < rows; i++) {
            long c = 0;
            for (int j = 0; j < cols; j++) {
                colSum[j] += b[i * cols + j];
                c += b[i * cols + j];
                rowCum[i * cols + j] = c;
            }
        }
        check(
                "int8->f32 mean axis 0",
                Statistical.mean(Elementwise.astype(x8, DType.FLOAT32), ReductionOptions.axis(0)),
                k -> colSum[k] / (double) rows,
                1e-6);
        check("int8 cumulative_sum axis 1", Statistical.cumulativeSum(x8, ReductionOptions.axis(1)), k -> rowCum[k], 0);
        CubedArray mask = Elementwise.greater(x8, Scalar.ofLong(0));
        long pos = 0;
        for (byte x : b) {
            pos += x > 0 ? 1 : 0;
        }
        long p = pos;
        check("bool count_nonzero", Searching.countNonzero(mask), k -> p, 0);
        check(
                "float32 var axis 1",
                Statistical.var(xf, ReductionOptions.axis(1)),
                k -> {
                    double m = 0;
                    for (int j = 0; j < C; j++) {
                        m += f[k * C + j];
                    }
                    m /= C;
                    double q = 0;
                    for (int j = 0; j < C; j++) {
                        q += (f[k * C + j] - m) * (f[k * C + j] - m);
                    }
                    return q / C;
                },
                1e-5);
        CubedArray z = Elementwise.add(Elementwise.astype(xa, DType.COMPLEX128), Scalar.ofComplex(0, 1));
        check("complex128 abs(z*z)", Elementwise.abs(Elementwise.multiply(z, z)), k -> a[k] * a[k] + 1, 1e-12);
        check(
                "complex128 sum axis 0 real",
                Elementwise.real(Statistical.sum(z, ReductionOptions.axis(0))),
                k -> {
                    double c = 0;
                    for (int i = 0; i < R; i++) {
                        c += a[i * C + k];
                    }
                    return c;
                },
                1e-9);
    }

    @Test
    void multiInput() {
        check(
                "where broadcast 3 types",
                Searching.where(Elementwise.greater(xrow, Scalar.ofLong(0)), xf, Elementwise.astype(xi, DType.FLOAT64)),
                k -> i16[k % C] > 0 ? f[k] : i32[k],
                0);
        check(
                "concat 3 uneven",
                Manipulation.concat(
                        List.of(
                                Indexing.index(xa, slice(0L, 700L), all()),
                                xa,
                                Indexing.index(xa, slice(100L, 900L), all())),
                        0),
                k -> {
                    int i = k / C;
                    int j = k % C;
                    return i < 700 ? a[i * C + j] : i < 700 + R ? a[(i - 700) * C + j] : a[(i - 700 - R + 100) * C + j];
                },
                0);
        check("stack axis 2", Manipulation.stack(List.of(xa, xa, xa), 2), k -> a[k / 3], 0);
        check("tile 3x", Manipulation.tile(xa, 3, 1), k -> a[k % (R * C)], 0);
        check("repeat axis 1", Manipulation.repeat(xa, 3, 1), k -> a[(k / (3 * C)) * C + (k % (3 * C)) / 3], 0);
        check(
                "pad symmetric",
                Manipulation.pad(xa, new long[][] {{300, 0}, {0, 0}}, PadMode.SYMMETRIC, Scalar.ofDouble(0)),
                k -> {
                    int i = k / C - 300;
                    return a[(i < 0 ? -i - 1 : i) * C + k % C];
                },
                0);
        check("roll flat", Manipulation.roll(xa, 123_457), k -> a[Math.floorMod(k - 123_457, R * C)], 0);
        long[] idx = new long[3000];
        for (int k = 0; k < idx.length; k++) {
            idx[k] = (k * 7919L) % R;
        }
        check("take 3000 rows", Indexing.take(xa, idx, 0), k -> a[(int) idx[k / C] * C + k % C], 0);
        check("diff axis 0", io.cubed.array.Utility.diff(xa, 0, 1), k -> a[k + C] - a[k], 1e-12);
        check(
                "isin",
                Sets.isin(xi, Indexing.index(xi, slice(0L, 1L), slice(0L, 50L))),
                k -> {
                    for (int j = 0; j < 50; j++) {
                        if (i32[j] == i32[k]) {
                            return 1;
                        }
                    }
                    return 0;
                },
                0);
    }

    @Test
    void dataDependentShapesAreRefusedAtTheCall() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Sets.uniqueValues(xi))
                .isInstanceOf(io.cubed.error.PlanException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Searching.nonzero(xi))
                .isInstanceOf(io.cubed.error.PlanException.class);
    }

    @Test
    void zarrV3Inputs() {
        Chunk data = Chunk.wrap(DType.FLOAT64, new int[] {R, C}, a);
        for (String kind : new String[] {"sharded", "sharded-gzip"}) {
            List<io.cubed.storage.zarr.V3Codec> codecs =
                    switch (kind) {
                        case "sharded" -> io.cubed.storage.zarr.ZarrV3Metadata.sharding(
                                new int[] {CH / 2, CH / 2}, List.of());
                        default -> io.cubed.storage.zarr.ZarrV3Metadata.sharding(
                                new int[] {CH / 2, CH / 2}, List.of(new io.cubed.storage.zarr.V3Codec.Gzip(1)));
                    };
            String url = dir.resolve("v3-" + kind + ".zarr").toString();
            io.cubed.storage.zarr.ZarrV3Array z = io.cubed.storage.zarr.ZarrV3Array.create(
                    url,
                    io.cubed.storage.zarr.ZarrV3Metadata.create(
                            new long[] {R, C}, new int[] {CH, CH}, DType.FLOAT64, Scalar.zero(), codecs),
                    false,
                    io.cubed.storage.StoreOptions.empty());
            for (int i = 0; i < 2; i++) {
                for (int j = 0; j < 2; j++) {
                    int[] off = {i * CH, j * CH};
                    int[] ext = {Math.min(CH, R - off[0]), Math.min(CH, C - off[1])};
                    Chunk part = Chunk.allocate(DType.FLOAT64, ext);
                    Chunk.copyRegion(data, off, part, new int[2], ext);
                    z.writeChunk(part, i, j);
                }
            }
            CubedArray x = Cubed.fromZarr(url, spec);
            check("V3 " + kind + " rechunk", Manipulation.rechunk(x, 200, C), k -> a[k], 0);
            check("V3 " + kind + " flip", Manipulation.flip(x), k -> a[R * C - 1 - k], 0);
            check("V3 " + kind + " slice", Indexing.index(x, slice(650L, 760L), all()), k -> a[650 * C + k], 0);
            // Inside one inner chunk of (CH / 2, CH / 2), and every 7th row of the first inner chunk row: tasks read
            // the
            // inner chunks their elements lie in, with ranged reads.
            check(
                    "V3 " + kind + " small slice",
                    Indexing.index(x, slice(10L, 20L), slice(100L, 300L)),
                    k -> a[(10 + k / 200) * C + 100 + k % 200],
                    0);
            check(
                    "V3 " + kind + " stepped slice",
                    Indexing.index(x, slice(0L, 300L, 7), all()),
                    k -> a[(k / C) * 7 * C + k % C],
                    0);
            // Opened in chunks of its inner chunks: read with ranged reads, an inner chunk at a time.
            check(
                    "V3 " + kind + " by inner chunks",
                    Elementwise.negative(Cubed.fromZarr(url, spec, CH / 2, CH / 2)),
                    k -> -a[k],
                    0);
            // CF-decoded (scale_factor): a slice inside one inner chunk reads and decodes that inner chunk.
            z.writeAttributes(Map.of("scale_factor", 0.5));
            check(
                    "V3 " + kind + " CF small slice",
                    Indexing.index(
                            Cubed.fromZarr(url, spec, io.cubed.storage.zarr.cf.CfOptions.defaults()),
                            slice(10L, 20L),
                            slice(100L, 300L)),
                    k -> 0.5 * a[(10 + k / 200) * C + 100 + k % 200],
                    0);
        }
        // Written as shards of (CH, CH) holding inner chunks of (CH / 2, CH / 2), bytes + zstd: to a local file each
        // inner chunk goes out as it is encoded.
        CubedArray y = Elementwise.negative(xa);
        String url = dir.resolve("v3-sharded-out.zarr").toString();
        io.cubed.array.ComputeOptions sharded = io.cubed.array.ComputeOptions.builder()
                .zarrFormat(io.cubed.storage.zarr.ZarrFormat.v3Sharded(CH / 2, CH / 2))
                .build();
        record(
                "V3 sharded write",
                cb -> y.toZarr(url, sharded, cb),
                SAMPLE
                        ? sample(cb ->
                                y.toZarr(dir.resolve("v3-sharded-sampled.zarr").toString(), sharded, cb))
                        : Map.of());
        double[] back = Cubed.fromZarr(url, spec).compute().doubles();
        for (int k = 0; k < R * C; k++) {
            assertThat(back[k]).as("element %d", k).isEqualTo(-a[k]);
        }
    }

    @Test
    void moreFamilies() {
        double[][] cols = new double[C][R];
        for (int k = 0; k < R * C; k++) {
            cols[k % C][k / C] = a[k];
        }
        for (double[] col : cols) {
            Arrays.sort(col);
        }
        check("sort axis 0 2-D", Sorting.sort(xa, SortOptions.axis(0)), k -> cols[k % C][k / C], 0);
        double[] cp = new double[R * C];
        for (int k = 0; k < R * C; k++) {
            cp[k] = (a[k] / 1000 + 1) * (k % C == 0 ? 1 : cp[k - 1]);
        }
        check(
                "cumulative_prod axis 1",
                Statistical.cumulativeProd(
                        Elementwise.add(Elementwise.divide(xa, Scalar.ofDouble(1000)), Scalar.ofDouble(1)),
                        ReductionOptions.axis(1)),
                k -> cp[k],
                1e-9);
        CubedArray rc = Manipulation.rechunk(xf, 500, 500);
        check("add mismatched chunks", Elementwise.add(xa, rc), k -> a[k] + f[k], 1e-12);
        check(
                "fft axis 1",
                Elementwise.real(io.cubed.array.Fft.fft(
                        Elementwise.astype(Indexing.index(xa, slice(0L, 40L), all()), DType.COMPLEX128))),
                k -> {
                    int i = k / C;
                    int m = k % C;
                    double re = 0;
                    for (int j = 0; j < C; j++) {
                        re += a[i * C + j] * Math.cos(2 * Math.PI * ((long) m * j % C) / C);
                    }
                    return re;
                },
                1e-6);
        CubedArray idx = Elementwise.astype(Elementwise.remainder(xi, Scalar.ofLong(R)), DType.INT64);
        check(
                "take_along_axis 0",
                Indexing.takeAlongAxis(xa, Elementwise.abs(idx), 0),
                k -> a[Math.abs(Math.floorMod(i32[k], R)) * C + k % C],
                0);
        check(
                "mapBlocksMulti",
                Blockwise.mapBlocksMulti(
                                (blocks, id) -> new Chunk[] {blocks[0], blocks[0]},
                                List.of(DType.FLOAT64, DType.FLOAT64),
                                xa)
                        .get(1),
                k -> a[k],
                0);
    }
}
