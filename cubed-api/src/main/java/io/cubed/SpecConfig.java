package io.cubed;

import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.MemorySize;
import io.cubed.plan.Spec;
import io.cubed.runtime.Executor;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.RetryingStore;
import io.cubed.storage.StoreOptions;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * A {@link Spec}'s settings gathered from every place a user may put them, with one precedence, highest first:
 *
 * <ol>
 *   <li>explicit command-line options ({@code --allowed-mem 1GB}, {@code --conf key=value} for store options);
 *   <li>environment variables {@code CUBED_*} ({@code CUBED_ALLOWED_MEM=1GB});
 *   <li>the Spark conf's {@code spark.cubed.*} entries when running on Spark ({@code spark.cubed.allowedMem=1GB});
 *   <li>a properties file ({@code allowedMem=1GB}): the path given by {@code --config}, else {@code CUBED_CONFIG},
 *       else {@code spark.cubed.config}, else {@code cubed.properties} at the root of the classpath, if present;
 *   <li>the caller's defaults (a command may have its own), then Cubed's.
 * </ol>
 *
 * The more specific to one run a source is, the higher it ranks: an option is typed for this run, an environment
 * variable is set for a shell or a cluster node, the Spark conf for a cluster or a job, a properties file for a
 * project. Keys: {@value #WORK_DIR}, {@value #ALLOWED_MEM}, {@value #RESERVED_MEM}, {@value #EXECUTOR} ({@code
 * local}/{@code spark}), {@value #THREADS}, {@value #MAX_ATTEMPTS}, {@value #OPTIMIZE}, {@value #KEEP_INTERMEDIATES},
 * {@value #INTERMEDIATE_CODEC}, {@value #STORE_RETRY_ATTEMPTS}, {@value #STORE_RETRY_BASE_DELAY_MS}, {@value
 * #STORE_CONCURRENCY}, and {@code store.<option>} for any store option
 * (e.g. {@code store.fs.s3a.endpoint}). Each key's environment variable is {@code CUBED_} and the key in upper snake
 * case ({@code store.retry.baseDelayMs} → {@code CUBED_STORE_RETRY_BASE_DELAY_MS}); arbitrary store options have no
 * environment variable.
 *
 * <p>Every value is checked when loaded; a bad one fails with an {@link InvalidArgumentException} naming the key, the
 * source (file, variable, Spark conf entry or option) and the value. Unknown keys fail the same way, so that a typo
 * does not silently fall back to a default. No Spark dependency: the Spark conf comes in as a map. Immutable.
 *
 * <p>This class is the entry callers use: the keys and the types of a setting, the resolved values, and the spec built
 * from them. The catalog of settings is in {@code SettingKeys}, the reading of the sources in precedence order in
 * {@code SettingSources}, and the check of a value against its kind in {@code SettingCheck}.
 */
public final class SpecConfig {
    public static final String WORK_DIR = "workDir";
    public static final String ALLOWED_MEM = "allowedMem";
    public static final String RESERVED_MEM = "reservedMem";
    public static final String EXECUTOR = "executor";
    public static final String THREADS = "threads";
    public static final String MAX_ATTEMPTS = "maxAttempts";
    public static final String OPTIMIZE = "optimize";
    public static final String KEEP_INTERMEDIATES = "keepIntermediates";
    public static final String INTERMEDIATE_CODEC = "intermediateCodec";
    public static final String STORE_RETRY_ATTEMPTS = "store.retry.attempts";
    public static final String STORE_RETRY_BASE_DELAY_MS = "store.retry.baseDelayMs";
    public static final String STORE_CONCURRENCY = "store.concurrency";

    /** Prefix of store options in a properties file or the Spark conf: {@code store.fs.s3a.endpoint=...}. */
    public static final String STORE_PREFIX = "store.";
    /** Prefix of Cubed's entries in the Spark conf. */
    public static final String SPARK_PREFIX = "spark.cubed.";
    /** The environment variable naming a properties file. */
    public static final String ENV_CONFIG = "CUBED_CONFIG";
    /** The Spark conf entry naming a properties file. */
    public static final String SPARK_CONFIG = "spark.cubed.config";

    /** Cubed tasks per Spark task, read by the Spark executor: {@code auto} or a number. */
    public static final String SPARK_TASKS_PER_PARTITION = "spark.cubed.tasksPerPartition";

    /** Tasks × memory up to which the Spark executor runs a stage on the driver: a memory size, 0 for never. */
    public static final String SPARK_DRIVER_STAGE_BYTES = "spark.cubed.driverStageBytes";

    /**
     * Spark conf entries under {@code spark.cubed.} that the Spark executor reads itself ({@code
     * spark.cubed.tasksPerPartition}, {@code spark.cubed.driverStageBytes}), not settings of a spec: skipped here rather than refused as unknown.
     */
    public static final java.util.Set<String> SPARK_EXECUTOR_CONF =
            java.util.Set.of(SPARK_TASKS_PER_PARTITION, SPARK_DRIVER_STAGE_BYTES);
    /** The properties file looked up at the root of the classpath when no file is named. */
    public static final String RESOURCE = "cubed.properties";
    /**
     * {@code CUBED_*} variables that are not settings: read by {@code bin/cubed}, by {@code cubed bench} and the Dask
     * scripts it runs ({@code CUBED_BENCH_PYTHON}, {@code CUBED_BENCH_THREADS}), or naming the file. A variable exported
     * for one command stays in the shell for the next, so none of them is refused as an unknown setting.
     */
    public static final Set<String> OTHER_ENV = Set.of(
            ENV_CONFIG,
            "CUBED_JAVA_OPTS",
            "CUBED_HOME",
            "CUBED_CLASSPATH",
            "CUBED_NO_BUILD",
            "CUBED_CDS",
            "CUBED_HADOOP",
            "CUBED_BENCH_PYTHON",
            "CUBED_BENCH_THREADS");

    /** Where a value came from, lowest precedence first. */
    public enum Source {
        DEFAULT("default"),
        PROPERTIES_FILE("properties file"),
        SPARK_CONF("Spark conf"),
        ENVIRONMENT("environment"),
        COMMAND_LINE("command line");

        private final String label;

        Source(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** The kind of a setting's value, checked on load. */
    public enum Kind {
        STRING,
        MEMORY,
        EXECUTOR,
        POSITIVE_INT,
        NON_NEGATIVE_INT,
        BOOLEAN,
        CODEC,
        /** {@code auto} or a positive number. */
        CONCURRENCY
    }

    /** A setting: its key, kind, Cubed's default and what it does. */
    public record Key(String name, String defaultValue, String description, Kind kind) {
        /** {@code CUBED_ALLOWED_MEM} for {@code allowedMem}. */
        public String envName() {
            return "CUBED_" + SettingKeys.snake(name);
        }

        /** {@code spark.cubed.allowedMem}. */
        public String sparkName() {
            return SPARK_PREFIX + name;
        }

        /** {@code --allowed-mem}; the store retry settings are {@code --conf} store options under their store names. */
        public String optionName() {
            if (name.equals(STORE_RETRY_ATTEMPTS)) {
                return "--conf " + RetryingStore.ATTEMPTS;
            }
            if (name.equals(STORE_RETRY_BASE_DELAY_MS)) {
                return "--conf " + RetryingStore.BASE_DELAY_MS;
            }
            if (name.equals(STORE_CONCURRENCY)) {
                return "--conf " + io.cubed.storage.Store.CONCURRENCY_OPTION;
            }
            return "--" + name.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
        }
    }

    /** Every setting in documentation order. */
    public static final List<Key> KEYS = SettingKeys.ALL;

    /** A resolved value, its source and a description of exactly where it was set. */
    public record Value(String value, Source source, String origin) {}

    private final Map<String, Value> values;
    private final Map<String, Value> storeOptions;
    private final String configFile;

    SpecConfig(Map<String, Value> values, Map<String, Value> storeOptions, String configFile) {
        this.values = Collections.unmodifiableMap(values);
        this.storeOptions = Collections.unmodifiableMap(storeOptions);
        this.configFile = configFile;
    }

    /** A loader with no sources: add the ones that apply, then {@link Loader#load}. */
    public static Loader loader() {
        return new Loader();
    }

    /**
     * The usual sources of a program not running on Spark: this process's environment and {@code cubed.properties}
     * on the classpath (or the file {@code CUBED_CONFIG} names).
     */
    public static SpecConfig fromEnvironment() {
        return loader().environment(System.getenv()).load();
    }

    /** The key's setting, e.g. {@code get("allowedMem")}: its value, source and origin. */
    public Value get(String key) {
        Value v = values.get(key);
        if (v == null) {
            throw new InvalidArgumentException("unknown setting '" + key + "'; known: " + SettingKeys.BY_NAME.keySet());
        }
        return v;
    }

    /** The value of {@code key} as text. */
    public String value(String key) {
        return get(key).value();
    }

    public String workDir() {
        return value(WORK_DIR);
    }

    public MemorySize allowedMem() {
        return MemorySize.parse(value(ALLOWED_MEM));
    }

    public MemorySize reservedMem() {
        return MemorySize.parse(value(RESERVED_MEM));
    }

    /** {@code local} or {@code spark}. */
    public String executor() {
        return value(EXECUTOR);
    }

    public int threads() {
        return Integer.parseInt(value(THREADS));
    }

    public int maxAttempts() {
        return Integer.parseInt(value(MAX_ATTEMPTS));
    }

    public boolean optimize() {
        return Boolean.parseBoolean(value(OPTIMIZE));
    }

    public boolean keepIntermediates() {
        return Boolean.parseBoolean(value(KEEP_INTERMEDIATES));
    }

    public String intermediateCodec() {
        return value(INTERMEDIATE_CODEC);
    }

    /** The properties file read (a path or a classpath URL), or null when none was. */
    public String configFile() {
        return configFile;
    }

    /**
     * The store options: every {@code store.*} setting without its prefix (the retry settings under their {@link
     * RetryingStore} names), each from its highest source.
     */
    public StoreOptions storeOptions() {
        Map<String, String> m = new TreeMap<>();
        for (Map.Entry<String, Value> e : storeOptions.entrySet()) {
            m.put(e.getKey(), e.getValue().value());
        }
        Value attempts = values.get(STORE_RETRY_ATTEMPTS);
        Value delay = values.get(STORE_RETRY_BASE_DELAY_MS);
        Value concurrency = values.get(STORE_CONCURRENCY);
        if (concurrency.source() != Source.DEFAULT) {
            m.put(io.cubed.storage.Store.CONCURRENCY_OPTION, concurrency.value());
        }
        if (attempts.source() != Source.DEFAULT) {
            m.put(RetryingStore.ATTEMPTS, attempts.value());
        }
        if (delay.source() != Source.DEFAULT) {
            m.put(RetryingStore.BASE_DELAY_MS, delay.value());
        }
        return StoreOptions.of(m);
    }

    /** The store options with their origins, by option name. */
    public Map<String, Value> storeOptionValues() {
        return storeOptions;
    }

    /**
     * A spec builder with every setting applied and the local executor; fails when the executor setting is {@code
     * spark} (a Spark program passes its executor to {@link #specBuilder(Executor, StoreOptions)}).
     */
    public Spec.Builder specBuilder() {
        if (!executor().equals("local")) {
            Value v = get(EXECUTOR);
            throw new InvalidArgumentException("executor '" + v.value() + "' (from " + v.origin()
                    + ") needs Spark: run with Spark on the classpath (spark-submit, or cubed ... --executor spark"
                    + " with SPARK_HOME set)");
        }
        return specBuilder(new LocalExecutor(threads(), maxAttempts()), StoreOptions.empty());
    }

    /** A spec builder with every setting applied, {@code executor}, and {@code base} store options under ours. */
    public Spec.Builder specBuilder(Executor executor, StoreOptions base) {
        StoreOptions options = base;
        for (Map.Entry<String, String> e : storeOptions().asMap().entrySet()) {
            options = options.with(e.getKey(), e.getValue());
        }
        return Spec.builder()
                .workDir(workDir())
                .allowedMem(allowedMem())
                .reservedMem(reservedMem())
                .executor(executor)
                .storeOptions(options)
                .optimize(optimize())
                .keepIntermediates(keepIntermediates())
                .intermediateCodec(intermediateCodec());
    }

    /** The spec with the local executor: {@link #specBuilder()} built. */
    public Spec toSpec() {
        return build(specBuilder());
    }

    /**
     * {@code builder} built; a work directory that cannot be created or written is refused naming where the setting
     * came from and the ways to set another.
     */
    public Spec build(Spec.Builder builder) {
        try {
            return builder.build();
        } catch (InvalidArgumentException e) {
            Value w = get(WORK_DIR);
            if (e.getMessage() != null && e.getMessage().startsWith("workDir '")) {
                throw new InvalidArgumentException(
                        e.getMessage() + " (workDir from " + w.origin() + "); choose a"
                                + " writable directory with --work-dir DIR, the environment variable CUBED_WORK_DIR, the Spark"
                                + " setting spark.cubed.workDir or workDir in cubed.properties",
                        e);
            }
            throw e;
        }
    }

    /** One line per setting, {@code key = value (origin)}, then the store options. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        int width = 0;
        for (String k : values.keySet()) {
            width = Math.max(width, k.length());
        }
        for (String k : storeOptions.keySet()) {
            width = Math.max(width, STORE_PREFIX.length() + k.length());
        }
        for (Map.Entry<String, Value> e : values.entrySet()) {
            line(sb, width, e.getKey(), e.getValue());
        }
        for (Map.Entry<String, Value> e : storeOptions.entrySet()) {
            Value v = e.getValue();
            if (StoreOptions.isSensitive(e.getKey())) {
                v = new Value(StoreOptions.REDACTED, v.source(), v.origin());
            }
            line(sb, width, STORE_PREFIX + e.getKey(), v);
        }
        sb.append("config file: ")
                .append(configFile == null ? "none" : configFile)
                .append('\n');
        return sb.toString();
    }

    private static void line(StringBuilder sb, int width, String key, Value v) {
        sb.append(String.format(Locale.ROOT, "%-" + width + "s = %s  (%s)%n", key, v.value(), v.origin()));
    }

    @Override
    public String toString() {
        return "SpecConfig" + values;
    }

    /** Collects the sources; {@link #load} resolves and checks them. Not thread-safe. */
    public static final class Loader {
        private final Map<String, String> defaults = new LinkedHashMap<>();
        private final Map<String, String> options = new LinkedHashMap<>();
        private final Map<String, String> storeOptionArgs = new LinkedHashMap<>();
        private Map<String, String> env = Map.of();
        private Map<String, String> sparkConf = Map.of();
        private Path configPath;
        private ClassLoader classLoader = SpecConfig.class.getClassLoader();

        private Loader() {}

        /** The environment, e.g. {@code System.getenv()}: the {@code CUBED_*} variables are read. */
        public Loader environment(Map<String, String> env) {
            this.env = Objects.requireNonNull(env, "env");
            return this;
        }

        /** The Spark conf as a map (e.g. {@code SparkConf.getAll}): the {@code spark.cubed.*} entries are read. */
        public Loader sparkConf(Map<String, String> conf) {
            this.sparkConf = Objects.requireNonNull(conf, "sparkConf");
            return this;
        }

        /** The properties file given on the command line ({@code --config}); null for none. */
        public Loader configFile(Path path) {
            this.configPath = path;
            return this;
        }

        /** Where {@code cubed.properties} is looked up when no file is named; null to not look. */
        public Loader classLoader(ClassLoader loader) {
            this.classLoader = loader;
            return this;
        }

        /** A default of the calling program, below every source (e.g. a benchmark's smaller allowedMem). */
        public Loader defaultValue(String key, String value) {
            requireKnown(key, "defaults of the program");
            defaults.put(key, Objects.requireNonNull(value, key));
            return this;
        }

        /** An explicit command-line option, {@code key} as in the properties file; null values are ignored. */
        public Loader option(String key, Object value) {
            if (value != null) {
                requireKnown(key, "the command line");
                options.put(key, value.toString());
            }
            return this;
        }

        /** Store options given on the command line ({@code --conf key=value}), names without {@code store.}. */
        public Loader storeOptions(Map<String, String> conf) {
            storeOptionArgs.putAll(conf);
            return this;
        }

        private static void requireKnown(String key, String where) {
            if (!SettingKeys.BY_NAME.containsKey(key)) {
                throw new InvalidArgumentException(
                        "unknown setting '" + key + "' from " + where + "; known: " + SettingKeys.BY_NAME.keySet());
            }
        }

        /** Resolves every setting; fails on an unknown key, a bad value or a missing named file. */
        public SpecConfig load() {
            return new SettingSources(defaults, options, storeOptionArgs, env, sparkConf, configPath, classLoader)
                    .resolve();
        }
    }
}
