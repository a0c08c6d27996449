package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.CorruptDataException;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chunks moved as their stored bytes ({@link ChunkStore#chunkEncoding}, {@link ChunkStore#readStoredChunk}, {@link
 * ChunkStore#writeStoredChunk}): arrays that store chunks alike have equal encodings and any other difference (version,
 * codec, byte order, memory order, chunk shape) makes them unequal; bytes moved read back as the source's values; a
 * chunk that its codec's header shows cut short, or of the wrong size, is refused naming it; a chunk not stored is
 * null.
 */
class StoredChunkBytesTest {
    @TempDir
    java.nio.file.Path tmp;

    private static Chunk data(int rows, int cols) {
        Random r = new Random(rows * 31L + cols);
        double[] d = new double[rows * cols];
        Arrays.setAll(d, i -> i % 7 == 0 ? 1.0 : r.nextDouble());
        return Chunk.wrap(DType.FLOAT64, new int[] {rows, cols}, d);
    }

    private ZarrArray v2(String name, Compressor compressor, char order, String byteOrder) {
        String url = tmp.resolve(name).toString();
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {10, 12}, new int[] {4, 12}, DType.FLOAT64)
                        .compressor(compressor)
                        .build());
        if (order == 'C' && byteOrder.equals("<")) {
            return z;
        }
        String zarray = new String(Stores.open(url).get(".zarray"), java.nio.charset.StandardCharsets.UTF_8)
                .replace("\"<f8\"", "\"" + byteOrder + "f8\"")
                .replaceAll("\"order\":\\s*\"C\"", "\"order\": \"" + order + "\"");
        Stores.open(url).put(".zarray", zarray.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return ZarrArray.open(url);
    }

    @Test
    void arraysThatStoreChunksAlikeHaveEqualEncodingsAndNoOthers() {
        Compressor lz4 = new Compressor.Blosc(io.cubed.storage.zarr.blosc.BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0);
        ZarrArray a = v2("a", lz4, 'C', "<");
        assertThat(a.chunkEncoding()).isEqualTo(v2("b", lz4, 'C', "<").chunkEncoding());
        assertThat(a.chunkEncoding())
                .isNotEqualTo(v2("c", new Compressor.Zstd(3, false), 'C', "<").chunkEncoding());
        assertThat(a.chunkEncoding()).isNotEqualTo(v2("d", lz4, 'F', "<").chunkEncoding());
        assertThat(a.chunkEncoding()).isNotEqualTo(v2("e", lz4, 'C', ">").chunkEncoding());
        ZarrArray otherChunks = ZarrArray.create(
                tmp.resolve("f").toString(),
                ZarrCreateOptions.builder(new long[] {10, 12}, new int[] {5, 12}, DType.FLOAT64)
                        .compressor(lz4)
                        .build());
        assertThat(a.chunkEncoding()).isNotEqualTo(otherChunks.chunkEncoding());
        ChunkGrid grid = ChunkGrid.of(new long[] {10, 12}, new int[] {4, 12});
        ChunkStore v3 =
                ZarrFormat.v3().create(tmp.resolve("g").toString(), grid, DType.FLOAT64, false, StoreOptions.empty());
        ChunkStore v3b =
                ZarrFormat.v3().create(tmp.resolve("h").toString(), grid, DType.FLOAT64, false, StoreOptions.empty());
        assertThat(v3.chunkEncoding()).isEqualTo(v3b.chunkEncoding()).isNotEqualTo(a.chunkEncoding());
    }

    @Test
    void bytesMovedReadBackAsTheSourcesValuesAndMissingChunksStayMissing() {
        Chunk d = data(10, 12);
        for (Compressor c : new Compressor[] {
            new Compressor.Blosc(io.cubed.storage.zarr.blosc.BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0),
            new Compressor.Zstd(3, false),
            new Compressor.Zlib(1),
            null
        }) {
            String name = String.valueOf(c).replaceAll("[^A-Za-z0-9]", "");
            ZarrArray src = v2("src" + name, c, 'C', "<");
            StoredArrays.write(src, d);
            Stores.open(src.url()).delete("1.0");
            ZarrArray dst = v2("dst" + name, c, 'C', "<");
            for (long i = 0; i < src.grid().numChunks(); i++) {
                long[] k = src.grid().chunkCoordsOf(i);
                Store.Bytes b = src.readStoredChunk(k);
                if (i == 1) {
                    assertThat(b).as("not stored").isNull();
                    continue;
                }
                dst.writeStoredChunk(k, b);
            }
            assertThat(Stores.open(dst.url()).get("1.0")).isNull();
            assertThat(Stores.open(dst.url()).get("2.0"))
                    .isEqualTo(Stores.open(src.url()).get("2.0"));
            assertThat(dst.readRegion(new long[] {0, 0}, new int[] {10, 12}).doubles())
                    .as(name)
                    .isEqualTo(src.readRegion(new long[] {0, 0}, new int[] {10, 12})
                            .doubles());
        }
        ChunkGrid grid = ChunkGrid.of(new long[] {10, 12}, new int[] {4, 12});
        ChunkStore v3 =
                ZarrFormat.v3().create(tmp.resolve("v3").toString(), grid, DType.FLOAT64, false, StoreOptions.empty());
        StoredArrays.write(v3, d);
        ChunkStore v3b =
                ZarrFormat.v3().create(tmp.resolve("v3b").toString(), grid, DType.FLOAT64, false, StoreOptions.empty());
        for (long i = 0; i < grid.numChunks(); i++) {
            long[] k = grid.chunkCoordsOf(i);
            v3b.writeStoredChunk(k, v3.readStoredChunk(k));
        }
        assertThat(v3b.readRegion(new long[] {0, 0}, new int[] {10, 12}).doubles())
                .isEqualTo(d.doubles());
    }

    @Test
    void aChunkItsHeaderShowsCutShortOrOfAnotherSizeIsRefusedNamingIt() {
        Chunk d = data(10, 12);
        ZarrArray blosc = v2(
                "blosc",
                new Compressor.Blosc(io.cubed.storage.zarr.blosc.BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0),
                'C',
                "<");
        StoredArrays.write(blosc, d);
        byte[] frame = Stores.open(blosc.url()).get("0.0");
        Stores.open(blosc.url()).put("0.0", Arrays.copyOf(frame, frame.length - 3));
        assertThatThrownBy(() -> blosc.readStoredChunk(new long[] {0, 0}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("corrupt chunk " + blosc.url() + "/0.0")
                .hasMessageContaining("truncated");
        ZarrArray zstd = v2("zstd", new Compressor.Zstd(3, false), 'C', "<");
        StoredArrays.write(zstd, d);
        // A frame of another chunk size: a 2-row chunk's bytes compressed alone.
        byte[] small = com.github.luben.zstd.Zstd.compress(new byte[2 * 12 * 8], 3);
        Stores.open(zstd.url()).put("1.0", small);
        assertThatThrownBy(() -> zstd.readStoredChunk(new long[] {1, 0}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining(zstd.url() + "/1.0")
                .hasMessageContaining("decodes to 192 bytes, expected 384");
        ZarrArray raw = v2("raw", null, 'C', "<");
        StoredArrays.write(raw, d);
        Stores.open(raw.url()).put("2.0", new byte[100]);
        assertThatThrownBy(() -> raw.readStoredChunk(new long[] {2, 0}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining(raw.url() + "/2.0")
                .hasMessageContaining("100 bytes");
        ChunkGrid grid = ChunkGrid.of(new long[] {10, 12}, new int[] {4, 12});
        ChunkStore v3 = ZarrFormat.v3(List.of(new V3Codec.Bytes(false), new V3Codec.Zstd(3, false)), Scalar.zero())
                .create(tmp.resolve("v3").toString(), grid, DType.FLOAT64, false, StoreOptions.empty());
        StoredArrays.write(v3, d);
        Stores.open(v3.url()).put("c/0/0", small);
        assertThatThrownBy(() -> v3.readStoredChunk(new long[] {0, 0}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("c/0/0")
                .hasMessageContaining("expected 384");
    }
}
