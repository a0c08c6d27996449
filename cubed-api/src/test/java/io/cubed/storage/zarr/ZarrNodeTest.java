package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.StorageException;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link ZarrNode}: what a URL holds, from the documents read together, and a group's arrays with their attributes from
 * consolidated metadata (the members' own documents are not read: changing them afterwards changes nothing) or from
 * one listing and the members' documents.
 */
class ZarrNodeTest {
    private static final StoreOptions NONE = StoreOptions.empty();

    private static String url() {
        return "memory://zarr-node-" + UUID.randomUUID() + "/g.zarr";
    }

    /** A v2 group: arrays {@code x} (with {@code _ARRAY_DIMENSIONS}) and {@code y}, a sub-group and a stray file. */
    private static ZarrGroup v2Group(String url) {
        ZarrGroup g = ZarrGroup.create(url, NONE);
        g.createArray(
                        "x",
                        ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.INT64)
                                .build())
                .writeAttributes(Map.of(DimensionNames.ARRAY_DIMENSIONS, List.of("x")));
        g.createArray(
                "y",
                ZarrCreateOptions.builder(new long[] {4, 3}, new int[] {2, 3}, DType.FLOAT32)
                        .build());
        g.createGroup("sub")
                .createArray(
                        "z",
                        ZarrCreateOptions.builder(new long[] {2}, new int[] {2}, DType.INT8)
                                .build());
        Stores.open(url, NONE).put("README", "not Zarr".getBytes(StandardCharsets.UTF_8));
        return g;
    }

    /** Writes {@code .zmetadata} as zarr-python's {@code consolidate_metadata} does: every document below the group. */
    private static void consolidateV2(String url) {
        Store store = Stores.open(url, NONE);
        Map<String, Object> metadata = new LinkedHashMap<>();
        for (String key : store.list("")) {
            String name = key.substring(key.lastIndexOf('/') + 1);
            if (name.equals(".zarray") || name.equals(".zattrs") || name.equals(".zgroup")) {
                metadata.put(key, Json.parse(store.get(key)));
            }
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("metadata", metadata);
        doc.put("zarr_consolidated_format", 1L);
        store.put(".zmetadata", Json.write(doc).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aV2GroupListsItsArraysWithTheirAttributes() {
        String url = url();
        v2Group(url);
        ZarrNode node = ZarrNode.read(url, NONE);
        assertThat(node.type()).isEqualTo(Zarr.NodeType.GROUP);
        assertThat(node.version()).isEqualTo(2);
        assertThat(node.isConsolidated()).isFalse();
        Map<String, ChunkStore> arrays = node.arrays();
        assertThat(arrays).containsOnlyKeys("x", "y");
        assertThat(DimensionNames.read(arrays.get("x"))).containsExactly("x");
        assertThat(((ZarrArray) arrays.get("y")).attributes()).isEmpty();
        assertThat(arrays.get("y").grid().shape()).containsExactly(4, 3);
        assertThat(node.arrays(List.of("y", "sub", "nope", "README"))).containsOnlyKeys("y");
    }

    @Test
    void aConsolidatedV2GroupReadsItsArraysFromZmetadata() {
        String url = url();
        v2Group(url);
        consolidateV2(url);
        Store store = Stores.open(url, NONE);
        // Afterwards, the members' own documents say otherwise: the consolidated metadata is what is read.
        store.delete("x/.zattrs");
        store.put("y/.zattrs", "{\"_ARRAY_DIMENSIONS\": [\"a\", \"b\"]}".getBytes(StandardCharsets.UTF_8));
        store.delete("y/.zarray");
        ZarrNode node = ZarrNode.read(url, NONE);
        assertThat(node.isConsolidated()).isTrue();
        Map<String, ChunkStore> arrays = node.arrays();
        assertThat(arrays).containsOnlyKeys("x", "y");
        assertThat(DimensionNames.read(arrays.get("x"))).containsExactly("x");
        assertThat(DimensionNames.read(arrays.get("y")))
                .as("no attributes consolidated")
                .isNull();
        assertThat(node.arrays(List.of("y", "nope")).keySet()).containsExactly("y");
    }

    @Test
    void aV3GroupListsItsArraysConsolidatedOrNot() {
        String url = url();
        ZarrV3Group g = ZarrV3Group.create(url, NONE);
        g.createArray(
                "t",
                ZarrV3Metadata.create(
                                new long[] {5},
                                new int[] {5},
                                DType.INT64,
                                Scalar.zero(),
                                ZarrV3Metadata.defaultCodecs())
                        .withDimensionNames(List.of("t")),
                false);
        g.createGroup("sub");
        ZarrNode node = ZarrNode.read(url, NONE);
        assertThat(node.type()).isEqualTo(Zarr.NodeType.GROUP);
        assertThat(node.version()).isEqualTo(3);
        assertThat(node.isConsolidated()).isFalse();
        assertThat(node.arrays()).containsOnlyKeys("t");
        assertThat(node.arrays(List.of("t", "sub")).keySet()).containsExactly("t");

        g.consolidate();
        Stores.open(url, NONE).delete("t/zarr.json");
        ZarrNode consolidated = ZarrNode.read(url, NONE);
        assertThat(consolidated.isConsolidated()).isTrue();
        assertThat(consolidated.arrays()).containsOnlyKeys("t");
        assertThat(DimensionNames.read(consolidated.arrays().get("t"))).containsExactly("t");
    }

    @Test
    void arraysOfEitherVersionAndNothing() {
        String url = url();
        v2Group(url);
        ZarrNode x = ZarrNode.read(url + "/x", NONE);
        assertThat(x.type()).isEqualTo(Zarr.NodeType.ARRAY);
        assertThat(x.version()).isEqualTo(2);
        assertThat(DimensionNames.read(x.array())).containsExactly("x");
        assertThatThrownBy(x::arrays).hasMessageContaining("is not a Zarr group");

        String v3 = url();
        ZarrV3Array.create(
                v3,
                ZarrV3Metadata.create(
                        new long[] {3}, new int[] {3}, DType.FLOAT64, Scalar.zero(), ZarrV3Metadata.defaultCodecs()),
                false,
                NONE);
        ZarrNode a = ZarrNode.read(v3, NONE);
        assertThat(a.type()).isEqualTo(Zarr.NodeType.ARRAY);
        assertThat(a.version()).isEqualTo(3);
        assertThat(a.array()).isInstanceOf(ZarrV3Array.class);

        ZarrNode none = ZarrNode.read(url + "/README", NONE);
        assertThat(none.type()).isEqualTo(Zarr.NodeType.NONE);
        assertThatThrownBy(none::array).hasMessageContaining("is not a Zarr array");
    }

    @Test
    void malformedDocumentsFailNamingThem() {
        String url = url();
        Store store = Stores.open(url, NONE);
        store.put("zarr.json", "{\"zarr_format\": 3, \"node_type\": \"table\"}".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> ZarrNode.read(url, NONE))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(url + "/zarr.json")
                .hasMessageContaining("\"node_type\" must be \"array\" or \"group\"");

        String v2 = url();
        v2Group(v2);
        Store g = Stores.open(v2, NONE);
        g.put(".zmetadata", "{\"metadata\": 3}".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> ZarrNode.read(v2, NONE))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(v2 + "/.zmetadata");
        g.delete(".zmetadata");
        g.put("y/.zattrs", "{not json".getBytes(StandardCharsets.UTF_8));
        ChunkStore y = ZarrNode.read(v2, NONE).arrays().get("y");
        assertThatThrownBy(() -> DimensionNames.read(y))
                .as("attributes read with the array, parsed when asked for")
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(v2 + "/y/.zattrs");
    }

    @Test
    void shapesAndChunksNoArrayCanHoldFailNamingTheDocumentAndTheValues() {
        String huge = "[9223372036854775807, 10]";
        String v2 = "{\"zarr_format\": 2, \"shape\": %s, \"chunks\": %s, \"dtype\": \"<f8\", \"compressor\": null,"
                + " \"fill_value\": 0, \"order\": \"C\", \"filters\": null}";
        String v3 = "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": %s, \"data_type\": \"float64\","
                + " \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": %s}},"
                + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 0,"
                + " \"codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]}";
        for (String[] c : new String[][] {
            {huge, "[10, 10]", "has more elements than an array can hold (9223372036854775807)"},
            {"[4611686018427387904, 4611686018427387904]", "[1, 1]", "has more elements than an array can hold"},
            {"[10, 10]", "[2147483648, 1]", "must be from 1 to 2147483647 on every axis (axis 0 is 2147483648)"},
            {"[10, 10]", "[5, 0]", "must be from 1 to 2147483647 on every axis (axis 1 is 0)"},
            {"[10, -1]", "[5, 5]", "has a negative length on axis 1"}
        }) {
            for (int version : new int[] {2, 3}) {
                String url = url();
                String key = version == 2 ? ".zarray" : "zarr.json";
                Stores.open(url, NONE)
                        .put(
                                key,
                                String.format(version == 2 ? v2 : v3, c[0], c[1])
                                        .getBytes(StandardCharsets.UTF_8));
                assertThatThrownBy(() -> Zarr.open(url, NONE))
                        .as(version + " " + c[0] + " " + c[1])
                        .isInstanceOf(StorageException.class)
                        .hasMessageContaining("malformed " + url + "/" + key)
                        .hasMessageContaining(c[2]);
            }
        }
        // Zero elements on one axis: any length on the others.
        String url = url();
        Stores.open(url, NONE)
                .put(
                        ".zarray",
                        String.format(v2, "[0, 9223372036854775807]", "[1, 1]").getBytes(StandardCharsets.UTF_8));
        assertThat(Zarr.open(url, NONE).grid().size()).isZero();
    }
}
