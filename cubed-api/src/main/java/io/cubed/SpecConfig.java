package io.cubed;

import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.MemorySize;
import io.cubed.plan.Spec;
import io.cubed.runtime.Executor;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.RetryingStore;
import io.cubed.storage.StoreOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
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
    /** {@code CUBED_*} variables that are not settings (read by {@code bin/cubed} or naming the file). */
    public static final Set<String> OTHER_ENV =
            Set.of(ENV_CONFIG, "CUBED_JAVA_OPTS", "CUBED_HOME", "CUBED_CLASSPATH", "CUBED_NO_BUILD", "CUBED_CDS");

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
            return "CUBED_" + snake(name);
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
    public static final List<Key> KEYS = List.of(
            new Key(
                    WORK_DIR,
                    "<java.io.tmpdir>/cubed-<user.name>",
                    "Directory or URI for intermediate arrays",
                    Kind.STRING),
            new Key(ALLOWED_MEM, Spec.DEFAULT_ALLOWED_MEM.toString(), "Memory one task may use", Kind.MEMORY),
            new Key(
                    RESERVED_MEM,
                    Spec.DEFAULT_RESERVED_MEM.toString(),
                    "Part of allowedMem taken by the runtime itself",
                    Kind.MEMORY),
            new Key(EXECUTOR, "local", "local (threads in this JVM) or spark", Kind.EXECUTOR),
            new Key(
                    THREADS,
                    "<cores>",
                    "Tasks at a time on the local executor; N of local[N] when Cubed starts Spark itself",
                    Kind.POSITIVE_INT),
            new Key(
                    MAX_ATTEMPTS,
                    "3",
                    "Attempts per task on the local executor (Spark: spark.task.maxFailures)",
                    Kind.POSITIVE_INT),
            new Key(OPTIMIZE, "true", "Fuse blockwise operations", Kind.BOOLEAN),
            new Key(KEEP_INTERMEDIATES, "false", "Keep intermediate arrays after a computation", Kind.BOOLEAN),
            new Key(
                    INTERMEDIATE_CODEC,
                    "auto",
                    "Compressor of intermediate arrays: auto (none on a local work directory, Blosc-LZ4 elsewhere),"
                            + " none, or a codec spec such as lz4 or blosc:zstd:3:shuffle",
                    Kind.CODEC),
            new Key(
                    STORE_RETRY_ATTEMPTS,
                    "4",
                    "Attempts per store operation on transient errors (1: no retries)",
                    Kind.POSITIVE_INT),
            new Key(
                    STORE_RETRY_BASE_DELAY_MS,
                    "200",
                    "First delay between store attempts in ms, doubling",
                    Kind.NON_NEGATIVE_INT),
            new Key(
                    STORE_CONCURRENCY,
                    "auto",
                    "Store requests a task keeps in flight: auto (32 on object stores, 1 on local disk and HDFS) or a"
                            + " number",
                    Kind.CONCURRENCY));

    private static final Map<String, Key> BY_NAME;
    private static final Map<String, Key> BY_ENV;

    static {
        Map<String, Key> byName = new LinkedHashMap<>();
        Map<String, Key> byEnv = new LinkedHashMap<>();
        for (Key k : KEYS) {
            byName.put(k.name(), k);
            byEnv.put(k.envName(), k);
        }
        BY_NAME = Collections.unmodifiableMap(byName);
        BY_ENV = Collections.unmodifiableMap(byEnv);
    }

    /** A resolved value, its source and a description of exactly where it was set. */
    public record Value(String value, Source source, String origin) {}

    private final Map<String, Value> values;
    private final Map<String, Value> storeOptions;
    private final String configFile;

    private SpecConfig(Map<String, Value> values, Map<String, Value> storeOptions, String configFile) {
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
            throw new InvalidArgumentException("unknown setting '" + key + "'; known: " + BY_NAME.keySet());
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

    /** {@code allowedMem} → {@code ALLOWED_MEM}, {@code store.retry.baseDelayMs} → {@code STORE_RETRY_BASE_DELAY_MS}. */
    static String snake(String key) {
        return key.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replace('.', '_').toUpperCase(Locale.ROOT);
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
            if (!BY_NAME.containsKey(key)) {
                throw new InvalidArgumentException(
                        "unknown setting '" + key + "' from " + where + "; known: " + BY_NAME.keySet());
            }
        }

        /** Resolves every setting; fails on an unknown key, a bad value or a missing named file. */
        public SpecConfig load() {
            Map<String, Value> values = new LinkedHashMap<>();
            Map<String, Value> store = new TreeMap<>();
            for (Key k : KEYS) {
                String d = defaults.containsKey(k.name()) ? defaults.get(k.name()) : cubedDefault(k);
                values.put(k.name(), check(k, d, Source.DEFAULT, "default"));
            }
            String file = loadFile(values, store);
            loadSpark(values, store);
            loadEnv(values);
            for (Map.Entry<String, String> e : options.entrySet()) {
                Key k = BY_NAME.get(e.getKey());
                values.put(k.name(), check(k, e.getValue(), Source.COMMAND_LINE, "option " + k.optionName()));
            }
            for (Map.Entry<String, String> e : storeOptionArgs.entrySet()) {
                putStore(values, store, e.getKey(), e.getValue(), Source.COMMAND_LINE, "option --conf " + e.getKey());
            }
            Value allowed = values.get(ALLOWED_MEM);
            Value reserved = values.get(RESERVED_MEM);
            if (MemorySize.parse(reserved.value()).compareTo(MemorySize.parse(allowed.value())) >= 0) {
                throw new InvalidArgumentException("reservedMem " + reserved.value() + " (from " + reserved.origin()
                        + ") must be less than allowedMem " + allowed.value() + " (from " + allowed.origin()
                        + "); raise allowedMem (--allowed-mem, CUBED_ALLOWED_MEM) or lower reservedMem"
                        + " (--reserved-mem, CUBED_RESERVED_MEM)");
            }
            return new SpecConfig(values, store, file);
        }

        private static String cubedDefault(Key k) {
            switch (k.name()) {
                case WORK_DIR:
                    return Spec.defaultWorkDir();
                case THREADS:
                    return Integer.toString(Runtime.getRuntime().availableProcessors());
                case OPTIMIZE:
                    // The system property cubed.optimize=false (for tests and debugging) is Spec's own default.
                    return Boolean.toString(!"false".equalsIgnoreCase(System.getProperty("cubed.optimize")));
                default:
                    return k.defaultValue();
            }
        }

        /** Reads the named or classpath properties file into {@code values}; returns its name, or null. */
        private String loadFile(Map<String, Value> values, Map<String, Value> store) {
            String named;
            String namedBy;
            if (configPath != null) {
                named = configPath.toString();
                namedBy = "option --config";
            } else if (env.get(ENV_CONFIG) != null && !env.get(ENV_CONFIG).isBlank()) {
                named = env.get(ENV_CONFIG);
                namedBy = "environment variable " + ENV_CONFIG;
            } else if (sparkConf.get(SPARK_CONFIG) != null) {
                named = sparkConf.get(SPARK_CONFIG);
                namedBy = "Spark conf " + SPARK_CONFIG;
            } else {
                named = null;
                namedBy = null;
            }
            Properties p = new Properties();
            String name;
            if (named != null) {
                Path path = Path.of(named);
                if (!Files.isRegularFile(path)) {
                    throw new InvalidArgumentException(
                            "config file '" + named + "' (from " + namedBy + ") does not exist or is not a file");
                }
                try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
                    p.load(r);
                } catch (IOException | IllegalArgumentException e) {
                    throw new InvalidArgumentException(
                            "config file '" + named + "' (from " + namedBy + ") cannot be read: " + e.getMessage(), e);
                }
                name = path.toString();
            } else {
                URL url = classLoader == null ? null : classLoader.getResource(RESOURCE);
                if (url == null) {
                    return null;
                }
                try (InputStream in = url.openStream();
                        Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                    p.load(r);
                } catch (IOException | IllegalArgumentException e) {
                    throw new InvalidArgumentException(
                            "config file '" + url + "' (cubed.properties on the classpath) cannot be read: "
                                    + e.getMessage(),
                            e);
                }
                name = url.toString();
            }
            for (String key : new TreeMap<>(mapOf(p)).keySet()) {
                String value = p.getProperty(key).trim();
                String origin = "properties file " + name + ", key " + key;
                if (key.startsWith(STORE_PREFIX) && !BY_NAME.containsKey(key)) {
                    putStore(
                            values, store, key.substring(STORE_PREFIX.length()), value, Source.PROPERTIES_FILE, origin);
                } else if (BY_NAME.containsKey(key)) {
                    values.put(key, check(BY_NAME.get(key), value, Source.PROPERTIES_FILE, origin));
                } else {
                    throw unknown(key, "properties file " + name, value, BY_NAME.keySet());
                }
            }
            return name;
        }

        private static Map<String, String> mapOf(Properties p) {
            Map<String, String> m = new TreeMap<>();
            for (String k : p.stringPropertyNames()) {
                m.put(k, p.getProperty(k));
            }
            return m;
        }

        private void loadSpark(Map<String, Value> values, Map<String, Value> store) {
            for (Map.Entry<String, String> e : new TreeMap<>(sparkConf).entrySet()) {
                if (!e.getKey().startsWith(SPARK_PREFIX)
                        || e.getKey().equals(SPARK_CONFIG)
                        || SPARK_EXECUTOR_CONF.contains(e.getKey())) {
                    continue;
                }
                String key = e.getKey().substring(SPARK_PREFIX.length());
                String value = e.getValue() == null ? "" : e.getValue().trim();
                String origin = "Spark conf " + e.getKey();
                if (key.startsWith(STORE_PREFIX) && !BY_NAME.containsKey(key)) {
                    putStore(values, store, key.substring(STORE_PREFIX.length()), value, Source.SPARK_CONF, origin);
                } else if (BY_NAME.containsKey(key)) {
                    values.put(key, check(BY_NAME.get(key), value, Source.SPARK_CONF, origin));
                } else {
                    List<String> known = new ArrayList<>();
                    for (Key k : KEYS) {
                        known.add(k.sparkName());
                    }
                    known.add(SPARK_PREFIX + STORE_PREFIX + "<option>");
                    throw unknown(e.getKey(), "the Spark conf", value, known);
                }
            }
        }

        private void loadEnv(Map<String, Value> values) {
            for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
                String name = e.getKey();
                if (!name.startsWith("CUBED_") || OTHER_ENV.contains(name)) {
                    continue;
                }
                Key k = BY_ENV.get(name);
                if (k == null) {
                    throw unknown(name, "the environment", e.getValue(), BY_ENV.keySet());
                }
                values.put(k.name(), check(k, e.getValue().trim(), Source.ENVIRONMENT, "environment variable " + name));
            }
        }

        private static InvalidArgumentException unknown(
                String key, String where, String value, java.util.Collection<String> known) {
            return new InvalidArgumentException("unknown setting '" + key + "' (value '" + value + "') in " + where
                    + "; known settings: " + String.join(", ", known));
        }

        /** A store option; the retry and concurrency settings go to their keys, so that their values are checked. */
        private static void putStore(
                Map<String, Value> values,
                Map<String, Value> store,
                String option,
                String value,
                Source source,
                String origin) {
            String key = STORE_PREFIX + option;
            if (BY_NAME.containsKey(key)) {
                values.put(key, check(BY_NAME.get(key), value, source, origin));
            } else if (option.equals(RetryingStore.ATTEMPTS)) {
                values.put(STORE_RETRY_ATTEMPTS, check(BY_NAME.get(STORE_RETRY_ATTEMPTS), value, source, origin));
            } else if (option.equals(RetryingStore.BASE_DELAY_MS)) {
                values.put(
                        STORE_RETRY_BASE_DELAY_MS,
                        check(BY_NAME.get(STORE_RETRY_BASE_DELAY_MS), value, source, origin));
            } else if (option.equals(io.cubed.storage.Store.CONCURRENCY_OPTION)) {
                values.put(STORE_CONCURRENCY, check(BY_NAME.get(STORE_CONCURRENCY), value, source, origin));
            } else if (option.isEmpty()) {
                throw new InvalidArgumentException("empty store option name in " + origin);
            } else {
                store.put(option, new Value(value, source, origin));
            }
        }

        /** The value checked against the key's kind; the error names the key, where it was set and the value. */
        private static Value check(Key k, String value, Source source, String origin) {
            String problem = null;
            String normal = value;
            switch (k.kind()) {
                case STRING:
                    if (value.isBlank()) {
                        problem = "must not be empty";
                    }
                    break;
                case MEMORY:
                    try {
                        MemorySize size = MemorySize.parse(value);
                        if (size.bytes() <= 0 && k.name().equals(ALLOWED_MEM)) {
                            problem = "must be positive";
                        }
                    } catch (RuntimeException e) {
                        problem = "is not a memory size such as 2GB or 512MB (" + e.getMessage() + ")";
                    }
                    break;
                case EXECUTOR:
                    normal = value.toLowerCase(Locale.ROOT);
                    if (!normal.equals("local") && !normal.equals("spark")) {
                        problem = "must be local or spark";
                    }
                    break;
                case POSITIVE_INT:
                case NON_NEGATIVE_INT:
                    try {
                        int n = Integer.parseInt(value);
                        int min = k.kind() == Kind.POSITIVE_INT ? 1 : 0;
                        if (n < min) {
                            problem = "must be at least " + min;
                        }
                    } catch (NumberFormatException e) {
                        problem = "is not an integer";
                    }
                    break;
                case BOOLEAN:
                    normal = value.toLowerCase(Locale.ROOT);
                    if (!normal.equals("true") && !normal.equals("false")) {
                        problem = "must be true or false";
                    }
                    break;
                case CONCURRENCY:
                    normal = value.trim().toLowerCase(Locale.ROOT);
                    if (!normal.equals("auto")) {
                        try {
                            if (Integer.parseInt(normal) < 1) {
                                problem = "must be auto or at least 1";
                            }
                        } catch (NumberFormatException e) {
                            problem = "is not auto or a number of requests";
                        }
                    }
                    break;
                case CODEC:
                    normal = value.trim().toLowerCase(Locale.ROOT);
                    if (!normal.equals("auto")) {
                        try {
                            io.cubed.storage.zarr.Compressor.parseSpec(normal);
                        } catch (InvalidArgumentException e) {
                            problem = "is not auto or a codec spec (" + e.getMessage() + ")";
                        }
                    }
                    break;
            }
            if (problem != null) {
                throw new InvalidArgumentException(
                        "setting " + k.name() + " from " + origin + ": '" + value + "' " + problem);
            }
            return new Value(normal, source, origin);
        }
    }
}
