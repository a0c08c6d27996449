package io.cubed.storage.fs;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.StoreSupplier;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens a {@link Store} from a URI string, read as {@link Locations} says (as Hadoop's {@code Path} reads it: the
 * path's characters taken literally): a plain path or {@code file:} URI opens a {@link LocalStore}, {@code
 * memory://NAME} an {@link InMemoryStore}, {@code s3a://} an {@link io.cubed.storage.fs.s3.S3Store} (Cubed's own S3
 * client, configured from S3A's options; {@value #S3_CLIENT_OPTION}{@code =hadoop} goes through S3A instead), and any
 * other scheme ({@code hdfs}, {@code abfss}, {@code gs}, {@code s3} …) a {@link HadoopStore} through Hadoop's {@code
 * FileSystem}, configured from the options. The option {@value #BACKEND_OPTION}{@code =hadoop} sends {@code file:}
 * URIs through Hadoop too.
 */
public final class Stores {
    /** Option that picks the backend for {@code file:} URIs: {@code nio} (default) or {@code hadoop}. */
    public static final String BACKEND_OPTION = "cubed.store.backend";

    /** Option that picks the client for {@code s3a://} and {@code s3://} URIs: {@code cubed} or {@code hadoop}. */
    public static final String S3_CLIENT_OPTION = "cubed.store.s3.client";

    private static final ConcurrentHashMap<UriSupplier, Store> CACHE = new ConcurrentHashMap<>();

    private Stores() {}

    /** Opens the store rooted at {@code uri} with no options. */
    public static Store open(String uri) {
        return open(uri, StoreOptions.empty());
    }

    /**
     * Opens the store rooted at {@code uri}, a path or a URI with a scheme; close it after use (only Hadoop stores hold
     * resources).
     */
    public static Store open(String uri, StoreOptions options) {
        return open(uri, options, true);
    }

    private static Store open(String uri, StoreOptions options, boolean closeable) {
        requireLocation(uri);
        Objects.requireNonNull(options, "options");
        String scheme = schemeOf(uri);
        if (scheme == null || scheme.equals("file")) {
            Path path = Locations.localPath(uri);
            if ("hadoop".equals(options.get(BACKEND_OPTION))) {
                // The path in the form Hadoop's Path reads back as the same file (Locations).
                return openHadoop(Locations.fileUrl(path), options, closeable);
            }
            return new LocalStore(path, concurrency(options, 1));
        }
        if (scheme.equals("memory")) {
            String rest = uri.substring(uri.indexOf(':') + 1);
            if (!rest.startsWith("//")) {
                throw new InvalidArgumentException("memory store URI '" + uri + "' must look like memory://NAME/path");
            }
            rest = rest.substring(2);
            int slash = rest.indexOf('/');
            String name = slash < 0 ? rest : rest.substring(0, slash);
            if (name.isEmpty()) {
                throw new InvalidArgumentException("memory store URI '" + uri + "' needs a name: memory://NAME/path");
            }
            InMemoryStore store = InMemoryStore.named(name);
            // Repeated and trailing slashes as in any other URL (StoreLocation reads it so too).
            String path = slash < 0 ? "" : io.cubed.storage.StoreKeys.normalizedPath(rest.substring(slash), uri);
            return path.isEmpty() ? store : store.resolve(path);
        }
        if ((scheme.equals("s3a") || scheme.equals("s3"))
                && s3Client(scheme, options).equals("cubed")) {
            return io.cubed.storage.RetryingStore.wrap(
                    io.cubed.storage.fs.s3.S3Store.open(
                            uri, options, concurrency(options, io.cubed.storage.fs.s3.S3Store.DEFAULT_CONCURRENCY)),
                    options);
        }
        return openHadoop(uri, options, closeable);
    }

    /**
     * The client for an {@code s3a://} or {@code s3://} URI: the option {@value #S3_CLIENT_OPTION}, by default {@code
     * cubed} (Cubed's own, one request per read or write) for {@code s3a://} and {@code hadoop} for {@code s3://}
     * (EMRFS on EMR).
     */
    static String s3Client(String scheme, StoreOptions options) {
        String v = options.get(S3_CLIENT_OPTION);
        if (v == null || v.isBlank()) {
            return scheme.equals("s3a") ? "cubed" : "hadoop";
        }
        String c = v.trim().toLowerCase(Locale.ROOT);
        if (!c.equals("cubed") && !c.equals("hadoop")) {
            throw new InvalidArgumentException(
                    S3_CLIENT_OPTION + " must be cubed (Cubed's S3 client) or hadoop (S3A), got '" + v + "'");
        }
        return c;
    }

    /**
     * The requests in flight per task that {@code options} set ({@value Store#CONCURRENCY_OPTION}: a positive number,
     * or {@code auto} for {@code fallback}, the store kind's default).
     */
    public static int concurrency(StoreOptions options, int fallback) {
        String v = options.get(Store.CONCURRENCY_OPTION);
        if (v == null || v.isBlank() || v.trim().equalsIgnoreCase("auto")) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        throw new InvalidArgumentException(
                Store.CONCURRENCY_OPTION + " must be a positive number of requests or auto, got '" + v + "'");
    }

    private static Store openHadoop(String uri, StoreOptions options, boolean closeable) {
        try {
            return io.cubed.storage.RetryingStore.wrap(HadoopStore.open(uri, options, closeable), options);
        } catch (NoClassDefFoundError e) {
            throw new StorageException(
                    "opening '" + uri + "' needs Hadoop on the classpath (hadoop-client-api and "
                            + "hadoop-client-runtime, and hadoop-aws for s3a://); Spark clusters provide it, and "
                            + "bin/cubed adds it when its command line names such a URL or a Hadoop client, or "
                            + "with CUBED_HADOOP=on",
                    e);
        }
    }

    /**
     * A serializable supplier that opens {@code uri} with {@code options}; within one JVM every supplier with equal
     * URI and options shares one open store, so tasks on an executor do not reconnect for every chunk. That store is
     * never closed by its holders: its {@code close()} does nothing.
     */
    public static StoreSupplier supplier(String uri, StoreOptions options) {
        return new UriSupplier(requireLocation(uri), options);
    }

    /**
     * {@code uri}, refused when null or blank: an empty path would name the working directory, and an array written
     * there (or overwritten with it) would mix with, or delete, whatever else the directory holds.
     */
    public static String requireLocation(String uri) {
        if (uri == null || uri.isBlank()) {
            throw new InvalidArgumentException("no store location given ("
                    + (uri == null ? "null" : "'" + uri + "'")
                    + "): give a path or a URI; an empty path is not taken for the working directory");
        }
        return uri;
    }

    /** The lower-case scheme of {@code uri}, or {@code null} for a plain path. */
    static String schemeOf(String uri) {
        int colon = uri.indexOf(':');
        if (colon <= 1) {
            // No scheme, or a Windows drive letter such as C:\data.
            return null;
        }
        try {
            String scheme = new URI(uri).getScheme();
            return scheme == null ? null : scheme.toLowerCase(Locale.ROOT);
        } catch (URISyntaxException e) {
            String head = uri.substring(0, colon);
            if (head.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '+' || c == '-' || c == '.')) {
                return head.toLowerCase(Locale.ROOT);
            }
            return null;
        }
    }

    private static final class UriSupplier implements StoreSupplier {
        private static final long serialVersionUID = 1L;
        private final String uri;
        private final StoreOptions options;

        UriSupplier(String uri, StoreOptions options) {
            this.uri = Objects.requireNonNull(uri, "uri");
            this.options = Objects.requireNonNull(options, "options");
        }

        @Override
        public Store open() {
            Store cached = CACHE.get(this);
            return cached != null ? cached : CACHE.computeIfAbsent(this, s -> Stores.open(s.uri, s.options, false));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof UriSupplier
                    && uri.equals(((UriSupplier) o).uri)
                    && options.equals(((UriSupplier) o).options);
        }

        @Override
        public int hashCode() {
            return 31 * uri.hashCode() + options.hashCode();
        }

        @Override
        public String toString() {
            return "StoreSupplier{" + uri + ", " + options + "}";
        }
    }
}
