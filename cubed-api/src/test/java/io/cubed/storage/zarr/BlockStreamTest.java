package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.Elementwise;
import io.cubed.dtype.DType;
import io.cubed.error.CorruptDataException;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Stored chunks taken as streams of elements ({@link ZarrArray#streamChunk}, {@link BlockStream}): the same elements
 * as {@link ZarrArray#readChunk} for every step size, data type, Blosc filter and block size; chunks that are not
 * streamed; corrupt blocks and over-long requests refused.
 */
class BlockStreamTest {
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path tmp;

    private static Chunk data(DType t, int[] shape, long seed) {
        Random r = new Random(seed);
        double[] d = new double[Chunk.elementCount(shape)];
        for (int i = 0; i < d.length; i++) {
            d[i] = r.nextInt(7) == 0 ? 0 : r.nextDouble() * 200 - (t.kind() == DType.Kind.UNSIGNED ? 0 : 100);
        }
        return Elementwise.astype(Chunk.wrap(DType.FLOAT64, shape, d), t);
    }

    /** The chunk's elements taken from its stream in steps of 1, 7, 33, ... elements, into one array. */
    private static Object streamed(ChunkStore.ChunkStream s, DType t, int elements) {
        Object all = t.newArray(elements);
        int at = 0;
        int[] steps = {1, 7, 33, 1000};
        for (int i = 0; at < elements; i++) {
            int n = Math.min(steps[i % steps.length], elements - at);
            Object part = t.newArray(n);
            s.next(part, 0, n);
            System.arraycopy(part, 0, all, at * t.slotsPerElement(), n * t.slotsPerElement());
            at += n;
        }
        return all;
    }

    @Test
    void everyStreamGivesTheElementsReadChunkGives() {
        List<String> checked = new ArrayList<>();
        int[] shape = {9, 10, 12};
        int[] chunks = {4, 10, 12};
        for (DType t : new DType[] {DType.FLOAT64, DType.INT16, DType.COMPLEX64, DType.BOOL, DType.UINT8}) {
            Chunk d = data(t, shape, t.itemSizeBytes() * 31L + t.slotsPerElement());
            for (BloscShuffle shuffle :
                    new BloscShuffle[] {BloscShuffle.NOSHUFFLE, BloscShuffle.SHUFFLE, BloscShuffle.BITSHUFFLE}) {
                // Automatic blocks (one per chunk here); blocks of 128 and 512 bytes, which end inside rows.
                for (int blocksize : new int[] {0, 128, 512}) {
                    ZarrArray z = StoredArrays.blosc(d, chunks, shuffle, blocksize);
                    for (long i = 0; i < z.grid().numChunks(); i++) {
                        long[] c = z.grid().chunkCoordsOf(i);
                        ChunkStore.ChunkStream s = z.streamChunk(c, Long.MAX_VALUE);
                        String what = t + " " + shuffle + " blocks " + blocksize + " chunk " + Arrays.toString(c);
                        if (c[0] == 2) {
                            // The edge chunk (1 of 4 rows) is read whole.
                            assertThat(s).as(what).isNull();
                            continue;
                        }
                        Chunk whole = z.readChunk(c);
                        assertThat(s.nbytes()).as(what).isEqualTo(whole.nbytes());
                        assertThat(streamed(s, t, whole.size())).as(what).isEqualTo(whole.data());
                        assertThatThrownBy(() -> s.next(t.newArray(1), 0, 1))
                                .as(what)
                                .isInstanceOf(IllegalArgumentException.class)
                                .hasMessageContaining("asked for 1 more elements")
                                .hasMessageContaining("which has 0 left");
                        checked.add(what);
                    }
                }
            }
        }
        assertThat(checked).hasSize(5 * 3 * 3 * 2);
    }

    /**
     * zstd chunks stream too, decoded piece by piece in order: the same elements as a whole read for chunks of several
     * pieces, edge chunks read whole; a frame cut short or running past the chunk is refused naming the chunk, at the
     * piece where it shows.
     */
    @Test
    void zstdChunksStreamPieceByPieceAndCorruptFramesAreRefused() {
        // Chunks of 96 x 1000 float64: 768 kB, three pieces of 256 kB.
        int[] shape = {200, 1000};
        int[] chunks = {96, 1000};
        Chunk d = data(DType.FLOAT64, shape, 9);
        String url = "memory://block-stream-" + UUID.randomUUID() + "/z.zarr";
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {200, 1000}, chunks, DType.FLOAT64)
                        .compressor(new Compressor.Zstd(1, false))
                        .build());
        StoredArrays.write(z, d);
        for (long i = 0; i < 2; i++) {
            long[] c = z.grid().chunkCoordsOf(i);
            ChunkStore.ChunkStream s = z.streamChunk(c, Long.MAX_VALUE);
            assertThat(s).isInstanceOf(BlockStream.class);
            assertThat(streamed(s, DType.FLOAT64, 96 * 1000))
                    .isEqualTo(z.readChunk(c).doubles());
        }
        assertThat(z.streamChunk(new long[] {2, 0}, Long.MAX_VALUE))
                .as("the edge chunk")
                .isNull();
        io.cubed.storage.Store store = io.cubed.storage.fs.Stores.open(url);
        byte[] frame = store.get("1.0");
        store.put("1.0", Arrays.copyOf(frame, frame.length - 40));
        ChunkStore.ChunkStream cut = z.streamChunk(new long[] {1, 0}, Long.MAX_VALUE);
        double[] first = new double[32768];
        cut.next(first, 0, first.length);
        // The first piece decodes: the frame shows it is cut short only further on.
        assertThat(first).containsExactly(Arrays.copyOfRange(d.doubles(), 96 * 1000, 96 * 1000 + 32768));
        assertThatThrownBy(() -> cut.next(new double[96 * 1000 - 32768], 0, 96 * 1000 - 32768))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("corrupt chunk " + url + "/1.0");
        // A frame of a larger chunk: its content size is refused before any piece is decoded.
        byte[] larger = com.github.luben.zstd.Zstd.compress(new byte[96 * 1000 * 8 + 8], 1);
        store.put("0.0", larger);
        assertThatThrownBy(() -> z.streamChunk(new long[] {0, 0}, Long.MAX_VALUE))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("corrupt chunk " + url + "/0.0")
                .hasMessageContaining("expected 768000");
    }

    @Test
    void chunksThatAreNotBloscAreReadWholeAndAChunkNotStoredStreamsItsFillValue() {
        Chunk d = data(DType.FLOAT64, new int[] {8, 8}, 1);
        ZarrArray z = StoredArrays.blosc(d, new int[] {4, 8}, BloscShuffle.SHUFFLE, 0);
        assertThat(io.cubed.storage.fs.Stores.open(z.url()).get("1.0")).isNotNull();
        io.cubed.storage.fs.Stores.open(z.url()).delete("1.0");
        // The read that found no chunk is the only one: its fill value comes from memory.
        ChunkStore.ChunkStream missing = z.streamChunk(new long[] {1, 0}, Long.MAX_VALUE);
        assertThat(missing).isNotNull();
        double[] got = new double[32];
        missing.next(got, 0, 32);
        assertThat(got).containsOnly(z.fillValue().doubleValue());
        assertThat(z.streamChunk(new long[] {0, 0}, Long.MAX_VALUE)).isNotNull();
        // Uncompressed chunks are read whole (as are zlib, gzip, bz2 and LZ4 ones).
        ZarrArray plain = ZarrArray.create(
                "memory://block-stream-" + UUID.randomUUID() + "/y.zarr",
                ZarrCreateOptions.builder(new long[] {8, 8}, new int[] {4, 8}, DType.FLOAT64)
                        .compressor(null)
                        .build());
        plain.writeChunk(Chunk.allocate(DType.FLOAT64, new int[] {4, 8}), 0, 0);
        assertThat(plain.streamChunk(new long[] {0, 0}, Long.MAX_VALUE)).isNull();
    }

    @Test
    void blocksTooLargeForTheBudgetAreDecodedWholeFromTheBytesAlreadyRead() {
        Chunk d = data(DType.FLOAT64, new int[] {64, 64}, 3);
        // Blocks of 512 bytes: a block and the unshuffle's scratch block take 1024 bytes.
        ZarrArray z = StoredArrays.blosc(d, new int[] {64, 64}, BloscShuffle.SHUFFLE, 512);
        ChunkStore.ChunkStream whole = z.streamChunk(new long[] {0, 0}, 1023);
        assertThat(whole).isNotInstanceOf(BlockStream.class);
        assertThat(whole.nbytes()).isEqualTo(d.nbytes());
        assertThat(streamed(whole, DType.FLOAT64, d.size())).isEqualTo(d.doubles());
        assertThatThrownBy(() -> whole.next(new double[1], 0, 1)).hasMessageContaining("which has 0 left");
        ChunkStore.ChunkStream blocks = z.streamChunk(new long[] {0, 0}, 1024);
        assertThat(blocks).isInstanceOf(BlockStream.class);
        assertThat(streamed(blocks, DType.FLOAT64, d.size())).isEqualTo(d.doubles());
    }

    @Test
    void aCorruptBlockIsRefusedNamingTheChunk() {
        double[] v = new double[64 * 64];
        for (int i = 0; i < v.length; i++) {
            v[i] = (i % 50) * 0.5;
        }
        Chunk d = Chunk.wrap(DType.FLOAT64, new int[] {64, 64}, v);
        // Blocks of 512 bytes (64 elements; unsplit, so c-blosc keeps the size asked for): 64 blocks.
        ZarrArray z = StoredArrays.blosc(d, new int[] {64, 64}, BloscShuffle.SHUFFLE, 512);
        String key = "0.0";
        byte[] frame = io.cubed.storage.fs.Stores.open(z.url()).get(key);
        assertThat(frame[2] & 0x02).as("compressed, not stored as it is").isZero();
        // The offset of the third block points past the frame: the header is sound, the third block is not.
        java.nio.ByteBuffer.wrap(frame).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(16 + 8, frame.length + 100);
        io.cubed.storage.fs.Stores.open(z.url()).put(key, frame);
        ChunkStore.ChunkStream s = z.streamChunk(new long[] {0, 0}, Long.MAX_VALUE);
        double[] two = new double[2 * 64];
        s.next(two, 0, two.length);
        assertThat(two).containsExactly(Arrays.copyOf(v, two.length));
        assertThatThrownBy(() -> s.next(new double[1], 0, 1))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("corrupt chunk")
                .hasMessageContaining(key)
                .hasMessageContaining("blosc block 2");
    }

    @Test
    void aTaskReusesTheDecodedBlockScratchAndBoxesFromChunkToChunk() {
        // Four full chunks of 64 x 1024 float64 (512 kB) in blocks of 256 kB (the block size from which the decoder
        // keeps its own block buffers per thread): each stream holds a decoded block and a scratch block for the
        // unshuffle, each read in boxes a box array of 32768 elements (256 kB).
        int[] shape = {256, 1024};
        Chunk d = data(DType.FLOAT64, shape, 5);
        // On a local disk, whose store reads a chunk's bytes into an array recycled from chunk to chunk.
        ZarrArray z = StoredArrays.blosc(
                tmp.resolve("x.zarr").toString(), d, new int[] {64, 1024}, BloscShuffle.SHUFFLE, 256 << 10);
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        double[] target = new double[64 * 1024];
        double[] fromBoxes = new double[64 * 1024];
        long[] allocated = new long[2];
        try (io.cubed.chunk.ArrayRecycler.Scope scope = io.cubed.chunk.ArrayRecycler.open("streams", 1 << 22)) {
            for (long i = 0; i < z.grid().numChunks(); i++) {
                long[] c = z.grid().chunkCoordsOf(i);
                long before = mx.getThreadAllocatedBytes(tid);
                ChunkStore.ChunkStream s = z.streamChunk(c, Long.MAX_VALUE);
                for (int at = 0; at < target.length; at += 1024) {
                    s.next(target, at, 1024);
                }
                long afterStream = mx.getThreadAllocatedBytes(tid);
                z.readChunkInBoxes(
                        c,
                        (offset, box) ->
                                System.arraycopy(box.data(), 0, fromBoxes, offset[0] * 1024 + offset[1], box.size()));
                long afterBoxes = mx.getThreadAllocatedBytes(tid);
                if (i > 0) {
                    allocated[0] += afterStream - before;
                    allocated[1] += afterBoxes - afterStream;
                }
                double[] whole = z.readChunk(c).doubles();
                assertThat(target).as("chunk %d streamed", i).containsExactly(whole);
                assertThat(fromBoxes).as("chunk %d in boxes", i).containsExactly(whole);
            }
        }
        // Chunks after the first take the block, the scratch block, the box array and the stored bytes back: a few
        // small objects each, where fresh arrays would be 512 kB per stream and 256 kB per read in boxes.
        assertThat(allocated[0] / 3).as("bytes allocated per stream").isLessThan(16384);
        assertThat(allocated[1] / 3).as("bytes allocated per read in boxes").isLessThan(16384);
    }
}
