package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.CorruptDataException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Chunks written from streams of elements ({@link ZarrArray#writeChunk(ChunkStore.ChunkStream, long...)}): a zstd
 * array encodes a full-size chunk as the elements come, in its own byte order, with the stored frame the one the
 * library reads and the values the source's; edge chunks, Fortran order and other codecs gather the chunk first; empty
 * chunks are deleted when skipped; a stream of another dtype or size, and a corrupt source, are refused.
 */
class StreamedWritesTest {
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path tmp;

    /**
     * Where targets are made: in memory (whose puts take whole arrays) and in a local directory (whose puts write each
     * compressed piece as zstd makes it).
     */
    private String[] places() {
        return new String[] {
            "memory://streamed-" + UUID.randomUUID(),
            tmp.resolve(UUID.randomUUID().toString()).toString()
        };
    }

    private static Chunk data(DType t, int[] shape, long seed) {
        Random r = new Random(seed);
        double[] d = new double[Chunk.elementCount(shape)];
        for (int i = 0; i < d.length; i++) {
            d[i] = r.nextInt(5) == 0 ? i % 13 : r.nextDouble() * 100 - 50;
        }
        return io.cubed.chunk.Elementwise.astype(Chunk.wrap(DType.FLOAT64, shape, d), t);
    }

    private static ZarrArray target(String place, long[] shape, int[] chunks, DType t, String dtypeOrder, char order) {
        String url = place + "/" + UUID.randomUUID() + ".zarr";
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(shape, chunks, t)
                        .compressor(new Compressor.Zstd(3, false))
                        .build());
        if (dtypeOrder == null && order == 'C') {
            return z;
        }
        // Another byte order or memory order: the metadata rewritten as zarr-python would write it.
        String zarray = new String(Stores.open(url).get(".zarray"), java.nio.charset.StandardCharsets.UTF_8);
        if (dtypeOrder != null) {
            zarray = zarray.replace("\"<", "\"" + dtypeOrder);
        }
        if (order == 'F') {
            zarray = zarray.replace("\"order\": \"C\"", "\"order\": \"F\"")
                    .replace("\"order\":\"C\"", "\"order\":\"F\"");
        }
        Stores.open(url).put(".zarray", zarray.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        ZarrArray reopened = ZarrArray.open(url);
        assertThat(reopened.metadata().order().name()).isEqualTo(String.valueOf(order));
        return reopened;
    }

    @Test
    void aZstdArrayEncodesFullChunksAsTheirElementsCome() {
        int[] shape = {70, 300};
        int[] chunks = {32, 300};
        for (String place : places()) {
            for (DType t : new DType[] {DType.FLOAT64, DType.INT16, DType.COMPLEX64, DType.UINT8}) {
                for (String byteOrder : new String[] {null, ">"}) {
                    if (byteOrder != null && t.itemSizeBytes() == 1) {
                        continue;
                    }
                    Chunk d = data(t, shape, t.ordinal());
                    // Blocks of 4 kB: the stream decodes many of them per chunk.
                    ZarrArray source = StoredArrays.blosc(d, chunks, BloscShuffle.SHUFFLE, 4096);
                    ZarrArray target = target(place, new long[] {70, 300}, chunks, t, byteOrder, 'C');
                    assertThat(target.writesFromStreams()).isTrue();
                    for (long i = 0; i < source.grid().numChunks(); i++) {
                        long[] c = source.grid().chunkCoordsOf(i);
                        ChunkStore.ChunkStream s = source.streamChunk(c, Long.MAX_VALUE);
                        if (s == null) {
                            // The edge chunk: read whole, written through the default, which gathers a stream too.
                            s = ChunkStore.ChunkStream.of(source.readChunk(c));
                        }
                        target.writeChunk(s, c);
                    }
                    String what = place + " " + t + " " + (byteOrder == null ? "<" : byteOrder);
                    assertThat(target.readRegion(new long[] {0, 0}, shape).data())
                            .as(what)
                            .isEqualTo(d.data());
                    // The stored frame is zstd's own, with its content size, and holds the chunk's bytes in the byte
                    // order the metadata gives.
                    byte[] frame = Stores.open(target.url()).get("1.0");
                    int chunkBytes = 32 * 300 * t.itemSizeBytes();
                    assertThat(Zstd.getFrameContentSize(frame)).as(what).isEqualTo(chunkBytes);
                    byte[] raw = Zstd.decompress(frame, chunkBytes);
                    Chunk expected = Chunk.allocate(t, chunks);
                    Chunk.copyRegion(d, new int[] {32, 0}, expected, new int[2], chunks);
                    java.nio.ByteOrder bo =
                            byteOrder == null ? java.nio.ByteOrder.LITTLE_ENDIAN : java.nio.ByteOrder.BIG_ENDIAN;
                    assertThat(raw).as(what).isEqualTo(ElementBytes.encode(expected, bo, false));
                }
            }
        }
    }

    /**
     * A v3 array of {@code bytes} + {@code zstd} ({@code ZarrFormat.v3()}'s chain) takes streams as v2 does, with its
     * edge chunks gathered; a chain with a checksum after zstd, or Blosc, gathers every chunk.
     */
    @Test
    void aV3ArrayOfBytesAndZstdEncodesFullChunksAsTheirElementsCome() {
        int[] shape = {70, 300};
        int[] chunks = {32, 300};
        io.cubed.grid.ChunkGrid grid = io.cubed.grid.ChunkGrid.of(new long[] {70, 300}, chunks);
        for (String place : places()) {
            Chunk d = data(DType.FLOAT32, shape, 11);
            ZarrArray source = StoredArrays.blosc(d, chunks, BloscShuffle.SHUFFLE, 4096);
            ChunkStore target = ZarrFormat.v3()
                    .create(place + "/v3.zarr", grid, DType.FLOAT32, false, io.cubed.storage.StoreOptions.empty());
            assertThat(target.writesFromStreams()).as(place).isTrue();
            for (long i = 0; i < grid.numChunks(); i++) {
                long[] c = grid.chunkCoordsOf(i);
                ChunkStore.ChunkStream s = source.streamChunk(c, Long.MAX_VALUE);
                target.writeChunk(s != null ? s : ChunkStore.ChunkStream.of(source.readChunk(c)), c);
            }
            ChunkStore back = Zarr.open(place + "/v3.zarr", io.cubed.storage.StoreOptions.empty());
            assertThat(back.readRegion(new long[] {0, 0}, shape).floats())
                    .as(place)
                    .isEqualTo(d.floats());
            byte[] frame = Stores.open(place + "/v3.zarr").get("c/1/0");
            assertThat(Zstd.getFrameContentSize(frame)).isEqualTo(32 * 300 * 4);
            ChunkStore checked = ZarrFormat.v3(
                            List.of(new V3Codec.Bytes(false), new V3Codec.Zstd(3, false), new V3Codec.Crc32c()),
                            Scalar.zero())
                    .create(place + "/crc.zarr", grid, DType.FLOAT32, false, io.cubed.storage.StoreOptions.empty());
            assertThat(checked.writesFromStreams()).isFalse();
            checked.writeChunk(source.streamChunk(new long[] {0, 0}, Long.MAX_VALUE), 0, 0);
            assertThat(checked.readChunk(0, 0).floats())
                    .isEqualTo(source.readChunk(0, 0).floats());
        }
    }

    @Test
    void edgeChunksFortranOrderAndOtherCodecsGatherTheChunk() {
        int[] shape = {70, 30};
        int[] chunks = {32, 30};
        Chunk d = data(DType.FLOAT64, shape, 3);
        ZarrArray source = StoredArrays.blosc(d, chunks, BloscShuffle.SHUFFLE, 0);
        String place = places()[1];
        ZarrArray fortran = target(place, new long[] {70, 30}, chunks, DType.FLOAT64, null, 'F');
        assertThat(fortran.writesFromStreams()).isFalse();
        assertThat(source.writesFromStreams())
                .as("Blosc encodes blocks in any order")
                .isFalse();
        ZarrArray plain = target(place + "-c", new long[] {70, 30}, chunks, DType.FLOAT64, null, 'C');
        for (ZarrArray target : new ZarrArray[] {fortran, plain}) {
            for (long i = 0; i < source.grid().numChunks(); i++) {
                long[] c = source.grid().chunkCoordsOf(i);
                target.writeChunk(ChunkStore.ChunkStream.of(source.readChunk(c)), c);
            }
            assertThat(target.readRegion(new long[] {0, 0}, shape).doubles()).isEqualTo(d.doubles());
        }
    }

    @Test
    void anEmptyChunkIsDeletedWhenEmptyChunksAreSkipped() {
        int[] chunks = {16, 16};
        for (String place : places()) {
            ZarrArray target = target(place, new long[] {32, 16}, chunks, DType.FLOAT64, null, 'C')
                    .writeEmptyChunks(false);
            double fill = target.fillValue().doubleValue();
            Chunk empty = Chunk.full(DType.FLOAT64, Scalar.ofDouble(fill), chunks);
            Chunk almost = Chunk.full(DType.FLOAT64, Scalar.ofDouble(fill), chunks);
            almost.doubles()[255] = 1.5;
            target.writeChunk(ChunkStore.ChunkStream.of(almost), 0, 0);
            Stores.open(target.url()).put("1.0", new byte[] {1});
            target.writeChunk(ChunkStore.ChunkStream.of(empty), 1, 0);
            assertThat(Stores.open(target.url()).get("0.0")).isNotNull();
            assertThat(Stores.open(target.url()).get("1.0"))
                    .as("deleted, not written")
                    .isNull();
            assertThat(target.readChunk(0, 0).doubles()).isEqualTo(almost.doubles());
            ZarrArray writesAll = target.writeEmptyChunks(true);
            writesAll.writeChunk(ChunkStore.ChunkStream.of(empty), 1, 0);
            assertThat(Stores.open(target.url()).get("1.0")).isNotNull();
            assertThat(writesAll.readChunk(1, 0).doubles()).isEqualTo(empty.doubles());
        }
    }

    @Test
    void aStreamOfAnotherTypeOrSizeOrACorruptSourceIsRefusedAndNothingIsWritten() throws java.io.IOException {
        int[] chunks = {64, 64};
        for (String place : places()) {
            ZarrArray target = target(place, new long[] {64, 64}, chunks, DType.FLOAT64, null, 'C');
            assertThatThrownBy(() ->
                            target.writeChunk(ChunkStore.ChunkStream.of(Chunk.allocate(DType.FLOAT32, chunks)), 0, 0))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining(target.url())
                    .hasMessageContaining("float32");
            assertThatThrownBy(() ->
                            target.writeChunk(ChunkStore.ChunkStream.of(Chunk.allocate(DType.FLOAT64, 64, 63)), 0, 0))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("32256 bytes");
            // A source whose third block is corrupt: the error names the source's chunk, and the target has no chunk.
            double[] v = new double[64 * 64];
            Arrays.setAll(v, i -> (i % 50) * 0.5);
            ZarrArray source =
                    StoredArrays.blosc(Chunk.wrap(DType.FLOAT64, chunks, v), chunks, BloscShuffle.SHUFFLE, 512);
            byte[] frame = Stores.open(source.url()).get("0.0");
            java.nio.ByteBuffer.wrap(frame)
                    .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .putInt(16 + 8, frame.length + 100);
            Stores.open(source.url()).put("0.0", frame);
            assertThatThrownBy(() -> target.writeChunk(source.streamChunk(new long[] {0, 0}, Long.MAX_VALUE), 0, 0))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining(source.url());
            assertThat(Stores.open(target.url()).get("0.0")).isNull();
            assertThat(Stores.open(target.url()).list("")).containsExactly(".zarray");
            if (!place.startsWith("memory:")) {
                // Nor a temporary file of the failed write (which the store's listing would not show).
                try (java.util.stream.Stream<java.nio.file.Path> files =
                        java.nio.file.Files.list(java.nio.file.Path.of(target.url()))) {
                    assertThat(files.map(f -> f.getFileName().toString())).containsExactly(".zarray");
                }
            }
        }
    }
}
