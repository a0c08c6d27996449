package io.cubed.storage.zarr;

import static io.cubed.storage.zarr.ZarrTestValues.assertSameValues;
import static io.cubed.storage.zarr.ZarrTestValues.decodeLittleEndian;
import static io.cubed.storage.zarr.ZarrTestValues.dtypeOf;
import static io.cubed.storage.zarr.ZarrTestValues.fillOf;
import static io.cubed.storage.zarr.ZarrTestValues.ints;
import static io.cubed.storage.zarr.ZarrTestValues.longs;
import static io.cubed.storage.zarr.ZarrTestValues.region;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.StoreOptions;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reads the committed zarr-python fixtures ({@code src/test/resources/zarr-fixtures}, made by its {@code generate.py})
 * and checks metadata and every value against the expected files, and that broken fixtures fail with a {@link
 * StorageException} naming the URL, the offending value and, for chunk errors, the chunk key.
 */
class ZarrFixturesTest {
    private static final Path ROOT = fixtureRoot();
    private static final Map<?, ?> MANIFEST = readManifest();

    private static Path fixtureRoot() {
        try {
            return Path.of(ZarrFixturesTest.class
                            .getResource("/zarr-fixtures/manifest.json")
                            .toURI())
                    .getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<?, ?> readManifest() {
        try {
            return (Map<?, ?>) Json.parse(Files.readAllBytes(ROOT.resolve("manifest.json")));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Stream<Named<Map<?, ?>>> arrays() {
        return entries("arrays");
    }

    static Stream<Named<Map<?, ?>>> malformed() {
        return entries("malformed");
    }

    private static Stream<Named<Map<?, ?>>> entries(String section) {
        List<?> list = (List<?>) MANIFEST.get(section);
        return list.stream().map(e -> Named.of((String) ((Map<?, ?>) e).get("name"), (Map<?, ?>) e));
    }

    private static String url(Map<?, ?> fixture) {
        return ROOT.resolve((String) fixture.get("path")).toString();
    }

    private static Chunk expected(Map<?, ?> fixture) throws IOException {
        byte[] raw = Files.readAllBytes(ROOT.resolve((String) fixture.get("expected")));
        return decodeLittleEndian(raw, dtypeOf((String) fixture.get("dtype")), ints(fixture.get("shape")));
    }

    private static Set<List<Long>> missing(Map<?, ?> fixture) {
        Set<List<Long>> out = new HashSet<>();
        for (Object coords : (List<?>) fixture.get("missing")) {
            List<Long> c = new ArrayList<>();
            for (long x : longs(coords)) {
                c.add(x);
            }
            out.add(c);
        }
        return out;
    }

    @Test
    void manifestCoversTheMatrix() {
        List<?> arrays = (List<?>) MANIFEST.get("arrays");
        Set<String> dtypes = new HashSet<>();
        Set<Object> compressors = new HashSet<>();
        for (Object o : arrays) {
            Map<?, ?> m = (Map<?, ?>) o;
            dtypes.add(((String) m.get("dtype")).substring(1));
            Object c = m.get("compressor");
            compressors.add(c == null ? "none" : ((Map<?, ?>) c).get("id") + "/" + ((Map<?, ?>) c).get("cname"));
        }
        assertThat(dtypes).hasSize(13);
        assertThat(compressors)
                .contains("none", "zlib/null", "gzip/null", "zstd/null", "lz4/null", "bz2/null")
                .contains("blosc/lz4", "blosc/zstd", "blosc/zlib", "blosc/blosclz", "blosc/lz4hc");
        assertThat(arrays).hasSizeGreaterThanOrEqualTo(70);
        assertThat((List<?>) MANIFEST.get("malformed")).hasSizeGreaterThanOrEqualTo(20);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("arrays")
    void metadataMatches(Map<?, ?> fixture) {
        ZarrArray a = ZarrArray.open(url(fixture));
        ZarrV2Metadata m = a.metadata();
        DType dtype = dtypeOf((String) fixture.get("dtype"));
        assertThat(a.dtype()).isEqualTo(dtype);
        assertThat(m.dataType().toJson()).isEqualTo(fixture.get("dtype"));
        assertThat(m.shape()).isEqualTo(longs(fixture.get("shape")));
        assertThat(m.chunks()).isEqualTo(ints(fixture.get("chunks")));
        assertThat(m.order().name()).isEqualTo(fixture.get("order"));
        assertThat(m.dimensionSeparator()).isEqualTo(fixture.get("separator"));
        Scalar fill = fillOf(fixture.get("fill"), dtype);
        assertThat(m.fillValue()).isEqualTo(fill);
        assertThat(a.fillValue()).isEqualTo(fill == null ? Scalar.zero() : fill);
        Object comp = fixture.get("compressor");
        if (comp == null) {
            assertThat(m.compressor()).isNull();
        } else {
            // Compare through JSON text so numbers are Longs on both sides.
            assertThat(Json.parse(Json.write(m.compressor().toJson()))).isEqualTo(comp);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("arrays")
    void wholeArrayMatches(Map<?, ?> fixture) throws IOException {
        ZarrArray a = ZarrArray.open(url(fixture));
        int[] shape = ints(fixture.get("shape"));
        Chunk all = a.readRegion(new long[shape.length], shape);
        assertSameValues(all, expected(fixture), fixture.get("name") + " readRegion");
    }

    /**
     * Reading every chunk into targets that tile the array on another grid (each target takes parts of several
     * chunks, each chunk goes to several targets) gives zarr-python's values: the decode-in-place path of C-order
     * arrays (both byte orders, every dtype, missing chunks, edge chunks, 0-d) and the read-and-copy path of F order.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("arrays")
    void chunksReadIntoTargetsMatch(Map<?, ?> fixture) throws IOException {
        ZarrArray a = ZarrArray.open(url(fixture));
        Chunk whole = expected(fixture);
        ChunkGrid g = a.grid();
        int nd = g.ndim();
        int[] targetShape = new int[nd];
        for (int i = 0; i < nd; i++) {
            // Two or three targets per axis, their edges away from the chunks' edges where the axis allows.
            targetShape[i] = (int) Math.max(1, (2 * g.shape(i) + 2) / 3);
        }
        ChunkGrid targetGrid = ChunkGrid.of(g.shape(), targetShape);
        int n = (int) targetGrid.numChunks();
        Chunk[] targets = new Chunk[n];
        long[][] offsets = new long[n][];
        for (int t = 0; t < n; t++) {
            long[] coords = targetGrid.chunkCoordsOf(t);
            offsets[t] = targetGrid.chunkOffset(coords);
            targets[t] = Chunk.allocate(a.dtype(), targetGrid.chunkShapeAt(coords));
        }
        for (long i = 0; i < g.numChunks(); i++) {
            a.readChunkInto(g.chunkCoordsOf(i), targets, offsets);
        }
        for (int t = 0; t < n; t++) {
            assertSameValues(
                    targets[t],
                    region(whole, offsets[t], targets[t].shape()),
                    fixture.get("name") + " target at " + Arrays.toString(offsets[t]));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("arrays")
    void everyChunkMatches(Map<?, ?> fixture) throws IOException {
        ZarrArray a = ZarrArray.open(url(fixture));
        Chunk whole = expected(fixture);
        Set<List<Long>> missing = missing(fixture);
        ChunkGrid g = a.grid();
        int seenMissing = 0;
        for (long i = 0; i < g.numChunks(); i++) {
            long[] coords = g.chunkCoordsOf(i);
            List<Long> key = new ArrayList<>();
            Arrays.stream(coords).forEach(key::add);
            String what = fixture.get("name") + " chunk " + key;
            boolean isMissing = missing.contains(key);
            seenMissing += isMissing ? 1 : 0;
            assertThat(a.chunkExists(coords)).as("exists: %s", what).isEqualTo(!isMissing);
            Chunk c = a.readChunk(coords);
            int[] clipped = g.chunkShapeAt(coords);
            assertThat(c.shape()).as("clipped shape of %s", what).isEqualTo(clipped);
            assertSameValues(c, region(whole, g.chunkOffset(coords), clipped), what);
            if (isMissing) {
                assertThat(c.isAll(a.fillValue())).as("%s is all fill", what).isTrue();
            }
        }
        assertThat(seenMissing).as("missing chunks found").isEqualTo(missing.size());
        assertThat(g.numChunks()).isEqualTo(zeroLength(g) ? 0 : expectedChunkCount(g));
    }

    private static boolean zeroLength(ChunkGrid g) {
        return Arrays.stream(g.shape()).anyMatch(s -> s == 0);
    }

    private static long expectedChunkCount(ChunkGrid g) {
        long n = 1;
        for (int i = 0; i < g.ndim(); i++) {
            n *= (g.shape(i) + g.chunkShape(i) - 1) / g.chunkShape(i);
        }
        return n;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("arrays")
    void interiorRegionMatches(Map<?, ?> fixture) throws IOException {
        long[] shape = longs(fixture.get("shape"));
        long[] offset = new long[shape.length];
        int[] box = new int[shape.length];
        for (int i = 0; i < shape.length; i++) {
            offset[i] = shape[i] > 2 ? 1 : 0;
            box[i] = (int) (shape[i] > 2 ? shape[i] - 2 : shape[i]);
        }
        Chunk got = ZarrArray.open(url(fixture)).readRegion(offset, box);
        assertSameValues(got, region(expected(fixture), offset, box), fixture.get("name") + " interior region");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedFixturesFailNamingUrlAndValue(Map<?, ?> fixture) {
        String url = url(fixture);
        String offending = (String) fixture.get("offending");
        String chunkKey = (String) fixture.get("chunk");
        if (chunkKey == null) {
            assertThatThrownBy(() -> ZarrArray.open(url))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(url)
                    .hasMessageContaining(offending);
            return;
        }
        ZarrArray a = ZarrArray.open(url);
        String chunkUrl = url + "/" + chunkKey;
        assertThatThrownBy(() -> a.readChunk(1, 0))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(chunkUrl)
                .hasMessageContaining(offending);
        assertThatThrownBy(() -> a.readRegion(new long[] {0, 0}, new int[] {4, 4}))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(chunkUrl);
        // The chunks that were never written still read as the fill value.
        assertThat(a.readChunk(0, 0).isAll(Scalar.zero())).isTrue();
    }

    @Test
    void readsZarrPythonArrayAttributes() {
        Map<String, Object> attrs =
                ZarrArray.open(ROOT.resolve("arrays/attrs_array").toString()).attributes();
        assertThat(attrs)
                .containsEntry("units", "K")
                .containsEntry("scale", 0.5)
                .containsEntry("nan", Double.NaN)
                .containsEntry("inf", Double.NEGATIVE_INFINITY)
                .containsEntry("unicode", "\u00b5\u00b0 \ud83d\ude00")
                .containsEntry("big", new java.math.BigInteger("18446744073709551615"))
                .containsEntry("flag", true);
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("a", List.of(1L, 2L, 3L));
        nested.put("b", null);
        assertThat(attrs.get("nested")).isEqualTo(nested);
        assertThat(attrs).hasSize(8);
    }

    @Test
    void readsZarrPythonGroup() {
        String url = ROOT.resolve("arrays/group").toString();
        ZarrGroup g = ZarrGroup.open(url, StoreOptions.empty());
        assertThat(g.attributes())
                .isEqualTo(Map.of("title", "fixture group", "version", 3L, "tags", List.of("a", "b")));
        assertThat(g.arrayNames()).containsExactly("temp");
        assertThat(g.groupNames()).containsExactly("sub");
        assertThat(g.openArray("temp").grid().shape()).containsExactly(4, 3);
        ZarrGroup sub = ZarrGroup.open(g.memberUrl("sub"), StoreOptions.empty());
        assertThat(sub.attributes()).isEqualTo(Map.of("level", 1L));
        assertThat(sub.arrayNames()).containsExactly("deep");
        assertThat(sub.openArray("deep").dtype()).isEqualTo(DType.FLOAT32);
        assertThatThrownBy(() -> ZarrArray.open(url))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(url)
                .hasMessageContaining("group");
    }

    @Test
    void zeroDimensionalChunkIsReadWithNoCoordinates() {
        ZarrArray a = ZarrArray.open(ROOT.resolve("arrays/zerod_f8").toString());
        assertThat(a.grid().ndim()).isZero();
        assertThat(a.chunkExists()).isTrue();
        assertThat(a.readChunk().doubles()).containsExactly(-3.0);
        ZarrArray missing =
                ZarrArray.open(ROOT.resolve("arrays/zerod_missing_i4").toString());
        assertThat(missing.chunkExists()).isFalse();
        assertThat(missing.readChunk().ints()).containsExactly(42);
    }
}
