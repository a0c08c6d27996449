package io.cubed.storage.fs;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.storage.Store;
import io.cubed.storage.StoreKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Store} held in this JVM's memory, for tests and small intermediate data. Stores opened with a URI {@code
 * memory://NAME} are shared by name within the JVM (see {@link #named}); values are copied in and out.
 */
public final class InMemoryStore implements Store {
    private static final ConcurrentHashMap<String, ConcurrentSkipListMap<String, byte[]>> NAMED =
            new ConcurrentHashMap<>();
    private static final AtomicLong ANONYMOUS = new AtomicLong();

    private final String name;
    private final String base;
    /** The values of an anonymous store; {@code null} for a named one, whose map is looked up on each use. */
    private final ConcurrentSkipListMap<String, byte[]> anonymous;

    private InMemoryStore(String name, String base, ConcurrentSkipListMap<String, byte[]> anonymous) {
        this.name = name;
        this.base = base;
        this.anonymous = anonymous;
    }

    /** A fresh store visible only through the returned instance (and the stores resolved from it). */
    public static InMemoryStore create() {
        return new InMemoryStore("anonymous-" + ANONYMOUS.incrementAndGet(), "", new ConcurrentSkipListMap<>());
    }

    /** The JVM-wide store called {@code name}, created empty on first use; {@code memory://name} opens it too. */
    public static InMemoryStore named(String name) {
        if (name.isEmpty() || name.contains("/")) {
            throw new InvalidArgumentException("memory store name '" + name + "' must be non-empty, without '/'");
        }
        return new InMemoryStore(name, "", null);
    }

    /** Forgets the JVM-wide store called {@code name}: every instance of it, cached ones too, then sees it empty. */
    public static void dropNamed(String name) {
        NAMED.remove(name);
    }

    private ConcurrentSkipListMap<String, byte[]> map() {
        return anonymous != null ? anonymous : NAMED.computeIfAbsent(name, n -> new ConcurrentSkipListMap<>());
    }

    @Override
    public String uri() {
        return "memory://" + name + (base.isEmpty() ? "" : "/" + base);
    }

    private String full(String key) {
        return StoreKeys.join(base, StoreKeys.check(key, uri()));
    }

    @Override
    public byte[] get(String key) {
        byte[] v = map().get(full(key));
        return v == null ? null : v.clone();
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
        byte[] v = map().get(full(key));
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
    public long size(String key) {
        byte[] v = map().get(full(key));
        return v == null ? -1 : v.length;
    }

    @Override
    public void put(String key, byte[] value) {
        if (key.isEmpty()) {
            throw new StorageException("cannot write to the root of " + uri() + ": a key is needed");
        }
        map().put(full(key), value.clone());
    }

    @Override
    public boolean exists(String key) {
        return map().containsKey(full(key));
    }

    @Override
    public void delete(String key) {
        map().remove(full(key));
    }

    @Override
    public void deletePrefix(String prefix) {
        String p = full(prefix);
        ConcurrentSkipListMap<String, byte[]> map = map();
        if (p.isEmpty()) {
            map.clear();
            return;
        }
        map.remove(p);
        // '0' is the character after '/': this range holds exactly the keys that start with p + "/".
        map.subMap(p + "/", p + "0").clear();
    }

    @Override
    public List<String> list(String prefix) {
        String p = full(prefix);
        ConcurrentSkipListMap<String, byte[]> map = map();
        List<String> keys = new ArrayList<>();
        if (!prefix.isEmpty() && map.containsKey(p)) {
            keys.add(prefix);
        }
        ConcurrentNavigableMap<String, byte[]> below = p.isEmpty() ? map : map.subMap(p + "/", p + "0");
        for (String k : below.keySet()) {
            keys.add(base.isEmpty() ? k : k.substring(base.length() + 1));
        }
        keys.sort(null);
        return keys;
    }

    @Override
    public Store resolve(String path) {
        return path.isEmpty() ? this : new InMemoryStore(name, full(path), anonymous);
    }

    @Override
    public String toString() {
        return "InMemoryStore{" + uri() + "}";
    }
}
