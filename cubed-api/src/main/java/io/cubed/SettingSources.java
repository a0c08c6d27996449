package io.cubed;

import static io.cubed.SpecConfig.ALLOWED_MEM;
import static io.cubed.SpecConfig.ENV_CONFIG;
import static io.cubed.SpecConfig.OTHER_ENV;
import static io.cubed.SpecConfig.RESERVED_MEM;
import static io.cubed.SpecConfig.RESOURCE;
import static io.cubed.SpecConfig.SPARK_CONFIG;
import static io.cubed.SpecConfig.SPARK_EXECUTOR_CONF;
import static io.cubed.SpecConfig.SPARK_PREFIX;
import static io.cubed.SpecConfig.STORE_CONCURRENCY;
import static io.cubed.SpecConfig.STORE_PREFIX;
import static io.cubed.SpecConfig.STORE_RETRY_ATTEMPTS;
import static io.cubed.SpecConfig.STORE_RETRY_BASE_DELAY_MS;

import io.cubed.SpecConfig.Key;
import io.cubed.SpecConfig.Source;
import io.cubed.SpecConfig.Value;
import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.MemorySize;
import io.cubed.storage.RetryingStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Resolves a {@link SpecConfig} from its sources in precedence order, lowest first, each overriding the one before:
 * the defaults, the properties file, the Spark conf, the environment, the command line; every value checked as it is
 * read ({@link SettingCheck}), an unknown key refused.
 */
final class SettingSources {
    private final Map<String, String> defaults;
    private final Map<String, String> options;
    private final Map<String, String> storeOptionArgs;
    private final Map<String, String> env;
    private final Map<String, String> sparkConf;
    private final Path configPath;
    private final ClassLoader classLoader;

    /** The sources a {@link SpecConfig.Loader} collected. */
    SettingSources(
            Map<String, String> defaults,
            Map<String, String> options,
            Map<String, String> storeOptionArgs,
            Map<String, String> env,
            Map<String, String> sparkConf,
            Path configPath,
            ClassLoader classLoader) {
        this.defaults = defaults;
        this.options = options;
        this.storeOptionArgs = storeOptionArgs;
        this.env = env;
        this.sparkConf = sparkConf;
        this.configPath = configPath;
        this.classLoader = classLoader;
    }

    /** Resolves every setting; fails on an unknown key, a bad value or a missing named file. */
    SpecConfig resolve() {
        Map<String, Value> values = new LinkedHashMap<>();
        Map<String, Value> store = new TreeMap<>();
        for (Key k : SpecConfig.KEYS) {
            String d = defaults.containsKey(k.name()) ? defaults.get(k.name()) : SettingKeys.cubedDefault(k);
            values.put(k.name(), SettingCheck.check(k, d, Source.DEFAULT, "default"));
        }
        String file = loadFile(values, store);
        loadSpark(values, store);
        loadEnv(values);
        for (Map.Entry<String, String> e : options.entrySet()) {
            Key k = SettingKeys.BY_NAME.get(e.getKey());
            values.put(k.name(), SettingCheck.check(k, e.getValue(), Source.COMMAND_LINE, "option " + k.optionName()));
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
            if (key.startsWith(STORE_PREFIX) && !SettingKeys.BY_NAME.containsKey(key)) {
                putStore(values, store, key.substring(STORE_PREFIX.length()), value, Source.PROPERTIES_FILE, origin);
            } else if (SettingKeys.BY_NAME.containsKey(key)) {
                values.put(
                        key, SettingCheck.check(SettingKeys.BY_NAME.get(key), value, Source.PROPERTIES_FILE, origin));
            } else {
                throw unknown(key, "properties file " + name, value, SettingKeys.BY_NAME.keySet());
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
            if (key.startsWith(STORE_PREFIX) && !SettingKeys.BY_NAME.containsKey(key)) {
                putStore(values, store, key.substring(STORE_PREFIX.length()), value, Source.SPARK_CONF, origin);
            } else if (SettingKeys.BY_NAME.containsKey(key)) {
                values.put(key, SettingCheck.check(SettingKeys.BY_NAME.get(key), value, Source.SPARK_CONF, origin));
            } else {
                List<String> known = new ArrayList<>();
                for (Key k : SpecConfig.KEYS) {
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
            Key k = SettingKeys.BY_ENV.get(name);
            if (k == null) {
                throw unknown(name, "the environment", e.getValue(), SettingKeys.BY_ENV.keySet());
            }
            values.put(
                    k.name(),
                    SettingCheck.check(k, e.getValue().trim(), Source.ENVIRONMENT, "environment variable " + name));
        }
    }

    private static InvalidArgumentException unknown(
            String key, String where, String value, java.util.Collection<String> known) {
        return new InvalidArgumentException("unknown setting '" + key + "' (value '" + value + "') in " + where
                + "; known settings: " + String.join(", ", known));
    }

    /** A store option; the retry and concurrency settings go to their keys, so that their values are checked. */
    static void putStore(
            Map<String, Value> values,
            Map<String, Value> store,
            String option,
            String value,
            Source source,
            String origin) {
        String key = STORE_PREFIX + option;
        if (SettingKeys.BY_NAME.containsKey(key)) {
            values.put(key, SettingCheck.check(SettingKeys.BY_NAME.get(key), value, source, origin));
        } else if (option.equals(RetryingStore.ATTEMPTS)) {
            values.put(
                    STORE_RETRY_ATTEMPTS,
                    SettingCheck.check(SettingKeys.BY_NAME.get(STORE_RETRY_ATTEMPTS), value, source, origin));
        } else if (option.equals(RetryingStore.BASE_DELAY_MS)) {
            values.put(
                    STORE_RETRY_BASE_DELAY_MS,
                    SettingCheck.check(SettingKeys.BY_NAME.get(STORE_RETRY_BASE_DELAY_MS), value, source, origin));
        } else if (option.equals(io.cubed.storage.Store.CONCURRENCY_OPTION)) {
            values.put(
                    STORE_CONCURRENCY,
                    SettingCheck.check(SettingKeys.BY_NAME.get(STORE_CONCURRENCY), value, source, origin));
        } else if (option.isEmpty()) {
            throw new InvalidArgumentException("empty store option name in " + origin);
        } else {
            store.put(option, new Value(value, source, origin));
        }
    }
}
