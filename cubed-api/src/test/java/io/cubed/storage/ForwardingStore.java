package io.cubed.storage;

import java.util.List;

/**
 * A test store that hands each of {@link Store}'s own requests to another store, for wrappers that watch or change a
 * few of them. Only the methods a store must implement are forwarded: the defaults (transient and asynchronous
 * reads, {@link Store#getAll}, listing children) stay {@link Store}'s, built on these, so a wrapper that counts or
 * refuses {@link #get} sees the reads they make too.
 */
public abstract class ForwardingStore implements Store {
    /** The store the requests go to. */
    protected final Store store;

    protected ForwardingStore(Store store) {
        this.store = store;
    }

    @Override
    public String uri() {
        return store.uri();
    }

    @Override
    public byte[] get(String key) {
        return store.get(key);
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
        return store.getRange(key, offset, length);
    }

    @Override
    public void put(String key, byte[] value) {
        store.put(key, value);
    }

    @Override
    public boolean exists(String key) {
        return store.exists(key);
    }

    @Override
    public void delete(String key) {
        store.delete(key);
    }

    @Override
    public void deletePrefix(String prefix) {
        store.deletePrefix(prefix);
    }

    @Override
    public List<String> list(String prefix) {
        return store.list(prefix);
    }

    /** The forwarded store's store at {@code path}, unwrapped; wrappers that should stay on override it. */
    @Override
    public Store resolve(String path) {
        return store.resolve(path);
    }
}
