package io.cubed.storage.fs;

import io.cubed.error.StorageException;
import io.cubed.storage.Store;
import io.cubed.storage.StoreKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A {@link Store} held in this JVM's memory, for tests and small intermediate data. Stores opened with a URI {@code
 * memory://NAME} are shared by name within the JVM (see {@link #named}); values are copied in and out.
 */
public final class InMemoryStore implements Store {
    private static final ConcurrentHashMap<String, ConcurrentSkipListMap<String, byte[]>> NAMED =
            new ConcurrentHashMap<>();

    private final String name;
    private final String base;
    private final ConcurrentSkipListMap<String, byte[]> map;

    private InMemoryStore(String name, String base, ConcurrentSkipListMap<String, byte[]> map) {
        this.name = name;
        this.base = base;
        this.map = map;
    }

    /** A fresh store visible only through the returned instance. */
    public static InMemoryStore create() {
        return new InMemoryStore(
                "anonymous-" + System.identityHashCode(new Object()), "", new ConcurrentSkipListMap<>());
    }

    /** The JVM-wide store called {@code name}, created empty on first use; {@code memory://name} opens it too. */
    public static InMemoryStore named(String name) {
        return new InMemoryStore(name, "", NAMED.computeIfAbsent(name, n -> new ConcurrentSkipListMap<>()));
    }

    /** Forgets the JVM-wide store called {@code name}. */
    public static void dropNamed(String name) {
        NAMED.remove(name);
    }

    @Override
    public String uri() {
        return "memory://" + name + (base.isEmpty() ? "" : "/" + base);
    }

    private String full(String key) {
        return StoreKeys.join(base, StoreKeys.check(key));
    }

    @Override
    public byte[] get(String key) {
        byte[] v = map.get(full(key));
        return v == null ? null : v.clone();
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
        byte[] v = map.get(full(key));
        if (v == null) {
            return null;
        }
        if (offset < 0 || length < 0 || offset + length > v.length) {
            throw new StorageException("cannot read bytes [" + offset + ", " + (offset + length) + ") of '" + key
                    + "' in " + uri() + ": it has " + v.length + " bytes");
        }
        return Arrays.copyOfRange(v, (int) offset, (int) offset + length);
    }

    @Override
    public void put(String key, byte[] value) {
        if (key.isEmpty()) {
            throw new StorageException("cannot write to the root of " + uri() + ": a key is needed");
        }
        map.put(full(key), value.clone());
    }

    @Override
    public boolean exists(String key) {
        return map.containsKey(full(key));
    }

    @Override
    public void delete(String key) {
        map.remove(full(key));
    }

    @Override
    public void deletePrefix(String prefix) {
        String p = full(prefix);
        if (p.isEmpty()) {
            map.clear();
            return;
        }
        map.remove(p);
        map.subMap(p + "/", p + "0").clear();
    }

    @Override
    public List<String> list(String prefix) {
        String p = full(prefix);
        List<String> keys = new ArrayList<>();
        ConcurrentNavigableMap<String, byte[]> below = p.isEmpty() ? map : map.subMap(p + "/", p + "0");
        if (!p.isEmpty() && map.containsKey(p)) {
            keys.add(relative(p));
        }
        for (String k : below.keySet()) {
            if (base.isEmpty() || k.startsWith(base + "/")) {
                keys.add(relative(k));
            }
        }
        keys.sort(null);
        return keys;
    }

    private String relative(String fullKey) {
        return base.isEmpty() ? fullKey : fullKey.substring(base.length() + 1);
    }

    @Override
    public Store resolve(String path) {
        return path.isEmpty() ? this : new InMemoryStore(name, full(path), map);
    }

    @Override
    public String toString() {
        return "InMemoryStore{" + uri() + "}";
    }
}
