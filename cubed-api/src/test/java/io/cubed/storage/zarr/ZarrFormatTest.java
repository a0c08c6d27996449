package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.blosc.BloscCname;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The format of an existing array, and the formats derived from it for copies: other version, codec, fill value. */
class ZarrFormatTest {
    @TempDir
    Path tmp;

    private static final StoreOptions NONE = StoreOptions.empty();

    @Test
    void theFormatOfAV3ArrayKeepsItsCodecsFillAndKeysAndConvertsToV2() {
        ZarrV3Metadata m = ZarrV3Metadata.create(
                new long[] {6, 4},
                new int[] {4, 4},
                DType.INT16,
                Scalar.ofLong(-1),
                List.of(new V3Codec.Bytes(true), new V3Codec.Gzip(4), new V3Codec.Crc32c()),
                true,
                ".");
        ZarrV3Array a = ZarrV3Array.create(tmp.resolve("a").toString(), m, false, NONE);
        ZarrFormat f = ZarrFormat.of(a);
        assertThat(f.version()).isEqualTo(3);
        assertThat(f.compressor()).isEqualTo(new Compressor.Gzip(4));
        ChunkStore copy = f.create(tmp.resolve("copy").toString(), a.grid(), a.dtype(), false, NONE);
        assertThat(((ZarrV3Array) copy).metadata()).isEqualTo(m);
        assertThat(f.v3Metadata("x", m.shape(), m.chunks(), m.dtype())).isEqualTo(m);

        ZarrFormat v2 = f.withVersion(2);
        ZarrV2Metadata m2 = v2.v2Metadata(m.shape(), m.chunks(), m.dtype());
        assertThat(m2.compressor()).isEqualTo(new Compressor.Gzip(4));
        assertThat(m2.fillValue().longValue()).isEqualTo(-1);
        assertThat(m2.dimensionSeparator()).isEqualTo(".");
        assertThat(f.withCompressor(null).withVersion(2).compressor()).isNull();
    }

    @Test
    void theFormatOfAV2ArrayConvertsToV3WithItsCompressorAsACodec() {
        ZarrArray a = ZarrArray.create(
                tmp.resolve("v2").toString(),
                ZarrCreateOptions.builder(new long[] {5}, new int[] {2}, DType.FLOAT32)
                        .compressor(new Compressor.Blosc(BloscCname.ZSTD, 3, BloscShuffle.AUTOSHUFFLE, 0))
                        .fillValue(null)
                        .dimensionSeparator("/")
                        .build());
        ZarrFormat f = ZarrFormat.of(a);
        assertThat(f.fillValue()).isNull();
        assertThat(f.v2Metadata(new long[] {5}, new int[] {2}, DType.FLOAT32)).isEqualTo(a.metadata());
        ZarrV3Metadata m3 = f.withVersion(3).v3Metadata("x", new long[] {5}, new int[] {2}, DType.FLOAT32);
        // typesize is the item size; v3 has no autoshuffle; the missing fill value is zero; default chunk keys.
        assertThat(m3.codecs())
                .containsExactly(
                        new V3Codec.Bytes(false), new V3Codec.Blosc(BloscCname.ZSTD, 3, BloscShuffle.SHUFFLE, 4, 0));
        assertThat(m3.fillValue().doubleValue()).isZero();
        assertThat(m3.chunkKey(2)).isEqualTo("c/2");
        // Another data type: blosc's typesize follows it.
        assertThat(f.withVersion(3)
                        .v3Metadata("x", new long[] {5}, new int[] {2}, DType.INT64)
                        .codecs())
                .contains(new V3Codec.Blosc(BloscCname.ZSTD, 3, BloscShuffle.SHUFFLE, 8, 0));
        assertThatThrownBy(() -> f.withCompressor(new Compressor.Zlib(1)).withVersion(3))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("zlib")
                .hasMessageContaining("gzip, zstd or blosc");
    }

