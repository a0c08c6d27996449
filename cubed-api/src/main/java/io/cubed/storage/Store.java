package io.cubed.storage;

import java.util.List;

/**
 * A key-value store of byte arrays under one root URI: a directory on local disk, a prefix in a Hadoop file system or
 * object store, or memory. Keys are relative, {@code '/'}-separated paths such as {@code "temp/.zarray"} or {@code
 * "temp/0.1"}.
 *
 * <p>{@link #put} is atomic: a concurrent reader sees either the old value, no value, or the whole new value, never a
 * part; putting the same bytes twice is harmless, so retried and speculative tasks may rewrite a key. Implementations
 * are safe for use by many threads. Failures are {@link io.cubed.error.StorageException}s naming the URI and key.
 */
public interface Store extends AutoCloseable {
    /** The root URI of this store, e.g. {@code file:///data/x.zarr} or {@code s3a://bucket/x.zarr}. */
    String uri();

    /** The whole value at {@code key}, or {@code null} when there is none. */
    byte[] get(String key);

    /**
     * {@link #get}, for a caller that is done with the bytes before its task ends (a chunk being decoded): the array
     * may be one an earlier task of the same operation read into ({@link io.cubed.chunk.ArrayRecycler}). The default
     * is {@link #get}.
     */
    default byte[] getTransient(String key) {
        return get(key);
    }

    /** A value: the first {@code length} bytes of {@code array}, which may be longer. */
    record Bytes(byte[] array, int length) {
        public Bytes {
            if (length < 0 || length > array.length) {
                throw new IllegalArgumentException(
                        "length " + length + " outside an array of " + array.length + " bytes");
            }
        }
    }

    /**
     * {@link #getTransient} for values whose length varies from key to key, such as compressed chunks: the value comes
     * in the first bytes of an array that may be longer (up to {@code capacity} bytes, when the value is shorter), so
     * that one recycled array serves values of different lengths; {@code null} when there is no value. The default is
     * {@link #get}'s exact array.
     */
    default Bytes getTransient(String key, int capacity) {
        byte[] v = get(key);
        return v == null ? null : new Bytes(v, v.length);
    }

    /**
     * {@code length} bytes of the value at {@code key} starting at byte {@code offset}, or {@code null} when there is no
     * value. Fails when the value is shorter than {@code offset + length}.
     */
    byte[] getRange(String key, long offset, int length);

    /** The first or the last bytes of a value ({@link #getHead}, {@link #getTail}) and the value's whole size. */
    record Part(byte[] bytes, long size) {}

    /**
     * The last {@code length} bytes (at least 1) of the value at {@code key}, or all of it when it is shorter, with its
     * size; {@code null} when there is none: a Zarr v3 shard's index at its end, read without knowing the shard's size.
     * Object stores answer with one request (a suffix range); the default asks {@link #size} and then {@link
     * #getRange}.
     */
    default Part getTail(String key, int length) {
        return getPart(key, length, true);
    }

    /**
     * The first {@code length} bytes (at least 1) of the value at {@code key}, or all of it when it is shorter, with its
     * size; {@code null} when there is none: a Zarr v3 shard's index at its start, read without knowing the shard's
     * size. Object stores answer with one request (a range from 0, whose answer names the size); the default asks
     * {@link #size} and then {@link #getRange}.
     */
    default Part getHead(String key, int length) {
        return getPart(key, length, false);
    }

    /** {@link #getTail} ({@code fromEnd}) or {@link #getHead} by {@link #size} and then {@link #getRange}. */
    private Part getPart(String key, int length, boolean fromEnd) {
        if (length < 1) {
            throw new IllegalArgumentException(
                    (fromEnd ? "a tail of " : "a head of ") + length + " bytes of '" + key + "' in " + uri());
        }
        long size = size(key);
        if (size < 0) {
            return null;
        }
        int n = (int) Math.min(length, size);
        byte[] b = getRange(key, fromEnd ? size - n : 0, n);
        return b == null ? null : new Part(b, size);
    }

    /**
     * Starts {@link #getRange}; the future completes with the bytes, or null when there is no value, or fails with a
     * {@link io.cubed.error.StorageException} naming the store and the key. By default on {@link StoreThreads}.
     */
    default java.util.concurrent.CompletableFuture<byte[]> getRangeAsync(String key, long offset, int length) {
        return StoreThreads.supply(() -> getRange(key, offset, length));
    }

    /** {@code length} bytes from byte {@code offset} of a value. */
    record Range(long offset, int length) {}

