package io.cubed.jobs;

import io.cubed.SpecConfig;
import io.cubed.error.InvalidArgumentException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Option;

/**
 * The options every computing subcommand shares ({@code @Mixin ExecutionOptions}): where the work runs and with which
 * budget. Each option overrides the same setting of {@link SpecConfig} (properties file, {@code spark.cubed.*} Spark
 * conf, {@code CUBED_*} environment), so an option left out falls back to those, then to Cubed's default.
 */
public final class ExecutionOptions {
    @Option(
            names = "--executor",
            paramLabel = "local|spark",
            description =
                    "local: threads in this JVM; spark: the active Spark session (spark-submit), or local[threads]"
                            + " when run with plain java and Spark on the classpath (default: local).")
    String executor;

    @Option(
            names = "--threads",
            paramLabel = "N",
            description = "Tasks at a time on the local executor, N of local[N] when Cubed starts Spark (default:"
                    + " cores).")
    Integer threads;

    @Option(names = "--allowed-mem", paramLabel = "SIZE", description = "Memory per task (default: 2GB).")
    String allowedMem;

    @Option(
            names = "--reserved-mem",
            paramLabel = "SIZE",
            description = "Part of --allowed-mem taken by the runtime (default: 100MB).")
    String reservedMem;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Directory or URI for intermediate arrays (default: <tmpdir>/cubed-<user>, one per user).")
    String workDir;

    @Option(
            names = "--max-attempts",
            paramLabel = "N",
            description = "Attempts per task on the local executor (default: 3; Spark: spark.task.maxFailures).")
    Integer maxAttempts;

    @Option(names = "--optimize", paramLabel = "true|false", description = "Fuse blockwise operations (default: true).")
    String optimize;

    @Option(
            names = "--keep-intermediates",
            description = "Keep intermediate arrays after the computation (default: false).")
    Boolean keepIntermediates;

    @Option(
            names = "--intermediate-codec",
            paramLabel = "CODEC",
            description = "Compressor of intermediate arrays: auto (none on a local work directory, blosc:lz4:5:shuffle"
                    + " elsewhere), none, or a codec such as lz4, zstd:3, blosc:zstd:3:shuffle (default: auto).")
    String intermediateCodec;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "Properties file of settings (default: $CUBED_CONFIG, else cubed.properties on the"
                    + " classpath).")
    Path config;

    private Map<String, String> env = System.getenv();

    /** Replaces the environment read (tests). */
    ExecutionOptions environment(Map<String, String> environment) {
        this.env = environment;
        return this;
    }

    /** Sets the executor unless the command line named one (a spark-submit job's default). */
    public ExecutionOptions defaultExecutor(String name) {
        if (executor == null) {
            executor = name;
        }
        return this;
    }

    /**
     * The settings of this run: these options and {@code --conf} store options over the environment, over the Spark
     * conf (the {@code spark.*} system properties spark-submit sets, plus {@code sparkConf}), over the properties file.
     */
    public SpecConfig config(Map<String, String> sparkConf, Map<String, String> storeConf) {
        Map<String, String> spark = new TreeMap<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("spark.")) {
                spark.put(name, System.getProperty(name));
            }
        }
        spark.putAll(sparkConf);
        return SpecConfig.loader()
                .configFile(config)
                .sparkConf(spark)
                .environment(env)
                .option(SpecConfig.EXECUTOR, executor)
                .option(SpecConfig.THREADS, threads)
                .option(SpecConfig.ALLOWED_MEM, allowedMem)
                .option(SpecConfig.RESERVED_MEM, reservedMem)
                .option(SpecConfig.WORK_DIR, workDir)
                .option(SpecConfig.MAX_ATTEMPTS, maxAttempts)
                .option(SpecConfig.OPTIMIZE, optimize)
                .option(SpecConfig.KEEP_INTERMEDIATES, keepIntermediates)
                .option(SpecConfig.INTERMEDIATE_CODEC, intermediateCodec)
                .storeOptions(storeConf)
                .load();
    }

    /**
     * Starts the executor the settings choose; {@code command} names the work in messages and the Spark application.
     * Close the result when done (it stops a Spark session it started).
     */
    public Execution start(String command, CubedCli.StoreArgs store) {
        SpecConfig local = config(Map.of(), store.conf);
        if (local.executor().equals("local")) {
            return new Execution.Local(local);
        }
        try {
            return SparkExecution.start(command, this, store.conf, local.threads());
        } catch (NoClassDefFoundError e) {
            SpecConfig.Value v = local.get(SpecConfig.EXECUTOR);
            throw new InvalidArgumentException(command + ": executor 'spark' (from " + v.origin()
                    + ") needs Spark, which is not on the classpath (" + e.getMessage() + "); run the job with"
                    + " spark-submit, or put Spark's jars on the classpath (bin/cubed does for --executor spark), or"
                    + " use --executor local");
        }
    }
}
