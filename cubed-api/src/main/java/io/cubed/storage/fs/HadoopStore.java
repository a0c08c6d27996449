package io.cubed.storage.fs;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.storage.Store;
import io.cubed.storage.StoreKeys;
import io.cubed.storage.StoreOptions;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FutureDataInputStreamBuilder;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.util.functional.FutureIO;

/**
 * A {@link Store} on any Hadoop {@code FileSystem}: {@code s3a://}, {@code hdfs://}, {@code abfss://}, {@code gs://},
 * {@code file://}, its location read by Hadoop's own {@code new Path(String)} (the path's characters literally, as
 * {@link Locations} says for every store). The Hadoop configuration is built from the store options (every option is
 * set on it as is), on top of Hadoop's defaults; each store opens its own {@code FileSystem} instance, so stores with
 * different options on the same bucket or cluster do not share one (Hadoop's {@code FileSystem.get} cache ignores the
 * configuration).
 *
 * <p>Atomic puts: object stores ({@code s3a}, {@code gs}, {@code abfs(s)}, {@code wasb(s)}, {@code oss}) publish an
 * object only when its single upload completes, so values are written directly; on file systems a temporary file is
 * written and renamed over the target ({@code rename(2)} on local disk, {@code FileContext} rename with overwrite
 * elsewhere). {@code file://} uses Hadoop's raw local file system, so no {@code .crc} side files are written.
 */
