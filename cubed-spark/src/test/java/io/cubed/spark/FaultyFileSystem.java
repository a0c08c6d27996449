package io.cubed.spark;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.Seekable;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The local file system under the scheme {@code faulty://ID/absolute/path}, injecting the faults that {@link Faults}
 * {@code ID} asks for into reads and writes of chunk files (not of {@code .zarray} and other metadata): a timeout on
 * the n-th read or write (a transient error: {@code SocketTimeoutException}), or flipped bytes on every read of one
 * key. Register it with the store option {@code fs.faulty.impl}; the counters are static, so they count across Spark's
 * task threads in local mode.
 */
public final class FaultyFileSystem extends RawLocalFileSystem {
    /** The faults of one test, and the reads and writes counted. */
    static final class Faults {
        final Set<Integer> failingReads = ConcurrentHashMap.newKeySet();
        final Set<Integer> failingWrites = ConcurrentHashMap.newKeySet();
        volatile String corruptKey;
        volatile boolean armed;
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger injected = new AtomicInteger();
    }

    private static final ConcurrentHashMap<String, Faults> REGISTRY = new ConcurrentHashMap<>();

    /** Set by {@link #initialize}; null while the super constructor runs (it asks for the URI). */
    private URI uri;

    /** The faults of test {@code id} (created on first use). */
    static Faults faults(String id) {
        return REGISTRY.computeIfAbsent(id, k -> new Faults());
    }

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        uri = URI.create("faulty://" + name.getAuthority() + "/");
    }

    @Override
    public URI getUri() {
        return uri == null ? URI.create("faulty:///") : uri;
    }

    @Override
    public String getScheme() {
        return "faulty";
    }

    private Faults armed() {
        Faults f = uri == null || uri.getAuthority() == null ? null : REGISTRY.get(uri.getAuthority());
        return f != null && f.armed ? f : null;
    }

    private static boolean isChunk(Path p) {
        return !p.getName().contains(".z");
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        Faults faults = armed();
        if (faults == null || !isChunk(f)) {
            return super.open(f, bufferSize);
        }
        int n = faults.reads.incrementAndGet();
        if (faults.failingReads.contains(n)) {
            faults.injected.incrementAndGet();
            throw new SocketTimeoutException("injected read timeout (read #" + n + " of " + f + ")");
        }
        if (f.getName().equals(faults.corruptKey)) {
            byte[] bytes;
            try (FSDataInputStream in = super.open(f, bufferSize)) {
                bytes = in.readAllBytes();
            }
            for (int i = 0; i < bytes.length; i += 7) {
                bytes[i] ^= (byte) 0x5a;
            }
            faults.injected.incrementAndGet();
            return new FSDataInputStream(new BytesStream(bytes));
        }
        return super.open(f, bufferSize);
    }

    private void beforeWrite(Path f) throws IOException {
        Faults faults = armed();
        if (faults != null && isChunk(f)) {
            int n = faults.writes.incrementAndGet();
            if (faults.failingWrites.contains(n)) {
                faults.injected.incrementAndGet();
                throw new SocketTimeoutException("injected write timeout (write #" + n + " of " + f + ")");
            }
        }
    }

    @Override
    public FSDataOutputStream create(
            Path f, boolean overwrite, int bufferSize, short replication, long blockSize, Progressable progress)
            throws IOException {
        beforeWrite(f);
        return super.create(f, overwrite, bufferSize, replication, blockSize, progress);
    }

    @Override
    public FSDataOutputStream create(
            Path f,
            FsPermission permission,
            boolean overwrite,
            int bufferSize,
            short replication,
            long blockSize,
            Progressable progress)
            throws IOException {
        beforeWrite(f);
        return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    }

    /** Bytes in memory as the seekable stream {@link FSDataInputStream} needs. */
    private static final class BytesStream extends ByteArrayInputStream implements Seekable, PositionedReadable {
        BytesStream(byte[] bytes) {
            super(bytes);
        }

        @Override
        public synchronized void seek(long p) throws IOException {
            if (p < 0 || p > count) {
                throw new EOFException("seek to " + p + " of " + count + " bytes");
            }
            pos = (int) p;
        }

        @Override
        public synchronized long getPos() {
            return pos;
        }

        @Override
        public boolean seekToNewSource(long targetPos) {
            return false;
        }

        @Override
        public synchronized int read(long position, byte[] b, int off, int len) {
            if (position >= count) {
                return -1;
            }
            int n = (int) Math.min(len, count - position);
            System.arraycopy(buf, (int) position, b, off, n);
            return n;
        }

        @Override
        public void readFully(long position, byte[] b, int off, int len) throws IOException {
            if (read(position, b, off, len) < len) {
                throw new EOFException("read of " + len + " bytes at " + position + " past the end (" + count + ")");
            }
        }

        @Override
        public void readFully(long position, byte[] b) throws IOException {
            readFully(position, b, 0, b.length);
        }
    }
}
