package io.cubed.jobs;

import io.cubed.Cubed;
import io.cubed.array.ComputeOptions;
import io.cubed.array.CubedArray;
import io.cubed.array.Manipulation;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Spec;
import io.cubed.runtime.HistoryCallback;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.StoreLocation;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrFormat;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cubed rechunk SRC DST --chunks 100,-1,10}: writes a Zarr array in new chunks through as many copy stages as
 * the memory budget needs, on the executor {@link ExecutionOptions} chooses ({@code --executor local|spark}); the
 * spark-submit job {@code io.cubed.jobs.spark.SparkRechunkJob} is the same command with Spark as its default.
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

    @Option(names = "--dry-run", description = "Print the plan and stop (with --save-plan, save it too).")
    protected boolean dryRun;

    @Option(
            names = "--codec",
            paramLabel = "SPEC",
            description = "Compressor of DST, as for copy (default: the source's).")
    protected String codec;

    @Option(
            names = "--zarr-format",
            paramLabel = "2|3",
            description = "Zarr version of DST (default: the source's; a sharded source's DST is sharded with the same"
                    + " inner chunks, so --chunks must be multiples of them).")
    protected Integer zarrFormat;

    @Option(
            names = "--resume",
            arity = "0..1",
            fallbackValue = "",
            paramLabel = "ID",
            description = "Resumable run: keeps intermediates of a failed run in --work-dir and, run again, skips the "
                    + "chunks already written (of DST too). The id defaults to one derived from SRC, DST, --chunks "
                    + "and the memory options.")
    protected String resume;

    @Option(
            names = "--history",
            paramLabel = "DIR",
            description = "Write tasks.csv, operations.csv and timeline.svg of the computation to DIR.")
    protected Path history;

    @Option(
            names = "--save-plan",
            paramLabel = "FILE",
            description = "Save the plan as JSON (the job, its resolved settings, the resume id and the plan) for"
                    + " `cubed resume FILE` in a new process; implies --resume.")
    protected Path savePlan;

    /** The plan a resumed run must reproduce (set by {@code cubed resume}), or null. */
    PlanFile expected;

    @Mixin
    protected CubedCli.StoreArgs store = new CubedCli.StoreArgs();

    @Mixin
    protected ExecutionOptions execution = new ExecutionOptions();

    @picocli.CommandLine.Spec
    protected picocli.CommandLine.Model.CommandSpec cli;

    /** Runs the rechunk (or prints the plan with {@code --dry-run}); 0 on success. */
    @Override
    public Integer call() {
        StoreLocation.requireApart("rechunk", src, dst);
        try (Execution run = execution.start("rechunk", store)) {
            return rechunk(run);
        } catch (io.cubed.error.MemoryBudgetExceededException e) {
            throw Checks.naming("rechunk " + src + " to " + dst, e);
        }
    }

    private int rechunk(Execution run) {
        PrintWriter out = cli.commandLine().getOut();
        Spec spec = spec(run);
        // DST is looked at while the source is opened, once: its metadata and attributes in one round trip on an
        // object store, and the look at DST in the same.
        boolean newDestination = resume == null && savePlan == null && !dryRun;
        Checks.Look look = newDestination ? Checks.Look.start(dst, spec.storeOptions(), false) : null;
        CubedArray x;
        ChunkStore source;
        try {
            source = Zarr.open(src, spec.storeOptions());
            x = Cubed.fromZarr(source, spec);
            Checks.chunks("rechunk", "--chunks", chunks, x.ndim(), src);
        } catch (RuntimeException e) {
            if (look != null) {
                look.drop();
            }
            throw e;
        }
        if (newDestination) {
            Checks.newDestination(
                    "rechunk",
                    dst,
                    look.place(),
                    "remove it or choose another DST, or pass --resume to continue an interrupted rechunk");
        }
        CubedArray y = Manipulation.rechunk(x, chunks);
        // DST keeps the source's format (version, compressor, fill value, chunk keys) unless told otherwise.
        Compressor requested = codec == null ? null : CopyCommand.parseCodec(codec);
        ZarrFormat format = CopyCommand.targetFormat("rechunk", src, dst, source, codec, requested, zarrFormat);
        CopyCommand.checkShards("rechunk", src, dst, format, y.chunkShape());
        format.check(dst, y.shape(), y.chunkShape(), y.dtype());
        out.println("rechunk " + src + " " + Arrays.toString(x.shape()) + " " + x.dtype() + " from chunks "
                + Arrays.toString(x.chunkShape()) + " to " + Arrays.toString(y.chunkShape()) + " with " + spec);
        String explain = y.explain();
        if (y != x) {
            out.print(explain);
        } else {
            out.println("chunks unchanged: copying the array as it is");
        }
        if (expected != null && !samePlan(PlanFile.lines(explain), expected.plan())) {
            throw new InvalidArgumentException("cannot resume: the plan these arguments give now differs from the"
                    + " saved one (did the input array or the settings change?)\nsaved:\n"
                    + String.join("\n", expected.plan()) + "\nnow:\n" + explain);
        }
        if (savePlan != null && resume == null) {
            resume = "";
        }
        // The source's attributes go with its data (CF units, scale_factor, …), as in a copy: written as DST is
        // created, with its incomplete mark.
        ComputeOptions.Builder options = ComputeOptions.builder()
                .zarrFormat(format)
                .writtenBy("cubed rechunk", "run the same cubed rechunk command with --resume")
                .setUpTargets(created -> io.cubed.storage.zarr.Attributes.copy(source, created));
        if (resume != null) {
            String id = resume.isEmpty() ? resumeId(spec) : resume;
            out.println("resume id " + id);
            options.resume(id);
            if (savePlan != null) {
                // Saved with --dry-run too: a plan prepared on one machine, run from the file on another.
                new PlanFile("rechunk", savedArguments(run, id), id, PlanFile.lines(explain)).write(savePlan);
                out.println("plan saved to " + savePlan + " (run or resume it with: cubed resume " + savePlan + ")");
            }
        }
        if (dryRun) {
            return 0;
        }
        Resume.TaskTally tally = new Resume.TaskTally();
        HistoryCallback recorder = history == null ? null : new HistoryCallback();
        long start = System.nanoTime();
        try {
            if (recorder != null) {
                y.toZarr(dst, options.build(), tally, recorder);
            } else {
                y.toZarr(dst, options.build(), tally);
            }
        } catch (io.cubed.error.CubedException e) {
            throw CopyCommand.leftIncomplete(e, src, dst, spec.storeOptions());
        }
        long nanos = System.nanoTime() - start;
        out.println(tally.summary());
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
     * The resume id derived from what the plan depends on (see {@link Resume}): the arrays, the target chunks and the
     * memory budget as resolved from every source of settings.
     */
    final String resumeId(Spec spec) {
        return Resume.deriveId(
                "rechunk",
                List.of(
                        Resume.canonicalUrl(src),
                        Resume.canonicalUrl(dst),
                        Arrays.toString(chunks),
                        String.valueOf(spec.allowedMem().bytes()),
                        String.valueOf(spec.reservedMem().bytes()),
                        String.valueOf(codec),
                        String.valueOf(zarrFormat)));
    }

    /**
     * The arguments that rebuild this run's plan in another process: the arrays and chunks, every setting as resolved
     * here (so the new process's environment cannot change the budget), and the resume id.
     */
    private List<String> savedArguments(Execution run, String id) {
        Spec spec = run.spec();
        List<String> args = new ArrayList<>(List.of(
                "rechunk",
                absolute(src),
                absolute(dst),
                "--chunks",
                Arrays.stream(chunks).mapToObj(Integer::toString).collect(Collectors.joining(",")),
                "--allowed-mem",
                Long.toString(spec.allowedMem().bytes()),
                "--reserved-mem",
                Long.toString(spec.reservedMem().bytes()),
                "--work-dir",
                absolute(spec.workDir()),
                "--executor",
                run.config().executor(),
                "--threads",
                Integer.toString(run.config().threads()),
                "--resume",
                id));
        if (codec != null) {
            args.add("--codec");
            args.add(codec);
        }
        if (zarrFormat != null) {
            args.add("--zarr-format");
            args.add(zarrFormat.toString());
        }
        // Credentials are not saved: the resuming run takes them again (cubed resume FILE --conf KEY=VALUE, the Hadoop
        // configuration, its credential providers or the environment).
        for (Map.Entry<String, String> e : store.conf.entrySet()) {
            args.add("--conf");
            args.add(e.getKey() + "=" + (StoreOptions.isSensitive(e.getKey()) ? StoreOptions.REDACTED : e.getValue()));
        }
        return args;
    }

    /**
     * A local path or {@code file:} URL as an absolute path (the resuming process may start elsewhere), read and
     * written as {@link io.cubed.storage.fs.Locations} says so that it names the same directory when read back; other
     * URLs as given.
     */
    static String absolute(String url) {
        return io.cubed.storage.fs.Locations.isLocal(url)
                ? io.cubed.storage.fs.Locations.localPath(url)
                        .toAbsolutePath()
                        .normalize()
                        .toString()
                : url;
    }

    /** The same plan, operation and array numbers aside (they count up within one JVM). */
    private static boolean samePlan(List<String> a, List<String> b) {
        return a.stream()
                .map(RechunkCommand::unnumbered)
                .toList()
                .equals(b.stream().map(RechunkCommand::unnumbered).toList());
    }

    private static String unnumbered(String line) {
        return line.replaceAll("\\b(op|array)-\\d+", "$1-#");
    }

    /**
     * The spec this job runs with: {@code run}'s (the executor, budget, work directory and store options the options
     * and {@link io.cubed.SpecConfig} settings chose). A subclass may check it first.
     */
    protected Spec spec(Execution run) {
        return run.spec();
    }
}
