package io.cubed;

import static io.cubed.SpecConfig.ALLOWED_MEM;
import static io.cubed.SpecConfig.EXECUTOR;
import static io.cubed.SpecConfig.INTERMEDIATE_CODEC;
import static io.cubed.SpecConfig.KEEP_INTERMEDIATES;
import static io.cubed.SpecConfig.MAX_ATTEMPTS;
import static io.cubed.SpecConfig.OPTIMIZE;
import static io.cubed.SpecConfig.RESERVED_MEM;
import static io.cubed.SpecConfig.STORE_CONCURRENCY;
import static io.cubed.SpecConfig.STORE_RETRY_ATTEMPTS;
import static io.cubed.SpecConfig.STORE_RETRY_BASE_DELAY_MS;
import static io.cubed.SpecConfig.THREADS;
import static io.cubed.SpecConfig.WORK_DIR;

import io.cubed.SpecConfig.Key;
import io.cubed.SpecConfig.Kind;
import io.cubed.plan.Spec;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The catalog of settings {@link SpecConfig} knows: every {@link Key} in documentation order, looked up by name or by
 * environment variable, and Cubed's own default of each.
 */
final class SettingKeys {
    private SettingKeys() {}

    /** Every setting in documentation order. */
    static final List<Key> ALL = List.of(
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

    /** The settings by name ({@code allowedMem}). */
    static final Map<String, Key> BY_NAME;

    /** The settings by environment variable ({@code CUBED_ALLOWED_MEM}). */
    static final Map<String, Key> BY_ENV;

    static {
        Map<String, Key> byName = new LinkedHashMap<>();
        Map<String, Key> byEnv = new LinkedHashMap<>();
        for (Key k : ALL) {
            byName.put(k.name(), k);
            byEnv.put(k.envName(), k);
        }
        BY_NAME = Collections.unmodifiableMap(byName);
        BY_ENV = Collections.unmodifiableMap(byEnv);
    }

    /** {@code allowedMem} → {@code ALLOWED_MEM}, {@code store.retry.baseDelayMs} → {@code STORE_RETRY_BASE_DELAY_MS}. */
    static String snake(String key) {
        return key.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replace('.', '_').toUpperCase(Locale.ROOT);
    }

    /** Cubed's default of {@code k}: the work directory, the cores and the optimizer switch are read from this JVM. */
    static String cubedDefault(Key k) {
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
}