public final class HadoopStore implements Store {
    private static final Set<String> OBJECT_STORE_SCHEMES =
            Set.of("s3a", "s3", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs", "oss", "cos", "cosn", "obs");
    /** How many times a read is tried when the object changed while it was read (an object store's overwrite). */
    private static final int READ_ATTEMPTS = 5;
    /** Requests in flight per task on object stores through Hadoop, by default (docs/cloud.md). */
    static final int DEFAULT_OBJECT_STORE_CONCURRENCY = 32;

    private final String uri;
    /** The file system the store works on (the raw one for {@code file://}). */
    private final FileSystem fs;
    /** The instance to close with the store, or {@code null} when the store does not own it. */
    private final FileSystem owned;

    private final Configuration conf;
    private final Path root;
    private final boolean objectStore;
    private final int concurrency;
    /** S3A's statuses, when the file system is S3A's: reads then ask no {@code HEAD} first; else null. */
    private final S3aStatuses s3a;

    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile FileContext fileContext;

    private HadoopStore(
            String uri,
            FileSystem fs,
            FileSystem owned,
            Configuration conf,
            Path root,
            boolean objectStore,
            int concurrency,
            S3aStatuses s3a) {
        this.uri = uri;
        this.s3a = s3a;
        this.concurrency = concurrency;
        this.fs = fs;
        this.owned = owned;
        this.conf = conf;
        this.root = root;
        this.objectStore = objectStore;
    }

    /** Opens {@code uri} through a new Hadoop {@code FileSystem} configured with {@code options}; close it after use. */
    public static HadoopStore open(String uri, StoreOptions options) {
        return open(uri, options, true);
    }

    /**
     * Opens {@code uri}; when {@code closeable} is false, {@link #close} leaves the file system open (for stores shared
     * through a cache, which no single holder may close).
     */
    static HadoopStore open(String uri, StoreOptions options, boolean closeable) {
        Configuration conf = new Configuration();
        for (Map.Entry<String, String> e : options.asMap().entrySet()) {
            conf.set(e.getKey(), e.getValue());
        }
        String normalized = uri.endsWith("/") && !uri.endsWith(":///") ? uri.substring(0, uri.length() - 1) : uri;
        Path rootPath = rootOf(uri);
        try {
            URI u = rootPath.toUri();
            FileSystem fs = FileSystem.newInstance(u, conf);
            String scheme = fs.getScheme() == null ? "" : fs.getScheme().toLowerCase(Locale.ROOT);
            FileSystem ops = fs instanceof LocalFileSystem ? ((LocalFileSystem) fs).getRaw() : fs;
            boolean objectStore = OBJECT_STORE_SCHEMES.contains(scheme);
            return new HadoopStore(
                    normalized,
                    ops,
                    closeable ? fs : null,
                    conf,
                    rootPath,
                    objectStore,
                    Stores.concurrency(options, objectStore ? DEFAULT_OBJECT_STORE_CONCURRENCY : 1),
                    S3aStatuses.of(ops));
        } catch (Exception e) {
            String missing = missingConnector(e);
            if (missing != null) {
                throw new StorageException(
                        "cannot open store '" + uri + "': no Hadoop file system for "
                                + uri.substring(0, Math.max(0, uri.indexOf(':'))) + ":// on the class path (" + missing
                                + " not found): add its connector jars (for s3a://, hadoop-aws 3.3.4 and its AWS SDK bundle):"
                                + " bin/cubed --jars A.jar,B.jar, CUBED_CLASSPATH or HADOOP_HOME; spark-submit --jars or"
                                + " --packages",
                        e);
            }
            throw new StorageException("cannot open store '" + uri + "' through Hadoop: " + e, e);
        }
    }

    /**
     * The root of the store at {@code uri} as Hadoop's {@code new Path(String)} reads it (see {@link Locations}): the
     * path's characters literally, never percent-decoded; {@code scheme://authority} alone is the root directory of
     * that file system. A URL Hadoop cannot read, one without a scheme, and one whose {@code ..} climbs above its
     * root are refused naming the URL.
     */
    static Path rootOf(String uri) {
        Path p;
        try {
            p = new Path(uri);
        } catch (IllegalArgumentException e) {
            Throwable why = e.getCause() instanceof java.net.URISyntaxException ? e.getCause() : e;
            throw new InvalidArgumentException(
                    "cannot open store '" + uri + "': Hadoop cannot read it as a location ("
                            + (why instanceof java.net.URISyntaxException x ? x.getReason() : why.getMessage()) + ")",
                    e);
        }
        URI u = p.toUri();
        if (u.getScheme() == null) {
            throw new InvalidArgumentException("cannot open store '" + uri + "' through Hadoop: it has no scheme"
                    + " (give a URL such as hdfs://namenode/data/x.zarr or file:///data/x.zarr)");
        }
        // Hadoop keeps a '..' that climbs above the root as a name; no file system has such a directory.
        io.cubed.storage.StoreKeys.normalizedPath(u.getPath(), uri);
        if (u.getPath().isEmpty()) {
            return new Path(u.getScheme(), u.getAuthority(), "/");
        }
        return p;
    }

    /** The connector class whose absence {@code e} reports (Hadoop's "Class … not found", "No FileSystem for scheme"). */
    private static String missingConnector(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = String.valueOf(t.getMessage());
            java.util.regex.Matcher c =
                    java.util.regex.Pattern.compile("Class (\\S+) not found").matcher(m);
            if (t instanceof ClassNotFoundException || c.find()) {
                return c.find(0) ? c.group(1) : m;
            }
            if (m.startsWith("No FileSystem for scheme")) {
                return "a FileSystem implementation";
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }

    @Override
    public String uri() {
        return uri;
    }

    @Override
    public boolean isObjectStore() {
        return objectStore;
    }

    /**
     * Requests a task keeps in flight: {@value #DEFAULT_OBJECT_STORE_CONCURRENCY} on object stores (each on a thread of
     * {@link io.cubed.storage.StoreThreads}, since Hadoop's clients block), 1 on file systems, unless {@value
     * Store#CONCURRENCY_OPTION} says otherwise.
     */
    @Override
    public int concurrency() {
        return concurrency;
    }

    private Path path(String key) {
        StoreKeys.check(key, uri);
        return key.isEmpty() ? root : new Path(root, key);
    }

    @Override
    public byte[] get(String key) {
        Path p = path(key);
        for (int attempt = 1; ; attempt++) {
            // Read to the end of the stream opened, never to a length looked up separately: the value may be
            // replaced between the two.
            try (FSDataInputStream in = fs.open(p)) {
                return in.readAllBytes();
            } catch (FileNotFoundException e) {
                return null;
            } catch (IOException e) {
                if (attempt < READ_ATTEMPTS && changedWhileRead(e)) {
                    continue;
                }
                throw failure("read", key, e);
            }
        }
    }

    /**
     * A stream of the value at {@code p} that is read below {@code end} only. On S3A, opened with a status of {@code
     * end} bytes: S3A asks no {@code HEAD}, and its ranged {@code GET}s end at {@code end} whatever its input policy,
     * so the bytes read are the object's own; an object that ends before {@code end} gives S3's short answer (the end
     * of the stream, {@link EOFException} from {@code readFully}) or, when it ends at or before the range's start,
     * S3's 416, which S3A 3.3.4 takes for the end of the stream too after retrying it ({@code fs.s3a.retry.limit}
     * times; docs/cloud.md). Elsewhere {@code open}.
     */
    private FSDataInputStream openBelow(Path p, long end) throws IOException {
        if (s3a == null) {
            return fs.open(p);
        }
        return openWith(p, s3a.status(fs.makeQualified(p), end));
    }

    /**
     * Hadoop's {@code openFile} of {@code p} given {@code status}: file systems that take a status of their own (S3A's
     * {@code S3AFileStatus}; ABFS's and GCS's in the Hadoop and connector versions that take them) skip looking the
     * file up again; the others open it as {@code open} does.
     */
    private FSDataInputStream openWith(Path p, FileStatus status) throws IOException {
        FutureDataInputStreamBuilder builder = fs.openFile(p).withFileStatus(status);
        return FutureIO.awaitFuture(builder.build());
    }

    /** True for S3A's {@code RemoteFileChangedException}: the object was overwritten while it was being read. */
    private static boolean changedWhileRead(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getClass().getSimpleName().equals("RemoteFileChangedException")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
        Path p = path(key);
        if (offset < 0 || length < 0) {
            throw rangeFailure(key, offset, length, "negative offset or length", null);
        }
        if (length == 0) {
            return emptyRange(key, p, offset);
        }
        if (offset > Long.MAX_VALUE - length) {
            throw rangeFailure(key, offset, length, "it ends beyond the largest offset a value can have", null);
        }
        for (int attempt = 1; ; attempt++) {
            try (FSDataInputStream in = openBelow(p, offset + length)) {
                byte[] buf = new byte[length];
                in.readFully(offset, buf);
                return buf;
            } catch (FileNotFoundException e) {
                return null;
            } catch (EOFException e) {
                throw rangeFailure(key, offset, length, "the value is shorter", e);
            } catch (IOException e) {
                if (attempt < READ_ATTEMPTS && changedWhileRead(e)) {
                    continue;
                }
                throw failure("read", key, e);
            }
        }
    }

    /** No bytes at {@code offset} of the value at {@code p}: null when there is none, a failure past its end. */
    private byte[] emptyRange(String key, Path p, long offset) {
        FileStatus st = fileStatus(key, p, "read");
        if (st == null) {
            return null;
        }
        if (offset > st.getLen()) {
            throw rangeFailure(key, offset, 0, "it has " + st.getLen() + " bytes", null);
        }
        return new byte[0];
    }

    /**
     * The file system's status of the value (on S3A one {@code HEAD}), then its last bytes read through {@code
     * openFile} given that status, which S3A (and ABFS and GCS in the versions that take their own statuses) use
     * instead of looking the value up again: two requests on S3A, where {@link #size} and {@link #getRange} would
     * make three. S3A's {@code GET} names the {@code ETag} of the status, so a value replaced in between fails it and
     * the two are asked again; so does a value found shorter than its status said (a file replaced).
     */
    @Override
    public Part getTail(String key, int length) {
        return part(key, length, true);
    }

    /** The value's status, then its first bytes read given that status, as {@link #getTail} reads its last ones. */
    @Override
    public Part getHead(String key, int length) {
        return part(key, length, false);
    }

    private Part part(String key, int length, boolean fromEnd) {
        if (length < 1) {
            throw new IllegalArgumentException(
                    (fromEnd ? "a tail of " : "a head of ") + length + " bytes of '" + key + "' in " + uri());
        }
        Path p = path(key);
        for (int attempt = 1; ; attempt++) {
            FileStatus st = fileStatus(key, p, "read the size of");
            if (st == null) {
                return null;
            }
            long size = st.getLen();
            int n = (int) Math.min(length, size);
            if (n == 0) {
                return new Part(new byte[0], size);
            }
            long offset = fromEnd ? size - n : 0;
            try (FSDataInputStream in = openWith(p, st)) {
                byte[] buf = new byte[n];
                in.readFully(offset, buf);
                return new Part(buf, size);
            } catch (FileNotFoundException e) {
                return null;
            } catch (EOFException e) {
                if (attempt < READ_ATTEMPTS) {
                    continue;
                }
                throw rangeFailure(key, offset, n, "the value is shorter than the " + size + " bytes it had", e);
            } catch (IOException e) {
                if (attempt < READ_ATTEMPTS && changedWhileRead(e)) {
                    continue;
                }
                throw failure("read", key, e);
            }
        }
    }

    @Override
    public long size(String key) {
        FileStatus st = fileStatus(key, path(key), "read the size of");
        return st == null ? -1 : st.getLen();
    }

    /** The status of the file of {@code key} at {@code p}, or null when there is none (nothing, or a directory). */
    private FileStatus fileStatus(String key, Path p, String verb) {
        try {
            FileStatus st = fs.getFileStatus(p);
            return st.isFile() ? st : null;
        } catch (FileNotFoundException e) {
            return null;
        } catch (IOException e) {
            throw failure(verb, key, e);
        }
    }

    private StorageException rangeFailure(String key, long offset, int length, String why, Exception cause) {
        return new StorageException(
                "cannot read bytes [" + offset + ", " + (offset + length) + ") of '" + key + "' in " + uri + ": " + why,
                cause);
    }

    @Override
    public void put(String key, byte[] value) {
        put(key, value, value.length);
    }

    @Override
    public void put(String key, byte[] value, int length) {
        if (length < 0 || length > value.length) {
            throw new InvalidArgumentException("cannot write " + length + " bytes of a " + value.length
                    + "-byte array to '" + key + "' in " + uri);
        }
        if (key.isEmpty()) {
            throw new StorageException("cannot write to the root of " + uri + ": a key is needed");
        }
        Path target = path(key);
        try {
            if (objectStore) {
                try (FSDataOutputStream out = fs.create(target, true)) {
                    out.write(value, 0, length);
                }
                return;
            }
            replace(target, out -> out.write(value, 0, length));
        } catch (IOException e) {
            throw failure("write", key, e);
        }
    }

    /** What writes a value to a stream. */
    @FunctionalInterface
    private interface StreamWriter {
        void writeTo(FSDataOutputStream out) throws IOException;
    }

    /**
     * Writes a temporary file beside {@code target} with {@code write} and renames it over {@code target}; deletes it
     * when anything fails (the writer's own exception goes to the caller as it is).
     */
    private void replace(Path target, StreamWriter write) throws IOException {
        Path tmp = new Path(target.getParent(), LocalStore.TEMP_PREFIX + target.getName() + "-" + UUID.randomUUID());
        boolean moved = false;
        try {
            try (FSDataOutputStream out = fs.create(tmp, false)) {
                write.writeTo(out);
            }
            rename(tmp, target);
            moved = true;
        } finally {
            if (!moved) {
                try {
                    fs.delete(tmp, false);
                } catch (IOException ignored) {
                    // The write already failed; that error is the one to report.
                }
            }
        }
    }

    /**
     * On a file system with rename (HDFS, the local one), each piece goes to the temporary file as it comes. On an
     * object store the pieces are gathered first: an object store's stream publishes what it was given when closed,
     * and Hadoop's connectors offer no common way to drop an upload when the writer fails.
     */
    @Override
    public boolean putsInPieces() {
        return !objectStore;
    }

    /**
     * On a file system with rename, writes the pieces to a temporary file beside the key's and renames it over the
     * key's file, deleting it if the writer fails; on an object store, gathers them and puts them whole.
     */
    @Override
    public void put(String key, ValueWriter value) {
        if (objectStore) {
            Store.super.put(key, value);
            return;
        }
        if (key.isEmpty()) {
            throw new StorageException("cannot write to the root of " + uri + ": a key is needed");
        }
        try {
            replace(path(key), out -> value.writeTo(java.nio.channels.Channels.newChannel(out)));
        } catch (IOException e) {
            throw failure("write", key, e);
        }
    }

    /** Renames {@code tmp} over {@code target} so that a reader sees the old or the new file, never no file. */
    private void rename(Path tmp, Path target) throws IOException {
        if (fs instanceof RawLocalFileSystem) {
            // FileContext's overwriting rename on the local file system deletes the target first: use rename(2).
            RawLocalFileSystem local = (RawLocalFileSystem) fs;
            Files.move(
                    local.pathToFile(tmp).toPath(),
                    local.pathToFile(target).toPath(),
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        fileContext().rename(tmp, target, Options.Rename.OVERWRITE);
    }

    private FileContext fileContext() throws IOException {
        FileContext fc = fileContext;
        if (fc == null) {
            synchronized (this) {
                fc = fileContext;
                if (fc == null) {
                    fc = FileContext.getFileContext(fs.getUri(), conf);
                    fileContext = fc;
                }
            }
        }
        return fc;
    }

    @Override
    public boolean exists(String key) {
        Path p = path(key);
        try {
            return fs.getFileStatus(p).isFile();
        } catch (FileNotFoundException e) {
            return false;
        } catch (IOException e) {
            throw failure("check", key, e);
        }
    }

    @Override
    public void delete(String key) {
        Path p = path(key);
        try {
            if (exists(key)) {
                fs.delete(p, false);
            }
        } catch (IOException e) {
            throw failure("delete", key, e);
        }
    }

    @Override
    public void deletePrefix(String prefix) {
        Path p = path(prefix);
        try {
            fs.delete(p, true);
        } catch (FileNotFoundException e) {
            // Nothing to delete.
        } catch (IOException e) {
            throw failure("delete", prefix, e);
        }
    }

    @Override
    public List<String> list(String prefix) {
        Path start = path(prefix);
        List<String> keys = new ArrayList<>();
        try {
            FileStatus st;
            try {
                st = fs.getFileStatus(start);
            } catch (FileNotFoundException e) {
                return List.of();
            }
            if (st.isFile()) {
                return prefix.isEmpty() ? List.of() : List.of(prefix);
            }
            String rootPath = fs.makeQualified(root).toUri().getPath();
            String rootDir = rootPath.endsWith("/") ? rootPath : rootPath + "/";
            for (FileStatus f : objectStore ? listFlat(start) : listTree(start)) {
                if (f.getPath().getName().startsWith(LocalStore.TEMP_PREFIX)) {
                    continue;
                }
                String p = f.getPath().toUri().getPath();
                if (!p.startsWith(rootDir)) {
                    throw new IOException("listed " + f.getPath() + ", which is not below " + rootDir);
                }
                keys.add(p.substring(rootDir.length()));
            }
        } catch (IOException e) {
            throw failure("list", prefix, e);
        }
        Collections.sort(keys);
        return keys;
    }

    /** The file system's content summary of the directory: one request on HDFS, a listing on object stores. */
    @Override
    public long sizeBelow(String prefix) {
        try {
            return fs.getContentSummary(path(prefix)).getLength();
        } catch (FileNotFoundException e) {
            return 0;
        } catch (IOException e) {
            throw failure("measure", prefix, e);
        }
    }

    /** One {@code listStatus} of the directory (a delimiter listing on object stores): its files and directories. */
    @Override
    public List<String> listChildren(String prefix) {
        Path dir = path(prefix);
        List<String> names = new ArrayList<>();
        try {
            for (FileStatus f : fs.listStatus(dir)) {
                String name = f.getPath().getName();
                if (f.getPath().equals(fs.makeQualified(dir)) || name.startsWith(LocalStore.TEMP_PREFIX)) {
                    // A file at the prefix itself lists as itself.
                    continue;
                }
                names.add(name);
            }
        } catch (FileNotFoundException e) {
            return List.of();
        } catch (IOException e) {
            throw failure("list", prefix, e);
        }
        Collections.sort(names);
        return names;
    }

    /** The first entry of the directory's listing, which object stores' file systems read a page at a time. */
    @Override
    public boolean holdsAnyBelow(String prefix) {
        Path dir = path(prefix);
        Path self = fs.makeQualified(dir);
        try {
            RemoteIterator<FileStatus> it = fs.listStatusIterator(dir);
            while (it.hasNext()) {
                FileStatus f = it.next();
                if (!f.getPath().equals(self) && !f.getPath().getName().startsWith(LocalStore.TEMP_PREFIX)) {
                    return true;
                }
            }
            return false;
        } catch (FileNotFoundException e) {
            return false;
        } catch (IOException e) {
            throw failure("list", prefix, e);
        }
    }

    /** The files below {@code dir} in one flat listing (cheap on object stores). */
    private List<FileStatus> listFlat(Path dir) throws IOException {
        List<FileStatus> files = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(dir, true);
        while (it.hasNext()) {
            files.add(it.next());
        }
        return files;
    }

    /** The files below {@code dir}, directory by directory, skipping entries removed or renamed meanwhile. */
    private List<FileStatus> listTree(Path dir) throws IOException {
        List<FileStatus> files = new ArrayList<>();
        Deque<Path> dirs = new ArrayDeque<>();
        dirs.push(dir);
        while (!dirs.isEmpty()) {
            FileStatus[] entries;
            try {
                entries = fs.listStatus(dirs.pop());
            } catch (FileNotFoundException e) {
                continue;
            }
            for (FileStatus f : entries) {
                if (f.isDirectory()) {
                    dirs.push(f.getPath());
                } else if (f.isFile()) {
                    files.add(f);
                }
            }
        }
        return files;
    }

    @Override
    public Store resolve(String path) {
        return path.isEmpty()
                ? this
                : new HadoopStore(
                        uri + "/" + StoreKeys.check(path, uri),
                        fs,
                        null,
                        conf,
                        path(path),
                        objectStore,
                        concurrency,
                        s3a);
    }

    /** Closes the file system this store opened; stores resolved from it or shared through a cache close nothing. */
    @Override
    public void close() {
        if (owned != null && closed.compareAndSet(false, true)) {
            try {
                owned.close();
            } catch (IOException e) {
                throw new StorageException(
                        "cannot close store " + uri + ": " + io.cubed.storage.IoErrors.describe(e), e);
            }
        }
    }

    private StorageException failure(String verb, String key, IOException e) {
        return new StorageException(
                "cannot " + verb + " '" + key + "' in " + uri + ": " + io.cubed.storage.IoErrors.describe(e), e);
    }

    @Override
    public String toString() {
        return "HadoopStore{" + uri + "}";
    }
}
