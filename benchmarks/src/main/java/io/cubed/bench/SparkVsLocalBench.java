package io.cubed.bench;

import io.cubed.Cubed;
import io.cubed.array.BlockFunction;
import io.cubed.array.Blockwise;
import io.cubed.array.Creation;
import io.cubed.array.CubedArray;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.runtime.Executor;
import io.cubed.runtime.LocalExecutor;
import io.cubed.spark.SparkExecutor;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The same elementwise workload on Spark {@code local[2]} and on {@link LocalExecutor} with 2 threads: {@code out = 2 x
 * + y} over {@code tasks} chunks of 1024 x 1024 float64 (8 MiB), {@code x} a Zarr array on local disk ({@link
 * BenchData} fields, default compressor) and {@code y} a virtual array of ones, written to a new Zarr array on local
 * disk. Runs alternate between the executors; Spark's session start-up is timed separately. Prints a Markdown table.
 *
 * <pre>bin/bench-spark [--tasks 1000] [--repeats 3] [--dir benchmarks/target/spark-bench]</pre>
 */
public final class SparkVsLocalBench {
    private SparkVsLocalBench() {}

    /** {@code 2 a + b}: the benchmark's elementwise function (named: it travels to Spark tasks). */
    public record TwiceAPlusB() implements BlockFunction {
        private static final long serialVersionUID = 1L;

        @Override
        public Chunk apply(Chunk[] blocks, long[] blockId) {
            double[] a = blocks[0].doubles();
            double[] b = blocks[1].doubles();
            Chunk out = Chunk.allocate(DType.FLOAT64, blocks[0].shape());
            double[] o = out.doubles();
            for (int i = 0; i < o.length; i++) {
                o[i] = 2 * a[i] + b[i];
            }
            return out;
        }
    }

    public static void main(String[] args) throws Exception {
        int tasks = 100;
        int repeats = 2;
        Path dir = Path.of("benchmarks/target/spark-bench");
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--tasks" -> tasks = Integer.parseInt(args[i + 1]);
                case "--repeats" -> repeats = Integer.parseInt(args[i + 1]);
                case "--dir" -> dir = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException(
                        "unknown option " + args[i] + "; usage: [--tasks N] [--repeats R] [--dir PATH]");
            }
        }
        Files.createDirectories(dir);
        String input = dir.resolve("input-" + tasks + ".zarr").toString();
        prepareInput(input, tasks);

        long s0 = System.nanoTime();
        JavaSparkContext jsc = new JavaSparkContext(new SparkConf()
                .setMaster("local[2]")
                .setAppName("cubed-bench")
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1"));
        jsc.setLogLevel("WARN");
        jsc.parallelize(Arrays.asList(1, 2), 2).count();
        double startup = (System.nanoTime() - s0) / 1e9;
        try {
            Executor spark = SparkExecutor.create(jsc);
            Executor local = new LocalExecutor(2, 3);
            List<Double> sparkTimes = new ArrayList<>();
            List<Double> localTimes = new ArrayList<>();
            // One untimed warm-up run each (JIT, page cache), then alternate.
            run(local, input, dir, "warmup-local");
            run(spark, input, dir, "warmup-spark");
            for (int r = 0; r < repeats; r++) {
                localTimes.add(run(local, input, dir, "local-" + r));
                sparkTimes.add(run(spark, input, dir, "spark-" + r));
            }
            double bytes = (double) tasks * BenchData.CHUNK_BYTES;
            double l = median(localTimes);
            double s = median(sparkTimes);
            System.out.printf(
                    Locale.ROOT,
                    "%n%d tasks, %d x 8 MiB float64 chunks (%.2f GB per input), %d timed runs each; JVM %s, "
                            + "max heap %d MiB, %d cores%n%n",
                    tasks,
                    tasks,
                    bytes / 1e9,
                    repeats,
                    System.getProperty("java.version"),
                    Runtime.getRuntime().maxMemory() >> 20,
                    Runtime.getRuntime().availableProcessors());
            System.out.println("| executor | runs (s) | median (s) | MB/s of x | Spark / local |");
            System.out.println("|---|---|---|---|---|");
            System.out.printf(
                    Locale.ROOT,
                    "| LocalExecutor(2 threads) | %s | %.2f | %.0f | |%n",
                    fmt(localTimes),
                    l,
                    bytes / 1e6 / l);
            System.out.printf(
                    Locale.ROOT,
                    "| SparkExecutor(local[2]) | %s | %.2f | %.0f | %.3f |%n",
                    fmt(sparkTimes),
                    s,
                    bytes / 1e6 / s,
                    s / l);
            System.out.printf(Locale.ROOT, "%nSpark session start-up (context + first job): %.2f s%n", startup);
        } finally {
            jsc.stop();
        }
    }

    private static void prepareInput(String url, int tasks) {
        if (Files.exists(Path.of(url, ".zarray"))) {
            return;
        }
        System.out.printf(Locale.ROOT, "writing input %s (%d chunks)...%n", url, tasks);
        ZarrArray x = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(
                                new long[] {(long) tasks * BenchData.ROWS, BenchData.COLS},
                                new int[] {BenchData.ROWS, BenchData.COLS},
                                DType.FLOAT64)
                        .compressor(Compressor.defaultCompressor())
                        .build());
        for (long c = 0; c < tasks; c++) {
            x.writeChunk(
                    Chunk.wrap(DType.FLOAT64, new int[] {BenchData.ROWS, BenchData.COLS}, BenchData.field(c)),
                    new long[] {c, 0});
        }
    }

    /** Seconds to compute {@code 2 x + ones} into a new Zarr array with {@code executor}; deletes the output. */
    private static double run(Executor executor, String input, Path dir, String name) {
        Path out = dir.resolve("out-" + name + ".zarr");
        Spec spec = Spec.builder()
                .workDir(dir.resolve("work").toString())
                .executor(executor)
                .build();
        CubedArray x = Cubed.fromZarr(input, spec);
        CubedArray z = Blockwise.mapBlocks(new TwiceAPlusB(), DType.FLOAT64, x, Creation.onesLike(x));
        long t0 = System.nanoTime();
        z.toZarr(out.toString());
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "%-14s %-28s %.2f s%n", name, executor.name(), seconds);
        delete(out);
        return seconds;
    }

    private static void delete(Path p) {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static String fmt(List<Double> xs) {
        StringBuilder sb = new StringBuilder();
        for (double x : xs) {
            sb.append(sb.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", x));
        }
        return sb.toString();
    }
}
