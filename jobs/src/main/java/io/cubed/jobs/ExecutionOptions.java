package io.cubed.jobs;

import io.cubed.SpecConfig;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Spec;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import picocli.CommandLine.Option;

/**
 * The options of every command that computes: where the spec's settings come from ({@link SpecConfig}: these options,
 * then {@code CUBED_*} environment variables, then {@code spark.cubed.*} Spark conf, then a properties file, then the
 * defaults) and which executor runs the plan. A picocli mixin: a command adds {@code @Mixin ExecutionOptions exec} and
 * calls {@link #open(String)}.
 */
public final class ExecutionOptions {
    @Option(
            names = "--config",
            paramLabel = "FILE",
            description =
                    "Properties file of settings (default: $CUBED_CONFIG, else cubed.properties on the classpath).")
    Path config;

    @Option(
            names = "--executor",
            paramLabel = "local|spark",
            description = "local: threads in this JVM; spark: the active Spark session, or local[threads] when Spark is"
                    + " on the classpath but not started (default: local, or the executor setting).")
    String executor;

    @Option(
            names = "--threads",
            paramLabel = "N",
            description = "Tasks at a time on the local executor (default: cores).")
    Integer threads;

    @Option(names = "--allowed-mem", paramLabel = "SIZE", description = "Memory per task (default: 2GB).")
    String allowedMem;

    @Option(
            names = "--reserved-mem",
            paramLabel = "SIZE",
            description = "Part of --allowed-mem taken by the runtime itself (default: 100MB).")
    String reservedMem;

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Directory or URI for intermediate arrays (default: <tmpdir>/cubed).")
    String workDir;

    @Option(
            names = "--conf",
            paramLabel = "KEY=VALUE",
            description =
                    "Store option, e.g. a Hadoop setting such as fs.s3a.endpoint=http://host:9000 " + "(repeatable).")
    Map<String, String> conf = new TreeMap<>();

    /** The environment read for {@code CUBED_*} variables; tests replace it. */
    Map<String, String> environment = System.getenv();

    private final Map<String, String> programDefaults = new LinkedHashMap<>();

    /** A default of the program below every source, e.g. {@code executor=spark} for a spark-submit job. */
    public ExecutionOptions defaultValue(String key, String value) {
        programDefaults.put(key, value);
        return this;
    }

    /**
     * The settings from every source. The Spark conf is read from the JVM's {@code spark.*} system properties (what
     * spark-submit sets) and, when Spark is on the classpath with an active session, from the session's conf.
     */
    public SpecConfig load() {
        SpecConfig.Loader loader = SpecConfig.loader()
                .environment(environment)
                .sparkConf(sparkConf())
                .configFile(config)
                .option(SpecConfig.EXECUTOR, executor)
                .option(SpecConfig.THREADS, threads)
                .option(SpecConfig.ALLOWED_MEM, allowedMem)
                .option(SpecConfig.RESERVED_MEM, reservedMem)
                .option(SpecConfig.WORK_DIR, workDir)
                .storeOptions(conf);
        for (Map.Entry<String, String> e : programDefaults.entrySet()) {
            loader.defaultValue(e.getKey(), e.getValue());
        }
        return loader.load();
    }

    /**
     * Opens the execution these options describe: a spec with the chosen executor. Close it when done (it stops a
     * Spark session it started itself).
     */
    public Execution open(String appName) {
        SpecConfig settings = load();
        if (settings.executor().equals("local")) {
            return new Execution(settings, settings.toSpec(), () -> {}, "");
        }
        return sparkExecution(settings, appName);
    }

    /** A spec, where it came from, and how to release what was started for it. */
    public static final class Execution implements AutoCloseable {
        private final SpecConfig settings;
        private final Spec spec;
        private final Runnable onClose;
        private final String memoryCheck;

        public Execution(SpecConfig settings, Spec spec, Runnable onClose, String memoryCheck) {
            this.settings = settings;
            this.spec = spec;
            this.onClose = onClose;
            this.memoryCheck = memoryCheck;
        }

        public Spec spec() {
            return spec;
        }

        public SpecConfig settings() {
            return settings;
        }

        /** What the Spark executor's memory check found ("" on the local executor). */
        public String memoryCheck() {
            return memoryCheck;
        }

        @Override
        public void close() {
            onClose.run();
        }
    }

    private static Map<String, String> sparkConf() {
        Map<String, String> conf = new TreeMap<>();
        Properties p = System.getProperties();
        for (String k : p.stringPropertyNames()) {
            if (k.startsWith(SpecConfig.SPARK_PREFIX)) {
                conf.put(k, p.getProperty(k));
            }
        }
        if (sparkOnClasspath()) {
            conf.putAll(io.cubed.jobs.spark.SparkExecution.activeCubedConf());
        }
        return conf;
    }

    private static boolean sparkOnClasspath() {
        try {
            Class.forName("org.apache.spark.sql.SparkSession", false, ExecutionOptions.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static Execution sparkExecution(SpecConfig settings, String appName) {
        if (!sparkOnClasspath()) {
            SpecConfig.Value v = settings.get(SpecConfig.EXECUTOR);
            throw new InvalidArgumentException("executor spark (from " + v.origin() + "): Spark is not on the"
                    + " classpath; run the job with spark-submit (jobs/target/cubed-jobs-spark.jar), or use --executor"
                    + " local");
        }
        return io.cubed.jobs.spark.SparkExecution.open(settings, appName);
    }
}
