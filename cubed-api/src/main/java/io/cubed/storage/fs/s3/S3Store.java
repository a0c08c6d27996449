package io.cubed.storage.fs.s3;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.storage.RequestStats;
import io.cubed.storage.Store;
import io.cubed.storage.StoreKeys;
import io.cubed.storage.StoreOptions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * A {@link Store} on S3 (and S3-compatible servers) through Cubed's own client ({@link S3Client}): a value read is one
 * GET (a missing object is a 404, read as no value: no existence check first), a value written one PUT, a size or an
 * existence check one HEAD; listings are ListObjectsV2 pages (with a delimiter for {@link #listChildren}) and prefix
 * deletes DeleteObjects requests of up to 1000 keys. Reads and writes also come as futures ({@link #getAsync}, {@link
 * #putAsync}) that hold no thread while in flight, so that a task keeps many requests going at once ({@link
 * io.cubed.storage.ChunkIo}).
 *
 * <p>Settings are S3A's ({@link S3Settings}), so {@code s3a://} URIs with a configuration made for Hadoop work
 * unchanged. A PUT replaces an object atomically, as S3 does; keys are the store's root prefix, '/', and the key.
 */
public final class S3Store implements Store {
    /** The default number of requests a task keeps in flight on S3 ({@link #concurrency}), measured in docs/cloud.md. */
    public static final int DEFAULT_CONCURRENCY = 32;

    /**
     * Heap one request in flight holds besides the value ({@link #requestOverheadBytes}): its connection's 64 KiB read
     * buffer and socket, the signed request and the answer's headers, its thread. Measured: 70 KiB per GET in flight on
     * a new connection, 2.6 KiB on a pooled one (docs/cloud.md, "Many requests in flight").
     */
    public static final int REQUEST_OVERHEAD_BYTES = Http1.READ_BUFFER_BYTES + 16 * 1024;

    /**
     * The clients of this JVM, one per bucket and settings, shared by the stores of all the arrays in that bucket: a
     * client pools its connections (each with a read buffer and an open socket) for reuse, so one client per array
     * would keep each array's connections open as long as its store is cached ({@code Stores}' suppliers keep every
     * store they opened), and the JVM's heap and sockets would grow with the arrays it has touched.
     */
    private static final java.util.concurrent.ConcurrentHashMap<List<Object>, S3Client> CLIENTS =
            new java.util.concurrent.ConcurrentHashMap<>();

    private final String uri;
    private final S3Client client;
    /** The root prefix of the store's keys in the bucket: empty, or a path without leading or trailing '/'. */
    private final String root;

    private final int concurrency;

    private S3Store(String uri, S3Client client, String root, int concurrency) {
        this.uri = uri;
        this.client = client;
        this.root = root;
        this.concurrency = concurrency;
    }

    /**
     * Opens {@code uri} ({@code s3a://bucket/prefix} or {@code s3://bucket/prefix}) with S3A's settings in {@code
     * options}, and {@code concurrency} requests in flight per task.
     */
    public static S3Store open(String uri, StoreOptions options, int concurrency) {
        return open(uri, options, concurrency, System.getenv(), true);
    }

    /** As {@link #open(String, StoreOptions, int)} with environment {@code env}, through a client of its own. */
    static S3Store open(String uri, StoreOptions options, int concurrency, Map<String, String> env) {
        return open(uri, options, concurrency, env, false);
    }

    private static S3Store open(
            String uri, StoreOptions options, int concurrency, Map<String, String> env, boolean shared) {
        int colon = uri.indexOf("://");
        if (colon < 0) {
            throw new InvalidArgumentException("'" + uri + "' is not an S3 URI: s3a://BUCKET/path");
        }
        String scheme = uri.substring(0, colon);
        String rest = uri.substring(colon + 3);
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        // As S3A's Path reads it: s3a://bucket//x/ is the prefix x, not a refused key "/x".
        String prefix = slash < 0 ? "" : StoreKeys.normalizedPath(rest.substring(slash), uri);
        if (bucket.isEmpty()) {
            throw new InvalidArgumentException("'" + uri + "' names no bucket: " + scheme + "://BUCKET/path");
        }
        if (!prefix.isEmpty()) {
            StoreKeys.check(prefix, uri);
        }
        S3Client client;
        try {
            client = shared
                    ? CLIENTS.computeIfAbsent(
                            List.of(bucket, options), k -> new S3Client(new S3Settings(bucket, options, env)))
                    : new S3Client(new S3Settings(bucket, options, env));
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException("cannot open store '" + uri + "': " + e.getMessage(), e);
        }
        String normalized = scheme + "://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
        return new S3Store(normalized, client, prefix, concurrency);
    }

    @Override
    public String uri() {
        return uri;
    }

    @Override
    public boolean isObjectStore() {
        return true;
    }

    /** Requests a task keeps in flight on this store. */
    @Override
    public int concurrency() {
        return concurrency;
    }

    /** {@value #REQUEST_OVERHEAD_BYTES} bytes while it has more than one request in flight per task, else none. */
    @Override
    public int requestOverheadBytes() {
        return concurrency > 1 ? REQUEST_OVERHEAD_BYTES : 0;
    }

    /**
     * The requests this store's client has made: the client of every store of the same bucket and settings in this JVM.
     */
    public RequestStats requestStats() {
        return client.stats();
    }

    /**
     * The requests of every {@code S3Store} of this JVM together (all clients, all buckets): what this process asks of
     * S3 through Cubed's client, and how many requests it has in flight at once; S3A's requests are not among them.
     */
    public static RequestStats requestStatsOfThisJvm() {
        return S3Client.JVM_STATS;
    }

    /** Connections idle in the client's pool now (for tests). */
    int idleConnections() {
        return client.idleConnections();
    }

    private String objectKey(String key) {
        StoreKeys.check(key, uri);
        return root.isEmpty() ? key : key.isEmpty() ? root : root + "/" + key;
    }

    @Override
    public byte[] get(String key) {
        return now(S3Client.get(objectKey(key)), S3Client::object, "read", key);
    }

    @Override
    public Bytes getTransient(String key, int capacity) {
        byte[] v = get(key);
        return v == null ? null : new Bytes(v, v.length);
    }

    /** Completes with the value at {@code key} in an array of its exact length, or with null when there is none. */
    @Override
    public CompletableFuture<Bytes> getAsync(String key) {
        String k = objectKey(key);
        return named(
                client.later(S3Client.get(k), r -> {
                    byte[] v = S3Client.object(r);
                    return v == null ? null : new Bytes(v, v.length);
                }),
                "read",
                key);
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
        if (offset < 0 || length < 0) {
            throw rangeFailure(key, offset, length, "negative offset or length");
        }
        if (length == 0) {
            long size = size(key);
            if (size < 0) {
                return null;
            }
            if (offset > size) {
                throw rangeFailure(key, offset, length, "it has " + size + " bytes");
            }
            return new byte[0];
        }
        return now(S3Client.getRange(objectKey(key), offset, length), r -> range(r, key, offset, length), "read", key);
    }

    /** One ranged GET in flight; a range of no bytes asks the size first, on the calling thread. */
    @Override
    public CompletableFuture<byte[]> getRangeAsync(String key, long offset, int length) {
        if (offset < 0 || length <= 0) {
            return Store.super.getRangeAsync(key, offset, length);
        }
        return named(
                client.later(S3Client.getRange(objectKey(key), offset, length), r -> range(r, key, offset, length)),
                "read",
                key);
    }

    /** The bytes a ranged GET's answer {@code r} carries, or null when there is no object. */
    private byte[] range(S3Client.Response r, String key, long offset, int length) {
        if (S3Client.absent(r)) {
            return null;
        }
        if (r.status() == 416) {
            throw rangeFailure(key, offset, length, "the value is shorter");
        }
        if (r.status() == 200) {
            // A server that ignores Range sends the whole value.
            if (r.body().length < offset + length) {
                throw rangeFailure(key, offset, length, "the value is shorter");
            }
            return java.util.Arrays.copyOfRange(r.body(), (int) offset, (int) offset + length);
        }
        S3Client.expect(r, 206);
        if (r.body().length != length) {
            throw rangeFailure(key, offset, length, "the value is shorter (" + r.body().length + " bytes came)");
        }
        return r.body();
    }

    /**
     * One GET of the suffix range {@code bytes=-length}: S3 answers with the last bytes (all of a shorter object) and
     * the object's size in {@code Content-Range}. An empty object, whose suffix S3 cannot satisfy (416), is asked its
     * size.
     */
    @Override
    public Part getTail(String key, int length) {
        return part(key, length, true);
    }

    /**
     * One GET of the range {@code bytes=0-(length - 1)}: S3 answers with the first bytes (all of a shorter object) and
     * the object's size in {@code Content-Range}, as for {@link #getTail}.
     */
    @Override
    public Part getHead(String key, int length) {
        return part(key, length, false);
    }

    private Part part(String key, int length, boolean fromEnd) {
        if (length < 1) {
            return fromEnd ? Store.super.getTail(key, length) : Store.super.getHead(key, length);
        }
        S3Client.Request request =
                fromEnd ? S3Client.getTail(objectKey(key), length) : S3Client.getRange(objectKey(key), 0, length);
        Part part = now(request, r -> part(r, key, length, fromEnd), "read", key);
        if (part != null && part.size() < 0) {
            long size = size(key);
            if (size < 0) {
                return null;
            }
            if (size == 0) {
                return new Part(new byte[0], 0);
            }
            return fromEnd ? Store.super.getTail(key, length) : Store.super.getHead(key, length);
        }
        return part;
    }

    /** The part a GET's answer carries; a size of -1 when S3 could not satisfy the range. */
    private Part part(S3Client.Response r, String key, int length, boolean fromEnd) {
        if (S3Client.absent(r)) {
            return null;
        }
        if (r.status() == 416) {
            return new Part(null, -1);
        }
        byte[] body = r.body();
        if (r.status() == 200) {
            // A server that ignores Range sends the whole value.
            int n = Math.min(length, body.length);
            int from = fromEnd ? body.length - n : 0;
            return new Part(java.util.Arrays.copyOfRange(body, from, from + n), body.length);
        }
        S3Client.expect(r, 206);
        long size = S3Client.totalSize(r);
        if (size < 0 || body.length != Math.min(length, size)) {
            throw new StorageException("cannot read the " + (fromEnd ? "last " : "first ") + length + " bytes of '"
                    + key + "' in " + uri + ": the answer carried " + body.length + " bytes and Content-Range '"
                    + r.header("content-range") + "'");
        }
        return new Part(body, size);
    }

    private StorageException rangeFailure(String key, long offset, int length, String why) {
        return new StorageException("cannot read bytes [" + offset + ", " + (offset + length) + ") of '" + key + "' in "
                + uri + ": " + why);
    }

    @Override
    public long size(String key) {
        return now(S3Client.head(objectKey(key)), S3Client::size, "read the size of", key);
    }

    @Override
    public void put(String key, byte[] value) {
        put(key, value, value.length);
    }

    @Override
    public void put(String key, byte[] value, int length) {
        checkPut(key, value, length);
        now(client.put(objectKey(key), value, 0, length), S3Client::stored, "write", key);
    }

    private void checkPut(String key, byte[] value, int length) {
        if (length < 0 || length > value.length) {
            throw new InvalidArgumentException("cannot write " + length + " bytes of a " + value.length
                    + "-byte array to '" + key + "' in " + uri);
        }
        if (key.isEmpty()) {
            throw new StorageException("cannot write to the root of " + uri + ": a key is needed");
        }
    }

    /**
     * Starts storing the first {@code length} bytes of {@code value} at {@code key} in one PUT; the caller must not
     * change them until the future completes.
     */
    @Override
    public CompletableFuture<Void> putAsync(String key, byte[] value, int length) {
        checkPut(key, value, length);
        return named(client.later(client.put(objectKey(key), value, 0, length), S3Client::stored), "write", key);
    }

    @Override
    public boolean exists(String key) {
        return size(key) >= 0;
    }

    @Override
    public void delete(String key) {
        now(S3Client.delete(objectKey(key)), S3Client::deleted, "delete", key);
    }

    @Override
    public void deletePrefix(String prefix) {
        List<String> keys = objectKeys(prefix);
        List<CompletableFuture<List<String>>> batches = new ArrayList<>();
        for (int from = 0; from < keys.size(); from += 1000) {
            batches.add(named(
                    client.later(
                            S3Client.deleteAll(keys.subList(from, Math.min(keys.size(), from + 1000))),
                            S3Client::notDeleted),
                    "delete",
                    prefix));
        }
        List<String> failed = new ArrayList<>();
        for (CompletableFuture<List<String>> b : batches) {
            failed.addAll(join(b));
        }
        if (!failed.isEmpty()) {
            throw new StorageException("cannot delete " + failed.size() + " objects below '" + prefix + "' in " + uri
                    + ": " + failed.subList(0, Math.min(5, failed.size())));
        }
    }

    @Override
    public List<String> list(String prefix) {
        String base = root.isEmpty() ? "" : root + "/";
        List<String> keys = new ArrayList<>();
        for (String k : objectKeys(prefix)) {
            keys.add(k.substring(base.length()));
        }
        Collections.sort(keys);
        return keys;
    }

    /**
     * One delimiter listing ({@code delimiter=/}) of the objects below {@code prefix}: its names one level down, from
     * the objects directly below it and the common prefixes of the deeper ones, page by page; S3A's directory markers
     * (keys ending in '/') name nothing.
     */
    @Override
    public List<String> listChildren(String prefix) {
        String p = objectKey(prefix);
        String base = p.isEmpty() ? "" : p + "/";
        java.util.TreeSet<String> names = new java.util.TreeSet<>();
        String token = null;
        do {
            S3Xml.ListPage page = now(S3Client.list(base, "/", token), S3Client::listPage, "list", prefix);
            addChildren(page, base, names);
            token = page.nextToken();
        } while (token != null);
        return new ArrayList<>(names);
    }

    /**
     * Adds to {@code names} what one page of a delimiter listing below {@code base} names one level down: the objects
     * directly below it and the common prefixes of the deeper ones; S3A's directory markers (keys ending in '/') name
     * nothing.
     */
    private static void addChildren(S3Xml.ListPage page, String base, java.util.Collection<String> names) {
        for (String k : page.keys()) {
            if (k.startsWith(base) && k.length() > base.length() && !k.endsWith("/")) {
                names.add(k.substring(base.length()));
            }
        }
        for (String d : page.prefixes()) {
            if (d.startsWith(base) && d.length() > base.length() + 1 && d.endsWith("/")) {
                names.add(d.substring(base.length(), d.length() - 1));
            }
        }
    }

    /** One page of the delimiter listing of {@link #listChildren}: the first thousand names answer it. */
    @Override
    public boolean holdsAnyBelow(String prefix) {
        String p = objectKey(prefix);
        String base = p.isEmpty() ? "" : p + "/";
        S3Xml.ListPage page = now(S3Client.list(base, "/", null), S3Client::listPage, "list", prefix);
        List<String> names = new ArrayList<>();
        addChildren(page, base, names);
        // A first page of directory markers alone, with more after it: whatever the rest holds, say so.
        return !names.isEmpty() || page.nextToken() != null;
    }

    /**
     * The object keys (whole, in the bucket) of the values at or below {@code prefix}: the key itself and those
     * starting with it and '/', without S3A's directory markers (keys ending in '/').
     */
    /** The sizes come with the listing's pages: one request per thousand objects, no HEAD per object. */
    @Override
    public long sizeBelow(String prefix) {
        String p = objectKey(prefix);
        long total = 0;
        String token = null;
        do {
            S3Xml.ListPage page = now(S3Client.list(p, token), S3Client::listPage, "list", prefix);
            for (int i = 0; i < page.keys().size(); i++) {
                String k = page.keys().get(i);
                if (!k.endsWith("/") && (p.isEmpty() || k.equals(p) || k.startsWith(p + "/"))) {
                    total += page.sizes().get(i);
                }
            }
            token = page.nextToken();
        } while (token != null);
        return total;
    }

    private List<String> objectKeys(String prefix) {
        String p = objectKey(prefix);
        List<String> keys = new ArrayList<>();
        String token = null;
        do {
            S3Xml.ListPage page = now(S3Client.list(p, token), S3Client::listPage, "list", prefix);
            for (String k : page.keys()) {
                if (k.endsWith("/")) {
                    continue;
                }
                if (p.isEmpty() || k.equals(p) || k.startsWith(p + "/")) {
                    keys.add(k);
                }
            }
            token = page.nextToken();
        } while (token != null);
        return keys;
    }

    @Override
    public Store resolve(String path) {
        if (path.isEmpty()) {
            return this;
        }
        StoreKeys.check(path, uri);
        return new S3Store(uri + "/" + path, client, root.isEmpty() ? path : root + "/" + path, concurrency);
    }

    /** {@code f}, failing with a {@link StorageException} that names the store and the key. */
    private <T> CompletableFuture<T> named(CompletableFuture<T> f, String verb, String key) {
        return f.handle((v, e) -> {
            if (e != null) {
                throw new CompletionException(failure(verb, key, e));
            }
            return v;
        });
    }

    /** Makes {@code request} on this thread, reading its answer with {@code answer}; failures name store and key. */
    private <T> T now(
            S3Client.Request request,
            java.util.function.Function<S3Client.Response, T> answer,
            String verb,
            String key) {
        try {
            return client.now(request, answer);
        } catch (IOException | RuntimeException e) {
            throw failure(verb, key, e);
        }
    }

    private static <T> T join(CompletableFuture<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException("interrupted while waiting for S3", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof StorageException s ? s : new StorageException(String.valueOf(c), c);
        }
    }

    /** The failure of an operation on {@code key}, naming the store, the key and S3's answer. */
    StorageException failure(String verb, String key, Throwable cause) {
        Throwable c = cause instanceof CompletionException && cause.getCause() != null ? cause.getCause() : cause;
        if (c instanceof StorageException s) {
            return s;
        }
        // The empty key is the store's own prefix (a listing of all of it): the URI names it.
        String what = key.isEmpty() ? uri : "'" + key + "' in " + uri;
        return new StorageException("cannot " + verb + " " + what + ": " + io.cubed.storage.IoErrors.describe(c), c);
    }

    @Override
    public String toString() {
        return "S3Store{" + uri + "}";
    }
}
