package io.cubed.storage.zarr;

import io.cubed.storage.ForwardingStore;
import io.cubed.storage.Store;
import java.util.concurrent.atomic.AtomicLong;

/** A store wrapper counting the bytes read and the whole-value reads, to show which reads are ranged. */
final class CountingStore extends ForwardingStore {
    final AtomicLong bytesRead = new AtomicLong();
    final AtomicLong wholeGets = new AtomicLong();
    final AtomicLong rangedGets = new AtomicLong();

    private final int concurrency;

    CountingStore(Store store) {
        this(store, 1);
    }

    /** Counting the requests to {@code store}, as a store that keeps {@code concurrency} requests in flight. */
    CountingStore(Store store, int concurrency) {
        super(store);
        this.concurrency = concurrency;
    }

    @Override
    public int concurrency() {
        return concurrency;
    }

    void reset() {
        bytesRead.set(0);
        wholeGets.set(0);
        rangedGets.set(0);
    }

    @Override
    public byte[] get(String key) {
        byte[] b = store.get(key);
        wholeGets.incrementAndGet();
        bytesRead.addAndGet(b == null ? 0 : b.length);
        return b;
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
        byte[] b = store.getRange(key, offset, length);
        rangedGets.incrementAndGet();
        bytesRead.addAndGet(b == null ? 0 : b.length);
        return b;
    }

    @Override
    public long size(String key) {
        return store.size(key);
    }

    @Override
    public boolean isObjectStore() {
        return store.isObjectStore();
    }
}
