package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.memory.HeapProbe;
import io.cubed.storage.StoreOptions;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Zarr v3 chunk reads and writes checkpoint the heap ({@link HeapProbe}) where they hold the most, as Zarr v2's do: the
 * peaks are the buffers counted by hand, and equal those of the same v2 read or write.
 */
class ZarrV3HeapProbeTest {
    private static final int MB = 1 << 20;
    private static final int ROWS = 1024;
    private static final int COLS = 1024;
    private static final long CHUNK = (long) ROWS * COLS * 8; // one float64 chunk: 8 MB

    @TempDir
    Path tmp;

    private static Chunk values() {
        Chunk c = Chunk.allocate(DType.FLOAT64, ROWS, COLS);
        double[] d = c.doubles();
        for (int i = 0; i < d.length; i++) {
            d[i] = i * 0.5;
        }
        return c;
    }

    private ZarrV3Array v3(String name, List<V3Codec> codecs) {
        ZarrV3Metadata m = ZarrV3Metadata.create(
                new long[] {ROWS, COLS}, new int[] {ROWS, COLS}, DType.FLOAT64, Scalar.zero(), codecs);
        return ZarrV3Array.create(tmp.resolve(name).toString(), m, false, StoreOptions.empty());
    }

    private ZarrArray v2(String name, Compressor compressor) {
        return ZarrArray.create(
                tmp.resolve(name).toString(),
                ZarrCreateOptions.builder(new long[] {ROWS, COLS}, new int[] {ROWS, COLS}, DType.FLOAT64)
                        .compressor(compressor)
                        .build());
    }

    /**
     * The measurement of {@code body} (its peak and its checkpoints) with the median peak of three, each after idle
     * recycler pools are released: the probe counts every live object of this JVM, and background threads of the tests
     * that ran before in it can free or allocate a few MB during one measurement (HeapProbeTest).
     */
    private static long[] median(Runnable body) {
        long[][] runs = new long[3][];
        for (int i = 0; i < runs.length; i++) {
            ArrayRecycler.releaseIdle();
            try (HeapProbe.Measurement m = HeapProbe.begin()) {
                body.run();
                runs[i] = new long[] {m.peakBytes(), m.checkpoints()};
            }
        }
        Arrays.sort(runs, Comparator.comparingLong(r -> r[0]));
        return runs[1];
    }

    /** The peak of writing a chunk made inside the measurement (so that the chunk counts), and its checkpoints. */
    private static long[] measureWrite(io.cubed.storage.ChunkStore a) {
        return median(() -> a.writeChunk(values(), 0, 0));
    }

    private static long[] measureRead(io.cubed.storage.ChunkStore a) {
        return median(() -> {
            Chunk c = a.readChunk(0, 0);
            assertThat(c.doubles()[ROWS * COLS - 1]).isEqualTo((ROWS * COLS - 1) * 0.5);
        });
    }

    @Test
    void uncompressedWriteAndReadHoldTheChunkAndItsBytesWhereZarrV2HoldsTheChunkAlone() {
        ZarrV3Array a = v3("plain3", List.of(new V3Codec.Bytes(false)));
        ZarrArray b = v2("plain2", null);
        long[] w3 = measureWrite(a);
        long[] w2 = measureWrite(b);
        // One checkpoint per write, holding the chunk and its bytes (uncompressed, the stored bytes are those bytes).
        assertThat(w3[1]).isEqualTo(1);
        assertThat(w3[0]).isBetween(2 * CHUNK - MB, 2 * CHUNK + MB);
        // Zarr v2 writes an uncompressed chunk to a local file a slice at a time from its elements
        // (ChunkBytes.writeInSlices), and reads it back so (SlicedRawReads): the chunk alone, no array of its bytes.
        assertThat(w2[1]).isEqualTo(1);
        assertThat(w2[0]).isBetween(CHUNK - MB, CHUNK + MB);
        long[] r3 = measureRead(a);
        long[] r2 = measureRead(b);
        // One checkpoint per read, holding the stored bytes and the decoded chunk.
        assertThat(r3[1]).isEqualTo(1);
        assertThat(r3[0]).isBetween(2 * CHUNK - MB, 2 * CHUNK + MB);
        assertThat(r2[1]).isEqualTo(1);
        assertThat(r2[0]).isBetween(CHUNK - MB, CHUNK + MB);
    }

