package io.cubed.storage.zarr;

import static io.cubed.storage.zarr.ZarrTestValues.assertSameValues;
import static io.cubed.storage.zarr.ZarrTestValues.decodeLittleEndian;
import static io.cubed.storage.zarr.ZarrTestValues.ints;
import static io.cubed.storage.zarr.ZarrTestValues.longs;
import static io.cubed.storage.zarr.ZarrTestValues.region;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.ChunkStores;
import io.cubed.storage.StoreOptions;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reads the committed Zarr v3 fixtures ({@code src/test/resources/zarr3-fixtures}, encoded by its {@code generate.py}
 * directly from the v3 specification with numpy and numcodecs) and checks every value against the expected files,
 * through whole stored chunks and through inner-chunk (ranged) reads.
 */
class ZarrV3FixturesTest {
    static final Path ROOT = fixtureRoot();
    private static final Map<?, ?> MANIFEST = readJson(ROOT.resolve("manifest.json"));

    private static Path fixtureRoot() {
        try {
            return Path.of(ZarrV3FixturesTest.class
                            .getResource("/zarr3-fixtures/manifest.json")
                            .toURI())
                    .getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<?, ?> readJson(Path p) {
        try {
            return (Map<?, ?>) Json.parse(Files.readAllBytes(p));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Stream<Named<Map<?, ?>>> arrays() {
        List<?> list = (List<?>) MANIFEST.get("arrays");
        return list.stream().map(e -> Named.of((String) ((Map<?, ?>) e).get("name"), (Map<?, ?>) e));
    }

    static Chunk expected(String name, DType dtype, int[] shape) throws IOException {
        return decodeLittleEndian(Files.readAllBytes(ROOT.resolve("expected/" + name + ".bin")), dtype, shape);
    }

    @ParameterizedTest
    @MethodSource("arrays")
    void readsEveryValue(Map<?, ?> fixture) throws IOException {
        String name = (String) fixture.get("name");
        ZarrV3Array a = ZarrV3Array.open(ROOT.resolve("arrays/" + name).toString(), StoreOptions.empty());
        DType dtype = DType.valueOf(((String) fixture.get("data_type")).toUpperCase(Locale.ROOT));
        long[] shape = longs(fixture.get("shape"));
        assertThat(a.dtype()).isEqualTo(dtype);
        assertThat(a.grid().shape()).isEqualTo(shape);
        assertThat(a.grid().chunkShape()).isEqualTo(ints(fixture.get("chunks")));
        int[] ishape = ZarrTestValues.toInts(shape);
        Chunk want = expected(name, dtype, ishape);
        // Whole stored chunks (whole shards), one at a time.
        assertSameValues(ChunkStores.readRegion(a, new long[shape.length], ishape), want, name + " by stored chunk");
        // readRegion: for sharded arrays, inner chunks through ranged reads.
        assertSameValues(a.readRegion(new long[shape.length], ishape), want, name + " by region");
        if (shape.length == 2 && shape[0] > 2 && shape[1] > 2) {
            long[] off = {1, 1};
            int[] box = {(int) shape[0] - 2, (int) shape[1] - 2};
            assertSameValues(a.readRegion(off, box), region(want, off, box), name + " inner box");
        }
        ChunkGrid inner = a.innerGrid();
        for (long i = 0; i < inner.numChunks(); i++) {
            long[] c = inner.chunkCoordsOf(i);
            assertSameValues(
                    a.readInnerChunk(c),
                    region(want, inner.chunkOffset(c), inner.chunkShapeAt(c)),
                    name + " inner chunk " + java.util.Arrays.toString(c));
        }
    }

    @Test
    void fillValueEncodings() {
        assertThat(open("dtype_float32").fillValue().doubleValue()).isNaN();
        assertThat(open("dtype_float64").fillValue().doubleValue()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(open("dtype_complex64").fillValue().realPart()).isNaN();
        assertThat(open("dtype_complex64").fillValue().imagPart()).isEqualTo(1.5);
        assertThat(open("dtype_complex128").fillValue().imagPart()).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(open("dtype_uint64").fillValue().longValue()).isEqualTo(-1L); // 2**64 - 1
        assertThat(open("dtype_int64").fillValue().longValue()).isEqualTo(123456789012L);
        assertThat(open("dtype_bool").fillValue().booleanValue()).isTrue();
        assertThat(open("dtype_uint32").fillValue().longValue()).isEqualTo(4000000000L);
    }

    @Test
    void chunkKeyEncodings() {
        assertThat(open("keys_default_dot").metadata().chunkKey(1, 0)).isEqualTo("c.1.0");
        assertThat(open("shard_end").metadata().chunkKey(1, 0)).isEqualTo("c/1/0");
        assertThat(open("keys_v2_dot").metadata().chunkKey(1, 0)).isEqualTo("1.0");
        assertThat(open("keys_v2_slash").metadata().chunkKey(1, 0)).isEqualTo("1/0");
        assertThat(open("keys_v2_noconf").metadata().chunkKey(1, 0)).isEqualTo("1.0");
        assertThat(open("scalar_0d").metadata().chunkKey()).isEqualTo("c");
        assertThat(Files.exists(ROOT.resolve("arrays/keys_default_dot/c.1.0"))).isTrue();
    }

    @Test
    void shardedGridIsTheShardGridAndInnerGridTheInnerChunks() {
        ZarrV3Array a = open("shard_end");
        assertThat(a.grid().chunkShape()).containsExactly(4, 6);
        assertThat(a.innerGrid().chunkShape()).containsExactly(2, 3);
        assertThat(a.innerGrid().shape()).containsExactly(10, 9);
    }

    @Test
    void emptyInnerChunksReadAsFill() {
        ZarrV3Array a = open("shard_empty_inner");
        Chunk c = a.readInnerChunk(1, 1); // rows 2-3, cols 2-3: never written
        assertThat(c.toLongArray()).containsOnly(-1L);
        assertThat(a.readInnerChunk(0, 0).toLongArray()).containsOnly(5L);
        assertThat(a.readInnerChunk(2, 3).toLongArray()).containsExactly(-1L, -1L, -1L, 42L);
        // The second shard row (rows 4-7) exists; shard (0, 0) holds only two stored inner chunks.
        assertThat(a.chunkExists(0, 0)).isTrue();
    }

    @Test
    void attributesAndDimensionNames() {
        ZarrV3Array t =
                ZarrV3Array.open(ROOT.resolve("groups/v3group.zarr/temperature").toString(), StoreOptions.empty());
        assertThat(t.attributes()).containsEntry("units", "K");
        assertThat(t.metadata().dimensionNames()).containsExactly("y", "x");
    }

    @Test
    void malformedStoresFailNamingTheProblem() {
        String unknown = ROOT.resolve("malformed/unknown_codec").toString();
        assertThatThrownBy(() -> ZarrV3Array.open(unknown, StoreOptions.empty()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("unknown codec 'lzma_future'")
                .hasMessageContaining(unknown);
        String must = ROOT.resolve("malformed/must_understand").toString();
        assertThatThrownBy(() -> ZarrV3Array.open(must, StoreOptions.empty()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("future_extension")
                .hasMessageContaining(must);
        String dtype = ROOT.resolve("malformed/bad_data_type").toString();
        assertThatThrownBy(() -> ZarrV3Array.open(dtype, StoreOptions.empty()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("float16")
                .hasMessageContaining(dtype);
        String crc = ROOT.resolve("malformed/bad_crc").toString();
        ZarrV3Array a = ZarrV3Array.open(crc, StoreOptions.empty());
        assertThat(a.readChunk(0).toLongArray()).containsExactly(0L, 1L);
        assertThatThrownBy(() -> a.readChunk(1))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("crc32c mismatch")
                .hasMessageContaining(crc + "/c/1");
    }

    static ZarrV3Array open(String name) {
        return ZarrV3Array.open(ROOT.resolve("arrays/" + name).toString(), StoreOptions.empty());
    }
}
