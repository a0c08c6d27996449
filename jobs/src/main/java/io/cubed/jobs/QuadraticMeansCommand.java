package io.cubed.jobs;

import io.cubed.Cubed;
import io.cubed.array.ComputeOptions;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.array.ReductionOptions;
import io.cubed.array.Statistical;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.HistoryCallback;
import io.cubed.storage.fs.StoreLocation;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cubed quadratic-means OUT}: the demo workload {@code mean((u − mean(u, 0))² + (v − mean(v, 0))², 0)} of
 * Python Cubed's examples, on two generated uniform random arrays ({@code --shape}, {@code --chunks}, {@code --seed})
 * or on two given 2-d Zarr arrays ({@code --u URL --v URL}); writes the result (one value per column) to {@code OUT},
 * prints a summary, and with {@code --history DIR} writes the computation's history CSVs and timeline SVG.
 */
@Command(
        name = "quadratic-means",
        description = "Compute mean((u - mean(u,0))^2 + (v - mean(v,0))^2, 0) on generated or given arrays.")
final class QuadraticMeansCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "OUT", description = "Output array (path or URI) for the result.")
    String output;

    @Option(
            names = "--u",
            paramLabel = "URL",
            description = "Input array u (2-d); with --v. Default: a generated random array.")
    String u;

    @Option(names = "--v", paramLabel = "URL", description = "Input array v, the same shape as u; with --u.")
    String v;

    @Option(
            names = "--shape",
            split = ",",
            paramLabel = "N",
            description = "Shape of the generated arrays: rows,columns (default: 20000,1000).")
    long[] shape = {20000, 1000};

    @Option(
            names = "--chunks",
            split = ",",
            paramLabel = "C",
            description = "Chunk shape of the generated arrays (default: 2000,1000).")
    int[] chunks = {2000, 1000};

    @Option(names = "--seed", description = "Seed of the generated arrays; v uses seed + 1 (default: 42).")
    long seed = 42;

    @Option(
            names = "--history",
            paramLabel = "DIR",
            description = "Write tasks.csv, operations.csv and timeline.svg of the computation to DIR.")
    Path history;

    @Mixin
    CubedCli.StoreArgs store = new CubedCli.StoreArgs();

    @Mixin
    ExecutionOptions execution = new ExecutionOptions();

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec cli;

    /** {@code mean((u − mean(u, axis=0))² + (v − mean(v, axis=0))², axis=0)}. */
    static CubedArray quadraticMeans(CubedArray u, CubedArray v) {
        ReductionOptions keep = ReductionOptions.axis(0).keepdims(true);
        CubedArray du = Elementwise.subtract(u, Statistical.mean(u, keep));
        CubedArray dv = Elementwise.subtract(v, Statistical.mean(v, keep));
        CubedArray sq = Elementwise.add(Elementwise.pow(du, Scalar.ofLong(2)), Elementwise.pow(dv, Scalar.ofLong(2)));
        return Statistical.mean(sq, ReductionOptions.axis(0));
    }

    @Override
    public Integer call() {
        for (String input : new String[] {u, v}) {
            if (input != null) {
                StoreLocation.requireApart("quadratic-means", input, output);
            }
        }
        try (Execution run = execution.start("quadratic-means", store)) {
            return run(run.spec());
        } catch (io.cubed.error.MemoryBudgetExceededException e) {
            throw Checks.naming("quadratic-means to " + output, e);
        }
    }

    private int run(Spec spec) {
        PrintWriter out = cli.commandLine().getOut();
        CubedArray[] inputs = inputs(spec);
        CubedArray x = inputs[0];
        CubedArray y = inputs[1];
        CubedArray result = quadraticMeans(x, y);
        out.println("quadratic means of u " + describe(u, x) + " and v " + describe(v, y) + " with " + spec);
        out.println("plan: " + result.planStatistics(ComputeOptions.defaults())[0]);

        List<Callback> callbacks = new ArrayList<>();
        HistoryCallback recorder = history == null ? null : new HistoryCallback();
        if (recorder != null) {
            callbacks.add(recorder);
        }
        long start = System.nanoTime();
        result.toZarr(
                output,
                ComputeOptions.builder()
                        .writtenBy("cubed quadratic-means", "delete it and run the same command again")
                        .build(),
                callbacks.toArray(new Callback[0]));
        long nanos = System.nanoTime() - start;

        Chunk written = Cubed.fromZarr(output, spec).compute();
        double[] values = written.toDoubleArray();
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        double sum = 0;
        for (double d : values) {
            min = Math.min(min, d);
            max = Math.max(max, d);
            sum += d;
        }
        out.printf(
                Locale.ROOT,
                "wrote %s %s %s in %.2f s (%s of input, %s)%n",
                output,
                Arrays.toString(result.shape()),
                result.dtype(),
                nanos / 1e9,
                Sizes.format(2.0 * x.nbytes()),
                Sizes.rate(2.0 * x.nbytes(), nanos));
        out.printf(
                Locale.ROOT,
                "result: min %.6g, max %.6g, mean %.6g over %d columns%n",
                min,
                max,
                sum / values.length,
                values.length);
        if (recorder != null) {
            List<Path> files = recorder.write(history);
            out.println("history: " + files.get(0) + ", " + files.get(1) + ", timeline " + files.get(2));
        }
        return 0;
    }

    private static String describe(String url, CubedArray a) {
        return (url == null ? "(generated)" : url) + " " + Arrays.toString(a.shape()) + " in chunks "
                + Arrays.toString(a.chunkShape());
    }

    /** u and v: opened from --u and --v, or generated; checked before anything is written. */
    private CubedArray[] inputs(Spec spec) {
        if ((u == null) != (v == null)) {
            throw new InvalidArgumentException("quadratic-means: give both --u and --v or neither (got "
                    + (u == null ? "--v " + v : "--u " + u) + ")");
        }
        if (u != null) {
            CubedArray a = Cubed.fromZarr(u, spec);
            CubedArray b = Cubed.fromZarr(v, spec);
            if (a.ndim() != 2) {
                throw new InvalidArgumentException(
                        "quadratic-means: --u " + u + " has " + a.ndim() + " axes, expected 2");
            }
            if (!Arrays.equals(a.shape(), b.shape())) {
                throw new InvalidArgumentException("quadratic-means: --u " + u + " has shape "
                        + Arrays.toString(a.shape()) + " but --v " + v + " has shape " + Arrays.toString(b.shape()));
            }
            return new CubedArray[] {a, b};
        }
        if (shape.length != 2 || shape[0] < 1 || shape[1] < 1) {
            throw new InvalidArgumentException(
                    "quadratic-means: --shape " + Arrays.toString(shape) + " must be two positive lengths");
        }
        if (chunks.length != 2 || chunks[0] < 1 || chunks[1] < 1) {
            throw new InvalidArgumentException(
                    "quadratic-means: --chunks " + Arrays.toString(chunks) + " must be two positive lengths");
        }
        return new CubedArray[] {Cubed.random(shape, chunks, seed, spec), Cubed.random(shape, chunks, seed + 1, spec)};
    }
}
