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
