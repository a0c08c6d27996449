package io.cubed.spark.sql;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local file system under the scheme {@code counting://ID/absolute/path}, recording the path of every file opened
 * for reading under test {@code ID}. Register it with the option {@code fs.counting.impl}; the record is static, so it
 * sees the reads of Spark's task threads in local mode.
 */
public final class CountingFileSystem extends RawLocalFileSystem {
    private static final ConcurrentHashMap<String, List<String>> OPENED = new ConcurrentHashMap<>();

    private URI uri;

    /** The paths opened under {@code id} so far (a live list). */
    static List<String> opened(String id) {
        return OPENED.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>());
    }

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        uri = URI.create("counting://" + name.getAuthority() + "/");
    }

    @Override
    public URI getUri() {
        return uri == null ? URI.create("counting:///") : uri;
    }

    @Override
    public String getScheme() {
        return "counting";
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        if (uri != null && uri.getAuthority() != null) {
            opened(uri.getAuthority()).add(f.toUri().getPath());
        }
        return super.open(f, bufferSize);
    }
}
