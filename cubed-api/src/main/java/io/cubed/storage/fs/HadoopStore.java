package io.cubed.storage.fs;

import io.cubed.error.StorageException;
import io.cubed.storage.Store;
import io.cubed.storage.StoreKeys;
import io.cubed.storage.StoreOptions;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * A {@link Store} on any Hadoop {@code FileSystem}: {@code s3a://}, {@code hdfs://}, {@code abfss://}, {@code gs://},
 * {@code file://}. The Hadoop configuration is built from the store options (every option is set on it as is), on top
 * of Hadoop's defaults.
 *
 * <p>Atomic puts: object stores ({@code s3a}, {@code gs}, {@code abfs(s)}, {@code wasb(s)}, {@code oss}) publish an
 * object only when its single upload completes, so values are written directly; on file systems a temporary file is
 * written and renamed over the target.
 */
public final class HadoopStore implements Store {
    private static final Set<String> OBJECT_STORE_SCHEMES =
            Set.of("s3a", "s3", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs", "oss", "cos", "cosn", "obs");

    private final String uri;
    private final FileSystem fs;
    private final Configuration conf;
    private final Path root;
    private final boolean objectStore;

    private HadoopStore(String uri, FileSystem fs, Configuration conf, Path root) {
        this.uri = uri;
        this.fs = fs;
        this.conf = conf;
        this.root = root;
        String scheme = fs.getScheme() == null ? "" : fs.getScheme().toLowerCase(Locale.ROOT);
        this.objectStore = OBJECT_STORE_SCHEMES.contains(scheme);
    }

    /** Opens {@code uri} through Hadoop's {@code FileSystem}, configured with {@code options}. */
    public static HadoopStore open(String uri, StoreOptions options) {
        Configuration conf = new Configuration();
        for (Map.Entry<String, String> e : options.asMap().entrySet()) {
            conf.set(e.getKey(), e.getValue());
        }
        String normalized = uri.endsWith("/") && uri.length() > 1 ? uri.substring(0, uri.length() - 1) : uri;
        try {
            URI u = new URI(normalized);
            FileSystem fs = FileSystem.get(u, conf);
            return new HadoopStore(normalized, fs, conf, new Path(u));
        } catch (Exception e) {
            throw new StorageException("cannot open store '" + uri + "' through Hadoop: " + e, e);
        }
    }

    @Override
    public String uri() {
        return uri;
    }

    @Override
    public boolean isObjectStore() {
        return objectStore;
    }

    private Path path(String key) {
        StoreKeys.check(key);
        return key.isEmpty() ? root : new Path(root, key);
    }

    @Override
    public byte[] get(String key) {
        Path p = path(key);
        try {
            FileStatus st = fs.getFileStatus(p);
            if (!st.isFile()) {
                return null;
            }
            long len = st.getLen();
            if (len > Integer.MAX_VALUE - 8) {
                throw new StorageException(
                        "'" + key + "' in " + uri + " has " + len + " bytes, more than one value " + "may hold");
            }
            byte[] buf = new byte[(int) len];
            try (FSDataInputStream in = fs.open(p)) {
                in.readFully(0, buf);
            }
            return buf;
        } catch (FileNotFoundException e) {
            return null;
        } catch (IOException e) {
            throw failure("read", key, e);
        }
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
        Path p = path(key);
        try (FSDataInputStream in = fs.open(p)) {
            byte[] buf = new byte[length];
            in.readFully(offset, buf);
            return buf;
        } catch (FileNotFoundException e) {
            return null;
        } catch (java.io.EOFException e) {
            throw new StorageException(
                    "cannot read bytes [" + offset + ", " + (offset + length) + ") of '" + key + "' in " + uri
                            + ": the value is shorter",
                    e);
        } catch (IOException e) {
            throw failure("read", key, e);
        }
    }

    @Override
    public void put(String key, byte[] value) {
        if (key.isEmpty()) {
            throw new StorageException("cannot write to the root of " + uri + ": a key is needed");
        }
        Path target = path(key);
        try {
            if (objectStore) {
                try (FSDataOutputStream out = fs.create(target, true)) {
                    out.write(value);
                }
                return;
            }
            Path tmp =
                    new Path(target.getParent(), LocalStore.TEMP_PREFIX + target.getName() + "-" + UUID.randomUUID());
            boolean moved = false;
            try {
                try (FSDataOutputStream out = fs.create(tmp, false)) {
                    out.write(value);
                }
                FileContext.getFileContext(fs.getUri(), conf).rename(tmp, target, Options.Rename.OVERWRITE);
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
        } catch (IOException e) {
            throw failure("write", key, e);
        }
    }

    @Override
    public boolean exists(String key) {
        try {
            return fs.getFileStatus(path(key)).isFile();
        } catch (FileNotFoundException e) {
            return false;
        } catch (IOException e) {
            throw failure("check", key, e);
        }
    }

    @Override
    public void delete(String key) {
        try {
            Path p = path(key);
            if (exists(key)) {
                fs.delete(p, false);
            }
        } catch (IOException e) {
            throw failure("delete", key, e);
        }
    }

    @Override
    public void deletePrefix(String prefix) {
        try {
            fs.delete(path(prefix), true);
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
            FileStatus st = fs.getFileStatus(start);
            if (st.isFile()) {
                return List.of(prefix);
            }
            String rootString = fs.makeQualified(root).toUri().getPath();
            RemoteIterator<LocatedFileStatus> it = fs.listFiles(start, true);
            while (it.hasNext()) {
                LocatedFileStatus f = it.next();
                if (f.getPath().getName().startsWith(LocalStore.TEMP_PREFIX)) {
                    continue;
                }
                String p = f.getPath().toUri().getPath();
                String rel = p.startsWith(rootString) ? p.substring(rootString.length()) : p;
                while (rel.startsWith("/")) {
                    rel = rel.substring(1);
                }
                keys.add(rel);
            }
        } catch (FileNotFoundException e) {
            return List.of();
        } catch (IOException e) {
            throw failure("list", prefix, e);
        }
        Collections.sort(keys);
        return keys;
    }

    @Override
    public Store resolve(String path) {
        return path.isEmpty() ? this : new HadoopStore(uri + "/" + StoreKeys.check(path), fs, conf, path(path));
    }

    private StorageException failure(String verb, String key, IOException e) {
        return new StorageException("cannot " + verb + " '" + key + "' in " + uri + ": " + e, e);
    }

    @Override
    public String toString() {
        return "HadoopStore{" + uri + "}";
    }
}