    @Test
    void compressedReadsCountTheDecompressedBytesToo() {
        ZarrV3Array a = v3("gzip3", List.of(new V3Codec.Bytes(false), new V3Codec.Gzip(1)));
        ZarrArray b = v2("gzip2", new Compressor.Gzip(1));
        measureWrite(a);
        measureWrite(b);
        long[] r3 = measureRead(a);
        long[] r2 = measureRead(b);
        // The stored bytes (small: the values compress well), the decompressed bytes and the chunk: at least two
        // chunks' worth, which a checkpoint after the decompressed bytes are dropped would not see.
        assertThat(r3[1]).isEqualTo(1);
        assertThat(r3[0]).isBetween(2 * CHUNK - MB, 3 * CHUNK);
        assertThat(r3[0]).isBetween(r2[0] - MB, r2[0] + MB);
    }

    /**
     * zstd decompresses piece by piece straight into the chunk's elements: a read holds the stored bytes (small here)
     * and the chunk, not the decompressed bytes besides, in both versions; and a write holds the chunk and the
     * compressed bytes, not the raw bytes.
     */
    @Test
    void zstdReadsAndWritesHoldNoArrayOfTheRawBytes() {
        ZarrV3Array a = v3("zstd3", List.of(new V3Codec.Bytes(false), new V3Codec.Zstd(1, false)));
        ZarrArray b = v2("zstd2", new Compressor.Zstd(1, false));
        long[] w3 = measureWrite(a);
        long[] w2 = measureWrite(b);
        assertThat(w3[0]).isLessThan(2 * CHUNK - MB);
        assertThat(w2[0]).isLessThan(2 * CHUNK - MB);
        long[] r3 = measureRead(a);
        long[] r2 = measureRead(b);
        assertThat(r3[1]).isEqualTo(1);
        assertThat(r3[0]).isBetween(CHUNK - MB, CHUNK + 2 * MB);
        assertThat(r3[0]).isBetween(r2[0] - MB, r2[0] + MB);
    }

    @Test
    void shardedInnerChunkReadsHoldOneInnerChunkNotTheShard() {
        int innerRows = ROWS / 4; // inner chunks of 256 x 1024 float64: 2 MB
        long inner = CHUNK / 4;
        ZarrV3Array a = v3("sharded", ZarrV3Metadata.sharding(new int[] {innerRows, COLS}, List.of()));
        long[] w = measureWrite(a);
        // To a local file the shard goes as its inner chunks are encoded: the chunk and one inner chunk, at one
        // checkpoint (after the first inner chunk; the others hold as much), never the shard's bytes whole.
        assertThat(w[1]).isEqualTo(1);
        assertThat(w[0]).isBetween(CHUNK + inner - MB, CHUNK + inner + MB);
        long[] innerRead = median(() -> {
            Chunk c = a.readInnerChunk(3, 0);
            assertThat(c.shape()).containsExactly(innerRows, COLS);
            assertThat(c.doubles()[0]).isEqualTo(3 * innerRows * COLS * 0.5);
        });
        assertThat(innerRead[1]).isEqualTo(1);
        // The inner chunk's bytes and the decoded inner chunk: 2 x 2 MB, far from the 8 MB shard.
        assertThat(innerRead[0]).isBetween(2 * inner - MB, 2 * inner + MB);
        long[] regionRead = median(() -> {
            Chunk c = a.readRegion(new long[] {ROWS / 2, 0}, new int[] {ROWS / 2, COLS});
            assertThat(c.doubles()[0]).isEqualTo(ROWS / 2 * COLS * 0.5);
        });
        // One checkpoint per inner chunk read (local disk: one at a time); each holds the region (4 MB) and the inner
        // chunk's bytes (2 MB), decoded straight into the region, with no decoded inner chunk of its own; the second
        // perhaps also the first inner chunk's bytes (2 MB) not yet collected.
        assertThat(regionRead[1]).isEqualTo(2);
        assertThat(regionRead[0]).isBetween(3 * inner - MB, 4 * inner + MB);
        long[] r = measureRead(a);
        // A whole-shard read: the stored shard and the decoded shard at one checkpoint.
        assertThat(r[1]).isEqualTo(1);
        assertThat(r[0]).isBetween(2 * CHUNK - MB, 2 * CHUNK + 2 * MB);
        assertThat(Arrays.equals(a.innerGrid().chunkShape(), new int[] {innerRows, COLS}))
                .isTrue();
    }

