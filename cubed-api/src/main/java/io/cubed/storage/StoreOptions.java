package io.cubed.storage;

import java.io.Serializable;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Options for opening a store, as string key-value pairs: Hadoop configuration properties such as {@code
 * fs.s3a.endpoint} for Hadoop file systems, and Cubed's own {@code cubed.store.*} keys. Immutable and serializable, so
 * the options reach Spark tasks together with the store URI.
 */
public final class StoreOptions implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final StoreOptions EMPTY = new StoreOptions(new TreeMap<>());

    /** What a sensitive value is replaced with wherever options are written or shown (Spark's own marker). */
    public static final String REDACTED = "*********(redacted)";

    /**
     * Keys whose values are credentials: Spark's default {@code spark.redaction.regex} ({@code
     * (?i)secret|password|token|access[.]?key}) and Hadoop 3.3's default {@code hadoop.security.sensitive-config-keys}.
     */
    private static final java.util.List<java.util.regex.Pattern> SENSITIVE = java.util.stream.Stream.of(
                    "(?i)secret|password|token|access[.]?key",
                    "secret$",
                    "password$",
                    "ssl.keystore.pass$",
                    "fs.s3a.server-side-encryption.key",
                    "fs.s3a.*.server-side-encryption.key",
                    "fs.s3a.encryption.algorithm",
                    "fs.s3a.encryption.key",
                    "fs.s3a.secret.key",
                    "fs.s3a.*.secret.key",
                    "fs.s3a.session.key",
                    "fs.s3a.*.session.key",
                    "fs.s3a.session.token",
                    "fs.s3a.*.session.token",
                    "fs.azure.account.key.*",
                    "fs.azure.oauth2.*",
                    "fs.adl.oauth2.*",
                    "fs.gs.encryption.*",
                    "fs.gs.proxy.*",
                    "fs.gs.auth.*",
                    "credential$",
                    "oauth.*secret",
                    "oauth.*password",
                    "oauth.*token",
                    "hadoop.security.sensitive-config-keys")
            .map(java.util.regex.Pattern::compile)
            .toList();

    private final TreeMap<String, String> values;

    private StoreOptions(TreeMap<String, String> values) {
        this.values = values;
    }

    /** No options. */
    public static StoreOptions empty() {
        return EMPTY;
    }

    /** The given options (copied). */
    public static StoreOptions of(Map<String, String> values) {
        return new StoreOptions(new TreeMap<>(values));
    }

    /** These options plus {@code key = value}. */
    public StoreOptions with(String key, String value) {
        TreeMap<String, String> copy = new TreeMap<>(values);
        copy.put(key, value);
        return new StoreOptions(copy);
    }

    /** The value of {@code key}, or {@code null}. */
    public String get(String key) {
        return values.get(key);
    }

    /**
     * True when {@code key}'s value is a credential by Spark's or Hadoop's redaction patterns (e.g. {@code
     * fs.s3a.secret.key}, {@code fs.s3a.access.key}, {@code fs.s3a.session.token}, {@code
     * fs.azure.account.key.ACCOUNT}): such values are never written to plans, histories or logs.
     */
    public static boolean isSensitive(String key) {
        for (java.util.regex.Pattern p : SENSITIVE) {
            if (p.matcher(key).find()) {
                return true;
            }
        }
        return false;
    }

    /** These options with the value of every {@linkplain #isSensitive sensitive} key replaced by {@link #REDACTED}. */
    public StoreOptions redacted() {
        TreeMap<String, String> copy = new TreeMap<>(values);
        copy.replaceAll((k, v) -> isSensitive(k) ? REDACTED : v);
        return new StoreOptions(copy);
    }

    /** All options, sorted by key (unmodifiable). */
    public Map<String, String> asMap() {
        return Collections.unmodifiableMap(values);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoreOptions && values.equals(((StoreOptions) o).values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    /** Lists the keys only: values may hold credentials. */
    @Override
    public String toString() {
        return "StoreOptions" + values.keySet();
    }
}
