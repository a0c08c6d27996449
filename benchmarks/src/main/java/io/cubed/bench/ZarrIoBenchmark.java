package io.cubed.bench;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Chunk writes and reads through {@link ZarrArray} against raw file I/O of the same bytes, on local disk.
 *
 * <p>Each array has {@value #CHUNKS} float64 chunks of 8 MiB ({@link BenchData}). Two threads ({@value #THREADS}, one
 * per core of the reference machine) each handle their own half of the chunks per invocation: the Zarr cases call
 * {@link ZarrArray#writeChunk} / {@link ZarrArray#readChunk} (element encoding, compression, a temporary file renamed
 * into place), the raw cases {@link Files#write} / {@link Files#readAllBytes} of the uncompressed little-endian bytes,
 * one file per chunk. Files are overwritten in place, so every case after the first invocation rewrites existing
 * files; reads come from the page cache (the files were just written), so the figures measure the CPU cost of the
 * layer, not the disk. One JMH operation is one byte of uncompressed chunk data, so ops/s is bytes per second over both
 * threads. Temporary directories go under {@code java.io.tmpdir} (or the system property {@value #TMP_PROPERTY}) and
 * are deleted at the end of each trial.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(
        value = 1,
        jvmArgs = {"-Xms2g", "-Xmx2g", "--add-modules=jdk.incubator.vector"})
@Threads(ZarrIoBenchmark.THREADS)
public class ZarrIoBenchmark {
    /** Chunks per array, all written or read by every invocation of the threads together. */
    static final int CHUNKS = 32;
    /** Benchmark threads. */
    static final int THREADS = 2;
    /** Chunks each thread handles per invocation. */
    static final int CHUNKS_PER_THREAD = CHUNKS / THREADS;
    /** Uncompressed bytes each thread handles per invocation. */
    static final int BYTES_PER_INVOCATION = CHUNKS_PER_THREAD * BenchData.CHUNK_BYTES;
    /** System property naming the parent directory of the temporary directories. */
    static final String TMP_PROPERTY = "cubed.bench.tmp";

    /** Distinct chunk contents; chunk {@code i} holds content {@code i % VARIANTS}. */
    private static final int VARIANTS = 4;

    /** The chunk data, as float64 chunks for the Zarr cases and as little-endian bytes for the raw ones. */
    @State(Scope.Benchmark)
    public static class Data {
        Chunk[] chunks;
        byte[][] bytes;

        /** Generates the chunk contents. */
        @Setup(Level.Trial)
        public void setUp() {
            chunks = new Chunk[VARIANTS];
            bytes = new byte[VARIANTS][];
            for (int v = 0; v < VARIANTS; v++) {
                double[] field = BenchData.field(CodecBenchmark.SEED + v);
                chunks[v] = Chunk.wrap(DType.FLOAT64, new int[] {BenchData.ROWS, BenchData.COLS}, field);
                bytes[v] = BenchData.littleEndian(field);
            }
        }

        Chunk chunk(int i) {
            return chunks[i % VARIANTS];
        }

        byte[] bytes(int i) {
            return bytes[i % VARIANTS];
        }
    }

    /** A Zarr array of {@value #CHUNKS} chunks in a temporary directory, all written once before the trial. */
    @State(Scope.Benchmark)
    public static class ZarrState {
        /** The compressor, by its {@link BenchCodecs} name; {@code default} is the one Cubed writes with. */
        @Param({BenchCodecs.DEFAULT, BenchCodecs.NONE})
        public String compressor;

        Path dir;
        ZarrArray array;

        /** Creates the array and writes every chunk, so reads find them. */
        @Setup(Level.Trial)
        public void setUp(Data data) throws IOException {
            dir = newTempDir("zarr-" + compressor);
            try {
                ZarrCreateOptions options = ZarrCreateOptions.builder(
                                new long[] {(long) CHUNKS * BenchData.ROWS, BenchData.COLS},
                                new int[] {BenchData.ROWS, BenchData.COLS},
                                DType.FLOAT64)
                        .compressor(BenchCodecs.compressor(compressor))
                        .build();
                array = ZarrArray.create(dir.resolve("a.zarr").toString(), options);
                for (int i = 0; i < CHUNKS; i++) {
                    array.writeChunk(data.chunk(i), i, 0);
                }
            } catch (RuntimeException e) {
                // JMH does not tear down a state whose setup failed (e.g. a codec that is not available yet).
                deleteTree(dir);
                throw e;
            }
        }

        /** Deletes the array. */
        @TearDown(Level.Trial)
        public void tearDown() {
            deleteTree(dir);
        }
    }

    /** {@value #CHUNKS} raw files in a temporary directory, all written once before the trial. */
    @State(Scope.Benchmark)
    public static class RawState {
        Path[] files;
        Path dir;

        /** Writes every file, so reads find them. */
        @Setup(Level.Trial)
        public void setUp(Data data) throws IOException {
            dir = newTempDir("raw");
            try {
                files = new Path[CHUNKS];
                for (int i = 0; i < CHUNKS; i++) {
                    files[i] = dir.resolve(i + ".0");
                    Files.write(files[i], data.bytes(i));
                }
            } catch (IOException | RuntimeException e) {
                deleteTree(dir);
                throw e;
            }
        }

        /** Deletes the files. */
        @TearDown(Level.Trial)
        public void tearDown() {
            deleteTree(dir);
        }
    }

    /** The chunks of one benchmark thread: {@value #CHUNKS_PER_THREAD} consecutive ones starting at {@link #first}. */
    @State(Scope.Thread)
    public static class Slice {
        int first;

        /** Picks this thread's half. */
        @Setup(Level.Trial)
        public void setUp(ThreadParams threads) {
            first = threads.getThreadIndex() * CHUNKS_PER_THREAD;
        }
    }

    /** Writes this thread's chunks through {@link ZarrArray#writeChunk}. */
    @Benchmark
    @OperationsPerInvocation(BYTES_PER_INVOCATION)
    public void zarrWrite(ZarrState zarr, Data data, Slice slice) {
        for (int i = slice.first; i < slice.first + CHUNKS_PER_THREAD; i++) {
            zarr.array.writeChunk(data.chunk(i), i, 0);
        }
    }

    /** Writes this thread's raw chunk bytes with {@link Files#write}. */
    @Benchmark
    @OperationsPerInvocation(BYTES_PER_INVOCATION)
    public void rawWrite(RawState raw, Data data, Slice slice) throws IOException {
        for (int i = slice.first; i < slice.first + CHUNKS_PER_THREAD; i++) {
            Files.write(raw.files[i], data.bytes(i));
        }
    }

    /** Reads this thread's chunks through {@link ZarrArray#readChunk}. */
    @Benchmark
    @OperationsPerInvocation(BYTES_PER_INVOCATION)
    public void zarrRead(ZarrState zarr, Slice slice, Blackhole bh) {
        for (int i = slice.first; i < slice.first + CHUNKS_PER_THREAD; i++) {
            bh.consume(zarr.array.readChunk(i, 0));
        }
    }

    /** Reads this thread's raw chunk files with {@link Files#readAllBytes}. */
    @Benchmark
    @OperationsPerInvocation(BYTES_PER_INVOCATION)
    public void rawRead(RawState raw, Slice slice, Blackhole bh) throws IOException {
        for (int i = slice.first; i < slice.first + CHUNKS_PER_THREAD; i++) {
            bh.consume(Files.readAllBytes(raw.files[i]));
        }
    }

    static Path newTempDir(String prefix) throws IOException {
        String parent = System.getProperty(TMP_PROPERTY);
        String name = "cubed-bench-" + prefix + "-";
        if (parent == null || parent.isEmpty()) {
            return Files.createTempDirectory(name);
        }
        Path p = Path.of(parent);
        Files.createDirectories(p);
        return Files.createTempDirectory(p, name);
    }

    static void deleteTree(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the benchmark directory " + root, e);
        }
    }
}
