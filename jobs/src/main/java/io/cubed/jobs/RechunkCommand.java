package io.cubed.jobs;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Manipulation;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Spec;
import io.cubed.runtime.HistoryCallback;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.StoreOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cubed rechunk SRC DST --chunks 100,-1,10}: writes a Zarr array in new chunks through as many copy stages as
 * the memory budget needs, on the in-process executor. {@link #spec()} chooses the executor: the spark-submit job
 * {@code io.cubed.jobs.spark.SparkRechunkJob} runs the same command with the Spark executor.
 */
@Command(
        name = "rechunk",
        description = "Rechunk a Zarr array within a memory budget per task, through intermediate arrays if needed.")
public class RechunkCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SRC", description = "Source array (path or URI).")
    protected String src;

    @Parameters(index = "1", paramLabel = "DST", description = "Destination array (path or URI); must not exist.")
    protected String dst;

    @Option(
            names = "--chunks",
            required = true,
            split = ",",
            paramLabel = "C",
            description = "Target chunk length per axis, comma-separated; -1 for a whole axis.")
    protected int[] chunks;

    @Option(names = "--allowed-mem", paramLabel = "SIZE", description = "Memory per task (default: ${DEFAULT-VALUE}).")
    protected String allowedMem = "2GB";

    @Option(
            names = "--reserved-mem",
            paramLabel = "SIZE",
            description = "Part of --allowed-mem taken by the runtime (default: ${DEFAULT-VALUE}).")
    protected String reservedMem = "100MB";

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Directory for intermediate arrays (default: <tmpdir>/cubed).")
    protected String workDir =
            Path.of(System.getProperty("java.io.tmpdir"), "cubed").toString();

    @Option(
            names = "--threads",
            description = "Tasks run at the same time on the in-process executor (default: cores).")
    protected int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--dry-run", description = "Print the plan and stop.")
    protected boolean dryRun;

    @Option(
            names = "--history",
            paramLabel = "DIR",
            description = "Write tasks.csv, operations.csv and timeline.svg of the computation to DIR.")
    protected Path history;

    @Mixin
    protected CubedCli.StoreArgs store = new CubedCli.StoreArgs();

    @picocli.CommandLine.Spec
    protected picocli.CommandLine.Model.CommandSpec cli;

    /** Runs the rechunk (or prints the plan with {@code --dry-run}); 0 on success. */
    @Override
    public Integer call() {
        PrintWriter out = cli.commandLine().getOut();
        Spec spec = spec();
        CubedArray x = Cubed.fromZarr(src, spec);
        if (chunks.length != x.ndim()) {
            throw new InvalidArgumentException("--chunks " + Arrays.toString(chunks) + " has " + chunks.length
                    + " entries but " + src + " has " + x.ndim() + " axes");
        }
        CubedArray y = Manipulation.rechunk(x, chunks);
        out.println("rechunk " + src + " " + Arrays.toString(x.shape()) + " " + x.dtype() + " from chunks "
                + Arrays.toString(x.chunkShape()) + " to " + Arrays.toString(y.chunkShape()) + " with " + spec);
        if (y != x) {
            out.print(y.explain());
        } else {
            out.println("chunks unchanged: copying the array as it is");
        }
        if (dryRun) {
            return 0;
        }
        HistoryCallback recorder = history == null ? null : new HistoryCallback();
        long start = System.nanoTime();
        if (recorder != null) {
            y.toZarr(dst, recorder);
        } else {
            y.toZarr(dst);
        }
        long nanos = System.nanoTime() - start;
        double bytes = (double) x.nbytes();
        out.println("wrote " + dst + " in " + String.format(Locale.ROOT, "%.2f s", nanos / 1e9) + " ("
                + Sizes.format(bytes) + " uncompressed, " + Sizes.rate(bytes, nanos) + ")");
        if (recorder != null) {
            List<Path> files = recorder.write(history);
            out.println("history: " + files.get(0) + ", " + files.get(1) + ", timeline " + files.get(2));
        }
        return 0;
    }

    /**
     * The spec this job runs with: the extension point for other executors. Here the in-process executor with
     * {@code --threads}; a Spark job overrides this to set its executor, and everything else stays.
     */
    protected Spec spec() {
        return configure(Spec.builder(), StoreOptions.empty())
                .executor(new LocalExecutor(Math.max(1, threads), 3))
                .build();
    }

    /**
     * Sets this command's work directory, memory budget and store options on {@code builder}: {@code base} (e.g. the
     * options a Spark session provides) with every {@code --conf} on top.
     */
    protected final Spec.Builder configure(Spec.Builder builder, StoreOptions base) {
        StoreOptions options = base;
        for (Map.Entry<String, String> e : store.conf.entrySet()) {
            options = options.with(e.getKey(), e.getValue());
        }
        return builder.workDir(workDir)
                .allowedMem(allowedMem)
                .reservedMem(reservedMem)
                .storeOptions(options);
    }
}