    /**
     * The bytes of each of {@code ranges} of the value at {@code key}, in their order, or {@code null} when there is no
     * value: with up to {@link #concurrency()} ranged reads in flight at once ({@link #getRangeAsync}), one after another
     * on this thread at concurrency 1. Fails with the first failed read's {@link io.cubed.error.StorageException} once
     * every read has ended.
     */
    default List<byte[]> getRanges(String key, List<Range> ranges) {
        return StoreReads.getRanges(this, key, ranges);
    }

    /**
     * The size in bytes of the value at {@code key}, or {@code -1} when there is none: lets a reader fetch the end of a
     * value (a Zarr v3 shard index) with {@link #getRange}. The default reads the whole value; stores override it.
     */
    default long size(String key) {
        byte[] v = get(key);
        return v == null ? -1 : v.length;
    }

    /** Stores {@code value} at {@code key} atomically, replacing any previous value. */
    void put(String key, byte[] value);

    /**
     * Stores the first {@code length} bytes of {@code value} under {@code key}, as {@link #put(String, byte[])} does
     * with a copy of them: for values built in a larger buffer (compressed chunks). The default copies; stores
     * override it to write the bytes in place.
     */
    default void put(String key, byte[] value, int length) {
        if (length < 0 || length > value.length) {
            throw new io.cubed.error.InvalidArgumentException(
                    "cannot store " + length + " bytes of a " + value.length + "-byte array at '" + key + "'");
        }
        put(key, length == value.length ? value : java.util.Arrays.copyOf(value, length));
    }

    /** A value produced in pieces, in order, for {@link #put(String, ValueWriter)}. */
    @FunctionalInterface
    interface ValueWriter {
        /** Writes the whole value to {@code out}, from the front. */
        void writeTo(java.nio.channels.WritableByteChannel out) throws java.io.IOException;
    }

    /**
     * Whether {@link #put(String, ValueWriter)} writes each piece as it comes (a local file), so that a value need
     * never be held whole; false when it gathers the pieces into an array first (the default), so that callers may as
     * well build the array themselves.
     */
    default boolean putsInPieces() {
        return false;
    }