    /**
     * On an object store a region read takes its inner chunks' bytes in batches of up to the region's bytes, read
     * together: it holds the region and one batch, within the projection's copies for it.
     */
    @Test
    void shardedRegionReadsOnObjectStoresHoldTheRegionAndOneBatch() {
        int innerRows = ROWS / 4; // inner chunks of 256 x 1024 float64: 2 MB
        long inner = CHUNK / 4;
        ZarrV3Array local = v3("sharded-objects", ZarrV3Metadata.sharding(new int[] {innerRows, COLS}, List.of()));
        local.writeChunk(values(), 0, 0);
        io.cubed.storage.Store real = io.cubed.storage.fs.Stores.supplier(local.url(), StoreOptions.empty())
                .open();
        io.cubed.storage.Store objects = new io.cubed.storage.ForwardingStore(real) {
            @Override
            public boolean isObjectStore() {
                return true;
            }

            @Override
            public int concurrency() {
                return 4;
            }
        };
        ZarrV3Array a = new ZarrV3Array(local.url(), () -> objects, local.metadata());
        int[] region = {ROWS / 2, COLS};
        long regionBytes = CHUNK / 2;
        // Hand-computed: two copies of a batch of the region's 4 MB (an object store's read copies), and one inner
        // chunk's 2 MB for its bytes copied out or decoded on its own: 10 MB, in 4 MB regions rounded up.
        assertThat(a.regionReadCopies(region)).isEqualTo(3);
        long[] read = median(() -> {
            Chunk c = a.readRegion(new long[] {ROWS / 2, 0}, region);
            assertThat(c.doubles()[0]).isEqualTo(ROWS / 2 * COLS * 0.5);
            assertThat(c.doubles()[ROWS / 2 * COLS - 1]).isEqualTo((ROWS * COLS - 1) * 0.5);
        });
        // Inner chunks 2 and 3 lie next to each other in the shard: one batch of one range, one checkpoint, holding
        // the region (4 MB) and the batch's bytes (4 MB) into which both were decoded straight.
        assertThat(read[1]).isEqualTo(1);
        assertThat(read[0]).isBetween(2 * regionBytes - MB, 2 * regionBytes + MB);
        assertThat(read[0]).isLessThan(3 * regionBytes + inner);
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();

    /** Bytes {@code body} allocates on this thread: the least of three runs (the first may load classes). */
    private static long allocated(Runnable body) {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            ArrayRecycler.releaseIdle();
            long before = THREADS.getCurrentThreadAllocatedBytes();
            body.run();
            least = Math.min(least, THREADS.getCurrentThreadAllocatedBytes() - before);
        }
        return least;
    }

    /**
     * A whole shard is read with its inner chunks decoded straight into it: the stored shard and the shard, no inner
     * chunk decoded on its own (before: each inner chunk's bytes copied out and decoded into an array of its own,
     * 24 MB allocated for this 8 MB shard of four inner chunks; the projection counted neither); compressed inner
     * chunks add their compressed bytes and, for gzip, their decompressed bytes. A shard is written to a local file as
     * its inner chunks are encoded (one inner chunk's array), and elsewhere into one array of its size beside the
     * encoded inner chunks (before: grown in two ByteArrayOutputStreams and copied out of each: 57 MB to a local file).
     */
    @Test
    void shardsAreDecodedInPlaceAndWrittenWithoutGrowingBuffers() {
        int innerRows = ROWS / 4;
        long inner = CHUNK / 4;
        Chunk data = values();
        ZarrV3Array plain = v3("plain", ZarrV3Metadata.sharding(new int[] {innerRows, COLS}, List.of()));
        assertThat(allocated(() -> plain.writeChunk(data, 0, 0))).isBetween(inner, inner + MB);
        assertThat(allocated(() -> plain.readChunk(0, 0))).isBetween(2 * CHUNK, 2 * CHUNK + MB);
        assertThat(plain.readChunk(0, 0).doubles()).isEqualTo(data.doubles());

        ZarrV3Array gzip =
                v3("gzip", ZarrV3Metadata.sharding(new int[] {innerRows, COLS}, List.of(new V3Codec.Gzip(1))));
        gzip.writeChunk(data, 0, 0);
        long stored = io.cubed.storage.fs.Stores.open(tmp.resolve("gzip").toString())
                .size(gzip.metadata().chunkKey(new long[] {0, 0}));
        // The stored shard, the shard, and per inner chunk its compressed bytes (a quarter of the stored shard) and its
        // decompressed bytes.
        assertThat(allocated(() -> gzip.readChunk(0, 0)))
                .isBetween(CHUNK + 2 * stored, CHUNK + 2 * stored + CHUNK + MB);
        assertThat(gzip.readChunk(0, 0).doubles()).isEqualTo(data.doubles());

        String memory = "memory://" + getClass().getSimpleName() + "-" + java.util.UUID.randomUUID() + "/plain";
        ZarrV3Array inMemory = ZarrV3Array.create(memory, plain.metadata(), false, StoreOptions.empty());
        // The inner chunk, the element bytes of each (gathered: a shard's worth), the shard's array, and the memory
        // store's own copy of it (an object store's client holds the body once more likewise: BufferCopies).
        assertThat(allocated(() -> inMemory.writeChunk(data, 0, 0)))
                .isBetween(3 * CHUNK + inner, 3 * CHUNK + inner + MB);
        assertThat(inMemory.readChunk(0, 0).doubles()).isEqualTo(data.doubles());
    }
}