    @Test
    void anotherCompressorReplacesTheCompressionInsideShardsAndKeepsChecksums() {
        List<V3Codec> chain = List.of(new V3Codec.Sharding(
                List.of(2, 3),
                List.of(new V3Codec.Bytes(false), new V3Codec.Zstd(1, true), new V3Codec.Crc32c()),
                List.of(new V3Codec.Bytes(false), new V3Codec.Crc32c()),
                true));
        ZarrFormat f = ZarrFormat.v3(chain, Scalar.zero()).withCompressor(new Compressor.Gzip(2));
        assertThat(f.innerChunks()).containsExactly(2, 3);
        assertThat(f.codecs())
                .containsExactly(new V3Codec.Sharding(
                        List.of(2, 3),
                        List.of(new V3Codec.Bytes(false), new V3Codec.Gzip(2), new V3Codec.Crc32c()),
                        List.of(new V3Codec.Bytes(false), new V3Codec.Crc32c()),
                        true));
        assertThat(f.compressor()).isEqualTo(new Compressor.Gzip(2));
        assertThatThrownBy(() -> f.check("dst.zarr", new long[] {8, 8}, new int[] {4, 4}, DType.FLOAT64))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("dst.zarr")
                .hasMessageContaining("do not divide");
        f.check("dst.zarr", new long[] {8, 8}, new int[] {4, 6}, DType.FLOAT64);
    }

    @Test
    void aV2ArrayIsNotCreatedOverAV3NodeUnlessOverwriting() throws Exception {
        String url = tmp.resolve("x").toString();
        ChunkGrid grid = ChunkGrid.of(new long[] {4}, new int[] {2});
        ZarrFormat.v3().create(url, grid, DType.INT32, false, NONE);
        assertThatThrownBy(() -> ZarrFormat.v2().create(url, grid, DType.INT32, false, NONE))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("already exists");
        ChunkStore b = ZarrFormat.v2().create(url, grid, DType.INT32, true, NONE);
        b.writeChunk(Chunk.wrap(DType.INT32, new int[] {2}, new int[] {5, 6}), 1);
        assertThat(Files.exists(Path.of(url, "zarr.json"))).isFalse();
        assertThat(Zarr.open(url, NONE)).isInstanceOf(ZarrArray.class);
        ZarrV3Group.create(tmp.resolve("g").toString(), NONE);
        assertThatThrownBy(() -> ZarrFormat.v2().create(tmp.resolve("g").toString(), grid, DType.INT32, true, NONE))
                .hasMessageContaining("a Zarr group is there");
    }

    @Test
    void writtenChunksAreCountedForBothVersionsWithAnyKeyEncoding() {
        for (boolean v2Keys : new boolean[] {false, true}) {
            ZarrV3Metadata m = ZarrV3Metadata.create(
                    new long[] {4, 4},
                    new int[] {2, 2},
                    DType.INT32,
                    Scalar.zero(),
                    ZarrV3Metadata.defaultCodecs(),
                    v2Keys,
                    "/");
            ZarrV3Array a = ZarrV3Array.create(tmp.resolve("keys" + v2Keys).toString(), m, false, NONE);
            a.writeChunk(Chunk.full(DType.INT32, Scalar.ofLong(1), 2, 2), 1, 0);
            a.writeChunk(Chunk.full(DType.INT32, Scalar.ofLong(1), 2, 2), 1, 1);
            assertThat(Zarr.writtenChunkCount(a)).as("v2 keys %s", v2Keys).isEqualTo(2);
        }
        ZarrV3Metadata scalar = ZarrV3Metadata.create(
                new long[0], new int[0], DType.INT32, Scalar.zero(), ZarrV3Metadata.defaultCodecs());
        ZarrV3Array s = ZarrV3Array.create(tmp.resolve("scalar").toString(), scalar, false, NONE);
        assertThat(s.writtenChunkCount()).isZero();
        s.writeChunk(Chunk.full(DType.INT32, Scalar.ofLong(3)));
        assertThat(s.writtenChunkCount()).isEqualTo(1);
        ZarrArray v2 = ZarrArray.create(
                tmp.resolve("v2count").toString(),
                ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.INT32)
                        .build());
        v2.writeChunk(Chunk.full(DType.INT32, Scalar.ofLong(1), 2), 0);
        assertThat(Zarr.writtenChunkCount(v2)).isEqualTo(1);
    }
}
