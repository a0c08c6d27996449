package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.storage.StoreOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Conformance of {@code zarr.json} handling with the Zarr v3 specification (core, data types, chunk key encodings,
 * sharding): documents written here by hand, chunk and shard bytes packed by hand (little-endian element bytes, the
 * shard index, the JDK's CRC-32C), expected values worked out from the specification's rules.
 */
class ZarrV3ConformanceTest {
    @TempDir
    Path tmp;

    /** A valid 1-d {@code int32} document of shape [4] and chunks [2], with one field replaced (or removed: null). */
    private static String int32Doc(String field, String value) {
        Map<String, String> f = new java.util.LinkedHashMap<>();
        f.put("zarr_format", "3");
        f.put("node_type", "\"array\"");
        f.put("shape", "[4]");
        f.put("data_type", "\"int32\"");
        f.put("chunk_grid", "{\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [2]}}");
        f.put("chunk_key_encoding", "{\"name\": \"default\", \"configuration\": {\"separator\": \"/\"}}");
        f.put("fill_value", "0");
        f.put("codecs", "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]");
        if (field != null) {
            if (value == null) {
                f.remove(field);
            } else {
                f.put(field, value);
            }
        }
        StringBuilder sb = new StringBuilder("{");
        f.forEach((k, v) -> sb.append(sb.length() > 1 ? ", " : "")
                .append('"')
                .append(k)
                .append("\": ")
                .append(v));
        return sb.append('}').toString();
    }

    private String store(String name, String zarrJson) throws IOException {
        Path dir = tmp.resolve(name);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("zarr.json"), zarrJson);
        return dir.toString();
    }

    private static void put(String url, String key, byte[] bytes) throws IOException {
        Path p = Path.of(url).resolve(key);
        Files.createDirectories(p.getParent());
        Files.write(p, bytes);
    }

    private static byte[] int32Le(int... values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : values) {
            b.putInt(v);
        }
        return b.array();
    }

    private static byte[] withCrc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        byte[] out = Arrays.copyOf(bytes, bytes.length + 4);
        ByteBuffer.wrap(out, bytes.length, 4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "zarr_format",
                "node_type",
                "shape",
                "data_type",
                "chunk_grid",
                "chunk_key_encoding",
                "fill_value",
                "codecs"
            })
    void aMissingRequiredFieldIsRefusedByName(String field) throws IOException {
        String url = store("missing", int32Doc(field, null));
        assertThatThrownBy(() -> ZarrV3Array.open(url, StoreOptions.empty()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(url + "/zarr.json")
                .hasMessageContaining("required field \"" + field + "\" is missing");
    }

    @Test
    void withoutItsChunkKeyEncodingAnArrayIsNotReadAsFillValue() throws IOException {
        // Chunks under v2 keys and no chunk_key_encoding: a default of "c/0" would find none and read all zeros.
        String url = store("nokeys", int32Doc("chunk_key_encoding", null));
        put(url, "0", int32Le(1, 2));
        put(url, "1", int32Le(3, 4));
        assertThatThrownBy(() -> ZarrV3Array.open(url, StoreOptions.empty()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("chunk_key_encoding");
    }

    @Test
    void aFormatOrNodeTypeOfTheWrongKindIsShownAsWritten() throws IOException {
        String str = store("fmt", int32Doc("zarr_format", "\"3\""));
        assertThatThrownBy(() -> ZarrV3Array.open(str, StoreOptions.empty()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("unsupported zarr_format \"3\" in " + str + "/zarr.json");
        String type = store("type", int32Doc("node_type", "\"table\""));
        assertThatThrownBy(() -> ZarrV3Array.open(type, StoreOptions.empty()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("node_type is \"table\"");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "uint8, 256",
        "uint8, -1",
        "int8, 128",
        "int8, -129",
        "uint16, 65536",
        "int16, -32769",
        "uint32, 4294967296",
        "int32, 2147483648",
        "int32, -2147483649",
        "int64, 9223372036854775808",
        "int64, -9223372036854775809",
        "uint64, 18446744073709551616",
        "uint64, -1"
    })
    void anIntegerFillValueOutsideItsDataTypeIsRefused(String dtype, String fill) throws IOException {
        String codecs = dtype.endsWith("int8")
                ? "[{\"name\": \"bytes\"}]"
                : "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]";
        String doc = int32Doc("data_type", "\"" + dtype + "\"")
                .replace("\"fill_value\": 0", "\"fill_value\": " + fill)
                .replace("[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]", codecs);
        String url = store("fill", doc);
        assertThatThrownBy(() -> ZarrV3Array.open(url, StoreOptions.empty()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("bad fill_value " + fill + " for data_type " + dtype)
                .hasMessageContaining(url + "/zarr.json")
                .hasMessageContaining("range");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        // data type, fill, the element a missing chunk holds as Chunk.toLongArray gives it (uint64 as its bits)
        "int8, -128, -128",
        "int8, 127, 127",
        "uint8, 255, 255",
        "int16, -32768, -32768",
        "uint16, 65535, 65535",
        "uint32, 4294967295, 4294967295",
        "int64, -9223372036854775808, -9223372036854775808",
        "uint64, 18446744073709551615, -1"
    })
    void anIntegerFillValueAtTheEdgeOfItsRangeFillsMissingChunks(String dtype, String fill, long element)
            throws IOException {
        String codecs = dtype.endsWith("int8")
                ? "[{\"name\": \"bytes\"}]"
                : "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]";
        String doc = int32Doc("data_type", "\"" + dtype + "\"")
                .replace("\"fill_value\": 0", "\"fill_value\": " + fill)
                .replace("[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]", codecs);
        ZarrV3Array a = ZarrV3Array.open(store("edge", doc), StoreOptions.empty());
        assertThat(a.readRegion(new long[] {0}, new int[] {4}).toLongArray()).containsOnly(element);
    }

    @Test
    void createRefusesAFillValueItsDataTypeCannotHold() {
        // zarr.json would say 200 for int8, which no reader (Cubed included) accepts.
        assertThatThrownBy(() -> ZarrV3Metadata.create(
                        new long[] {4},
                        new int[] {2},
                        DType.INT8,
                        Scalar.ofLong(200),
                        List.of(new V3Codec.Bytes(false))))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("fill_value 200 for data_type int8");
        ZarrV3Metadata ok = ZarrV3Metadata.create(
                new long[] {4}, new int[] {2}, DType.INT8, Scalar.ofLong(-128), List.of(new V3Codec.Bytes(false)));
        assertThat(ok.toJson()).contains("\"fill_value\": -128");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"[\"x\"]", "[\"x\", \"y\", \"z\"]", "[\"x\", 3]", "\"x\"", "{\"x\": 0}"})
    void dimensionNamesMustBeOneStringOrNullPerDimension(String names) throws IOException {
        String doc = int32Doc("shape", "[4, 2]").replace("\"chunk_shape\": [2]", "\"chunk_shape\": [2, 2]");
        doc = doc.substring(0, doc.length() - 1) + ", \"dimension_names\": " + names + "}";
        String url = store("dims", doc);
        assertThatThrownBy(() -> ZarrV3Array.open(url, StoreOptions.empty()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(url + "/zarr.json")
                .hasMessageContaining("\"dimension_names\"");
    }

    @Test
    void dimensionNamesMayBeNullEmptyOrRepeated() throws IOException {
        String doc = int32Doc("shape", "[4, 2, 1]").replace("\"chunk_shape\": [2]", "\"chunk_shape\": [2, 2, 1]");
        doc = doc.substring(0, doc.length() - 1) + ", \"dimension_names\": [\"t\", null, \"t\"]}";
        assertThat(ZarrV3Array.open(store("dims", doc), StoreOptions.empty())
                        .metadata()
                        .dimensionNames())
                .containsExactly("t", null, "t");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"default, c/1", "v2, 1"})
    void aChunkKeyEncodingMayBeGivenByItsShortHandName(String name, String secondChunkKey) throws IOException {
        // v3.1: an extension without configuration may be written as its name alone.
        String url = store("keys", int32Doc("chunk_key_encoding", "\"" + name + "\""));
        put(url, secondChunkKey, int32Le(-7, 9));
        ZarrV3Array a = ZarrV3Array.open(url, StoreOptions.empty());
        assertThat(a.readRegion(new long[] {0}, new int[] {4}).toLongArray()).containsExactly(0, 0, -7, 9);
    }

    /**
     * A shard of shape [2, 4] with inner chunks [1, 2] (2 x 2 of them, index shape [2, 2, 2]) whose index_codecs
     * transpose the index to [2, 2, 2] with order [2, 0, 1] before the bytes and crc32c codecs, as the sharding spec
     * allows (a fixed-size chain). Inner chunk (0, 1) is empty; the others are stored in reverse order.
     */
    @Test
    void aShardIndexMayBeTransposed() throws IOException {
        String doc = int32Doc("shape", "[2, 4]")
                .replace("\"chunk_shape\": [2]", "\"chunk_shape\": [2, 4]")
                .replace("\"fill_value\": 0", "\"fill_value\": -1")
                .replace(
                        "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]",
                        "[{\"name\": \"sharding_indexed\", \"configuration\": {\"chunk_shape\": [1, 2], "
                                + "\"codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}], "
                                + "\"index_codecs\": [{\"name\": \"transpose\", \"configuration\": {\"order\": [2, 0,"
                                + " 1]}}, {\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, "
                                + "{\"name\": \"crc32c\"}], \"index_location\": \"end\"}}]");
        String url = store("tindex", doc);
        // Inner chunks in C order: (0,0) = [10, 11], (0,1) empty, (1,0) = [20, 21], (1,1) = [22, 23].
        byte[] c11 = int32Le(22, 23);
        byte[] c10 = int32Le(20, 21);
        byte[] c00 = int32Le(10, 11);
        long empty = -1L; // 2^64 - 1
        // offset[i][j] and nbytes[i][j] of the index [i][j][k]; transposed with order [2, 0, 1]: [k][i][j].
        long[][] offset = {{16, empty}, {8, 0}};
        long[][] nbytes = {{8, empty}, {8, 8}};
        ByteBuffer idx = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        for (long[][] part : new long[][][] {offset, nbytes}) {
            for (long[] row : part) {
                for (long v : row) {
                    idx.putLong(v);
                }
            }
        }
        ByteBuffer shard = ByteBuffer.allocate(24 + 68);
        shard.put(c11).put(c10).put(c00).put(withCrc32c(idx.array()));
        put(url, "c/0/0", shard.array());
        ZarrV3Array a = ZarrV3Array.open(url, StoreOptions.empty());
        long[] want = {10, 11, -1, -1, 20, 21, 22, 23};
        assertThat(a.readChunk(0, 0).toLongArray()).containsExactly(want);
        assertThat(a.readRegion(new long[] {0, 0}, new int[] {2, 4}).toLongArray())
                .containsExactly(want);
        assertThat(a.readInnerChunk(1, 0).toLongArray()).containsExactly(20, 21);
        assertThat(a.readInnerChunk(0, 1).toLongArray()).containsExactly(-1, -1);
    }

    @Test
    void createRefusesShardingChainsTheSpecificationForbids() {
        long[] shape = {4, 4};
        int[] shard = {4, 4};
        // A compressed index has no size known in advance.
        V3Codec.Sharding gzipIndex = new V3Codec.Sharding(
                List.of(2, 2),
                List.of(new V3Codec.Bytes(false)),
                List.of(new V3Codec.Bytes(false), new V3Codec.Gzip(1)),
                true);
        assertThatThrownBy(() ->
                        ZarrV3Metadata.create(shape, shard, DType.INT32, Scalar.zero(), List.<V3Codec>of(gzipIndex)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("index_codecs");
        // Inner codecs without an array-to-bytes codec.
        V3Codec.Sharding noBytes = new V3Codec.Sharding(
                List.of(2, 2), List.of(new V3Codec.Gzip(1)), List.of(new V3Codec.Bytes(false)), true);
        assertThatThrownBy(() ->
                        ZarrV3Metadata.create(shape, shard, DType.INT32, Scalar.zero(), List.<V3Codec>of(noBytes)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("sharding codecs")
                .hasMessageContaining("array-to-bytes");
        // A transposed index is of fixed size, and Cubed writes and reads it.
        V3Codec.Sharding transposed = new V3Codec.Sharding(
                List.of(2, 2),
                List.of(new V3Codec.Bytes(false)),
                List.of(new V3Codec.Transpose(List.of(2, 1, 0)), new V3Codec.Bytes(true)),
                false);
        ZarrV3Array a = ZarrV3Array.create(
                tmp.resolve("t").toString(),
                ZarrV3Metadata.create(shape, shard, DType.INT32, Scalar.zero(), List.<V3Codec>of(transposed)),
                false,
                StoreOptions.empty());
        int[] values = new int[16];
        for (int i = 0; i < 16; i++) {
            values[i] = i * i - 7;
        }
        a.writeChunk(Chunk.wrap(DType.INT32, new int[] {4, 4}, values), 0, 0);
        assertThat(ZarrV3Array.open(a.url(), StoreOptions.empty())
                        .readRegion(new long[] {0, 0}, new int[] {4, 4})
                        .ints())
                .containsExactly(values);
    }

    @Test
    void aShardIndexEntryIsNamedAsTheUnsignedIntegersItHolds() throws IOException {
        String doc = int32Doc(
                "codecs",
                "[{\"name\": \"sharding_indexed\", \"configuration\": {\"chunk_shape\": [1], \"codecs\": [{\"name\": "
                        + "\"bytes\", \"configuration\": {\"endian\": \"little\"}}], \"index_codecs\": [{\"name\": "
                        + "\"bytes\", \"configuration\": {\"endian\": \"little\"}}]}}]");
        String url = store("halfempty", doc);
        // Entry 0 is (0, 4); entry 1 has offset 2^64 - 1 but nbytes 4: neither empty nor inside the shard.
        ByteBuffer shard = ByteBuffer.allocate(4 + 32).order(ByteOrder.LITTLE_ENDIAN);
        shard.putInt(5).putLong(0).putLong(4).putLong(-1L).putLong(4);
        put(url, "c/0", shard.array());
        ZarrV3Array a = ZarrV3Array.open(url, StoreOptions.empty());
        assertThatThrownBy(() -> a.readChunk(0))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(url + "/c/0")
                .hasMessageContaining("offset 18446744073709551615, nbytes 4");
    }

    @Test
    void aNaNFillValueKeepsItsBitsThroughZarrJson() throws IOException {
        // The spec's "NaN" is one NaN (0x7fc00000 for float32); any other is written as its hex bits.
        float negNaN = Float.intBitsToFloat(0xffc00000);
        double payload = Double.longBitsToDouble(0x7ff8000000000001L);
        String f32 = ZarrV3Metadata.create(
                        new long[] {2},
                        new int[] {2},
                        DType.FLOAT32,
                        Scalar.ofDouble(negNaN),
                        List.of(new V3Codec.Bytes(false)))
                .toJson();
        assertThat(f32).contains("\"fill_value\": \"0xffc00000\"");
        String f64 = ZarrV3Metadata.create(
                        new long[] {2},
                        new int[] {2},
                        DType.FLOAT64,
                        Scalar.ofDouble(payload),
                        List.of(new V3Codec.Bytes(false)))
                .toJson();
        assertThat(f64).contains("\"fill_value\": \"0x7ff8000000000001\"");
        String canonical = ZarrV3Metadata.create(
                        new long[] {2},
                        new int[] {2},
                        DType.FLOAT32,
                        Scalar.ofDouble(Double.NaN),
                        List.of(new V3Codec.Bytes(false)))
                .toJson();
        assertThat(canonical).contains("\"fill_value\": \"NaN\"");
        String c64 = ZarrV3Metadata.create(
                        new long[] {2},
                        new int[] {2},
                        DType.COMPLEX64,
                        Scalar.ofComplex(negNaN, 1.5),
                        List.of(new V3Codec.Bytes(false)))
                .toJson();
        assertThat(c64.replaceAll("\\s+", "")).contains("\"fill_value\":[\"0xffc00000\",1.5]");
        // Read back: a missing chunk holds exactly those bits.
        String url = store("negnan", f32);
        Chunk c = ZarrV3Array.open(url, StoreOptions.empty()).readChunk(0);
        assertThat(Float.floatToRawIntBits(c.floats()[0])).isEqualTo(0xffc00000);
        assertThat(Float.floatToRawIntBits(c.floats()[1])).isEqualTo(0xffc00000);
    }
}
