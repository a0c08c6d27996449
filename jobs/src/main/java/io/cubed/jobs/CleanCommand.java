package io.cubed.jobs;

import io.cubed.SpecConfig;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.WorkDirCleaner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cubed clean}: deletes the intermediates directories of the work directory that no computation owns any more
 * (their driver was killed, or ended without deleting them), printing each one with its size and why; live
 * computations' directories, resumable ones and kept ones stay ({@link WorkDirCleaner}).
 */
@Command(
        name = "clean",
        description = "Delete intermediates left in the work directory by computations that are gone (a killed"
                + " driver); live, resumable and kept ones stay.")
final class CleanCommand implements Callable<Integer> {
    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description =
                    "Work directory or URI to clean (default: the workDir setting, else" + " <tmpdir>/cubed-<user>).")
    String workDir;

    @Option(
            names = "--older-than",
            paramLabel = "DURATION",
            description = "Only directories whose owner was last alive longer ago than this, e.g. 90s, 30m, 12h, 7d"
                    + " (default: 0, any whose owner is gone).")
    String olderThan = "0";

    @Option(names = "--dry-run", description = "Print what would be deleted and its size; delete nothing.")
    boolean dryRun;

    @Option(
            names = "--include-resumable",
            description = "Also delete intermediates kept for --resume (of computations that are gone).")
    boolean includeResumable;

    @Option(
            names = "--include-kept",
            description = "Also delete intermediates kept by --keep-intermediates (of computations that are gone).")
    boolean includeKept;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Properties file of settings (default: $CUBED_CONFIG, else cubed.properties on the"
                    + " classpath).")
    Path config;

    @CommandLine.Mixin
    CubedCli.StoreArgs store = new CubedCli.StoreArgs();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec cli;

    @Override
    public Integer call() {
        Duration age = parseDuration(olderThan);
        Map<String, String> spark = new TreeMap<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("spark.")) {
                spark.put(name, System.getProperty(name));
            }
        }
        SpecConfig settings = SpecConfig.loader()
                .configFile(config)
                .sparkConf(spark)
                .environment(System.getenv())
                .option(SpecConfig.WORK_DIR, workDir)
                .storeOptions(store.conf)
                .load();
        String dir = settings.workDir();
        requireLocalDirectory(workDir);
        PrintWriter out = cli.commandLine().getOut();
        out.println((dryRun ? "looking at " : "cleaning ") + dir + " (intermediates whose owner is gone"
                + (age.isZero() ? "" : ", last alive over " + olderThan + " ago") + ")");
        List<WorkDirCleaner.Entry> entries = WorkDirCleaner.clean(
                dir,
                settings.storeOptions(),
                WorkDirCleaner.Options.builder()
                        .olderThan(age)
                        .includeResumable(includeResumable)
                        .includeKept(includeKept)
                        .dryRun(dryRun)
                        .build());
        long bytes = 0;
        int removed = 0;
        for (WorkDirCleaner.Entry e : entries) {
            if (e.removed()) {
                removed++;
                bytes += e.bytes();
                out.println((dryRun ? "would remove " : "removed ") + e.url() + " (" + Sizes.format(e.bytes()) + "): "
                        + e.reason());
            } else {
                out.println("kept " + e.url() + ": " + e.reason());
            }
        }
        out.println((dryRun ? "would remove " : "removed ") + removed + (removed == 1 ? " directory" : " directories")
                + ", " + (dryRun ? "freeing " : "freed ") + Sizes.format(bytes) + " (" + bytes + " bytes); kept "
                + (entries.size() - removed));
        return 0;
    }

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(s|m|min|h|d)?");

    /** {@code 90s}, {@code 30m} (or {@code 30min}), {@code 12h}, {@code 7d}; a bare number is seconds. */
    static Duration parseDuration(String text) {
        Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new InvalidArgumentException(
                    "--older-than must be a whole number with a unit s, m, h or d (e.g. 30m, 12h, 7d), got '" + text
                            + "'");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "m", "min" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> Duration.ofSeconds(n);
        };
    }

    /**
     * Refuses a {@code --work-dir} on the local disk that does not exist or is a file: a mistyped path would otherwise
     * clean nothing and say so, as if all were well. (The default work directory may not exist yet: nothing to clean.)
     */
    private static void requireLocalDirectory(String workDir) {
        if (workDir == null || workDir.isBlank() || !io.cubed.storage.fs.Locations.isLocal(workDir)) {
            return;
        }
        // The directory every other entry point opens for this location (Locations: characters taken literally).
        java.nio.file.Path p = io.cubed.storage.fs.Locations.localPath(workDir);
        if (java.nio.file.Files.isRegularFile(p)) {
            throw new InvalidArgumentException("clean: --work-dir " + workDir + " is a file, not a directory");
        }
        if (!java.nio.file.Files.exists(p)) {
            throw new InvalidArgumentException(
                    "clean: --work-dir " + workDir + " does not exist: nothing to clean there (is the path right?)");
        }
    }
}
