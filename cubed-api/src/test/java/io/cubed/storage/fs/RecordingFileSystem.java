package io.cubed.storage.fs;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local file system under the scheme {@code recording://host/absolute/path} (register it with {@code
 * fs.recording.impl}), recording the {@link Path} of every file opened for reading and every status asked for, as the
 * caller handed it over: what a Hadoop file system of another scheme (HDFS, ABFS) would be given.
 */
public final class RecordingFileSystem extends RawLocalFileSystem {
    /** Paths handed to {@code open} and {@code getFileStatus}, in order, by every instance. */
    static final List<Path> SEEN = new CopyOnWriteArrayList<>();

    /** Null while RawLocalFileSystem's constructor runs (it asks for the URI before this class's fields are set). */
    private URI uri;

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        uri = URI.create("recording://" + (name.getAuthority() == null ? "" : name.getAuthority()) + "/");
    }

    @Override
    public URI getUri() {
        return uri == null ? URI.create("recording:///") : uri;
    }

    @Override
    public String getScheme() {
        return "recording";
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        SEEN.add(f);
        return super.open(f, bufferSize);
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
        SEEN.add(f);
        return super.getFileStatus(f);
    }
}