    /**
     * Stores the value {@code value} writes at {@code key}, atomically as {@link #put(String, byte[])} does: readers see
     * the previous value or the whole new one, and a writer that throws leaves the previous value (its exception goes
     * to the caller as it is). The default gathers the pieces into an array and puts it.
     */
    default void put(String key, ValueWriter value) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try {
            value.writeTo(java.nio.channels.Channels.newChannel(bytes));
        } catch (java.io.IOException e) {
            throw new io.cubed.error.StorageException(
                    "cannot write '" + key + "' of " + uri() + ": " + IoErrors.describe(e), e);
        }
        put(key, bytes.toByteArray());
    }

    /** A value read in order from its source, for {@link #getInPieces}. */
    @FunctionalInterface
    interface ValueReader {
        /** Reads the value, {@code size} bytes, from {@code in}, as much of it as it needs, from the front. */
        void readFrom(long size, java.nio.channels.ReadableByteChannel in) throws java.io.IOException;
    }

    /**
     * Whether {@link #getInPieces} reads the value from its source as the reader asks for it (a local file), so that it
     * need never be held whole; false when it gets the value into an array first (the default).
     */
    default boolean getsInPieces() {
        return false;
    }

    /**
     * Hands the value at {@code key} to {@code reader} as a channel, with its size; returns false, without calling the
     * reader, when there is none. The reader's exceptions go to the caller as they are; an {@link java.io.IOException}
     * becomes a {@link io.cubed.error.StorageException} naming the store and the key. The default gets the value whole
     * and reads it from the array.
     */
    default boolean getInPieces(String key, ValueReader reader) {
        byte[] v = get(key);
        if (v == null) {
            return false;
        }
        try {
            reader.readFrom(v.length, java.nio.channels.Channels.newChannel(new java.io.ByteArrayInputStream(v)));
        } catch (java.io.IOException e) {
            throw new io.cubed.error.StorageException(
                    "cannot read '" + key + "' of " + uri() + ": " + e.getMessage(), e);
        }
        return true;
    }

    /**
     * Starts reading the value at {@code key}; the future completes with it (in the first bytes of an array that may be
     * longer) or with null when there is none, or fails with a {@link io.cubed.error.StorageException} naming the store
     * and the key. Stores whose clients block run {@link #get} on {@link StoreThreads}; stores with an asynchronous
     * client (S3) hold no thread while the request is in flight.
     */
    default java.util.concurrent.CompletableFuture<Bytes> getAsync(String key) {
        return StoreThreads.supply(() -> {
            byte[] v = get(key);
            return v == null ? null : new Bytes(v, v.length);
        });
    }

    /**
     * Starts storing the first {@code length} bytes of {@code value} at {@code key}, as {@link #put(String, byte[],
     * int)} does; the caller must not change them until the future completes.
     */
    default java.util.concurrent.CompletableFuture<Void> putAsync(String key, byte[] value, int length) {
        return StoreThreads.run(() -> put(key, value, length));
    }

    /**
     * How many requests a task keeps in flight on this store ({@link ChunkIo}): the option {@value
     * #CONCURRENCY_OPTION}, else the store kind's default (1 for local disk and memory, where a request costs no
     * waiting and requests run on the task's thread; more for object stores, where each waits for the network).
     */
    default int concurrency() {
        return 1;
    }

    /** Option: requests a task keeps in flight on a store ({@code auto}: the store kind's default). */
    String CONCURRENCY_OPTION = "cubed.store.concurrency";

    /**
     * The values at {@code keys}, in their order, {@code null} where there is none: with up to {@link #concurrency()}
     * reads in flight at once ({@link #getAsync}), so that on an object store many small values (metadata documents)
     * cost about one round trip instead of one each; on a store of concurrency 1, one after another on this thread.
     * Fails with the first failed read's {@link io.cubed.error.StorageException} once every read has ended.
     */
    default List<byte[]> getAll(List<String> keys) {
        return StoreReads.getAll(this, keys);
    }

    /**
     * Bytes of heap one request in flight holds besides the value's bytes — its connection's buffers, the client's
     * objects for it — counted by {@link ChunkIo} while the request is in flight, and in the memory a task slot may
     * hold in requests ({@link ChunkStore#inFlightBytes}). The default: none on stores of concurrency 1 (their
     * requests are the task's own, on its thread), else {@value #DEFAULT_REQUEST_OVERHEAD_BYTES}, a generous bound
     * for clients whose overhead was not measured (Hadoop's connectors).
     */
    default int requestOverheadBytes() {
        return concurrency() > 1 ? DEFAULT_REQUEST_OVERHEAD_BYTES : 0;
    }

    /** {@link #requestOverheadBytes} of object store clients that do not say theirs: 128 KiB. */
    int DEFAULT_REQUEST_OVERHEAD_BYTES = 128 * 1024;

    /** True when a value exists at {@code key}. */
    boolean exists(String key);

    /** Removes the value at {@code key}; nothing happens when there is none. */
    void delete(String key);

    /** Removes every value whose key is {@code prefix} or starts with {@code prefix + "/"}. */
    void deletePrefix(String prefix);

    /**
     * The keys of all values below {@code prefix} (recursively), relative to the store root and sorted; {@code ""} lists
     * the whole store. Temporary files of unfinished writes are never listed.
     */
    List<String> list(String prefix);

    /**
     * The total size in bytes of the values below {@code prefix} (as {@link #list} finds them), for reporting what
     * deleting them frees. The default asks {@link #size} of each; stores override it to take the sizes from their
     * listing (one request per page on object stores, one per tree on HDFS).
     */
    default long sizeBelow(String prefix) {
        long total = 0;
        for (String key : list(prefix)) {
            total += Math.max(0, size(key));
        }
        return total;
    }

    /**
     * Whether {@link #listChildren} of {@code prefix} would name anything, asked as cheaply as the store can: object
     * stores read one page of the listing whatever lies below (an array of a million chunks included), so that a new
     * place is known new in one request. It may answer true for a place that holds only S3A's directory markers; it
     * never answers false for a place that holds a value. The default lists the names.
     */
    default boolean holdsAnyBelow(String prefix) {
        return !listChildren(prefix).isEmpty();
    }

    /**
     * The names one level below {@code prefix} ({@code ""}: the root), sorted, each once: the last part of each key
     * {@code prefix/name} and the first part below {@code prefix} of each longer key ({@link #list} cut after one
     * level). Object stores answer with a delimiter listing, which pages through the names instead of every key below
     * them (a Zarr group's members, not their chunks); file systems with one directory listing, which may also name an
     * empty directory. The default cuts {@link #list}'s keys.
     */
    default List<String> listChildren(String prefix) {
        return StoreReads.children(prefix, list(prefix));
    }

    /**
     * True for object stores (S3, GCS, Azure blobs), where a write or read holds one more copy of the bytes in memory
     * than on a file system. Used by the memory model.
     */
    default boolean isObjectStore() {
        return false;
    }

    /** A store with the same root as this one, below {@code path} (which must be a valid key). */
    Store resolve(String path);

    @Override
    default void close() {}
}
