package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A Zarr v3 NaN fill value given as hex bits keeps exactly those bits (the specification: "the IEEE 754 bit
 * representation"): read from {@code zarr.json}, written back, taken by a new array, filling missing chunks and the
 * padding of edge chunks, and compared when a shard that is all fill value is left unstored. The reference is the hex
 * string itself, decoded here as the IEEE bits it spells. Before, a float32 signalling NaN such as {@code 0x7fa00000}
 * went through Java's float/double conversions, which quiet it on x86-64, and came back as {@code 0x7fe00000}.
 */
class SignallingNanFillTest {
    @TempDir
    Path tmp;

    private static DType dtypeOf(String hex) {
        return hex.length() == 10 ? DType.FLOAT32 : DType.FLOAT64;
    }

    private static long bitsOf(String hex) {
        return Long.parseUnsignedLong(hex.substring(2), 16);
    }

    /** The element bits of a float chunk, as unsigned longs (float32 in the low 32 bits). */
    private static long[] elementBits(Chunk c) {
        if (c.dtype() == DType.FLOAT32) {
            float[] f = c.floats();
            long[] bits = new long[f.length];
            for (int i = 0; i < f.length; i++) {
                bits[i] = Integer.toUnsignedLong(Float.floatToRawIntBits(f[i]));
            }
            return bits;
        }
        double[] d = c.doubles();
        long[] bits = new long[d.length];
        for (int i = 0; i < d.length; i++) {
            bits[i] = Double.doubleToRawLongBits(d[i]);
        }
        return bits;
    }

    private String zarrJson(String name, String hex) {
        String url = tmp.resolve(name).toString();
        String doc = "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": [3], \"data_type\": \""
                + (dtypeOf(hex) == DType.FLOAT32 ? "float32" : "float64")
                + "\", \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": [2]}},"
                + " \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": \"" + hex + "\","
                + " \"codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]}";
        Stores.open(url).put("zarr.json", doc.getBytes(StandardCharsets.UTF_8));
        return url;
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                // float32: signalling NaNs (mantissa top bit clear), one negative, one with the least payload
                "0x7fa00000",
                "0xffa00001",
                "0x7f800001",
                // float64
                "0x7ff4000000000000",
                "0xfff0000000000001"
            })
    void aNanFillKeepsItsBits(String hex) {
        long bits = bitsOf(hex);
        DType dtype = dtypeOf(hex);
        ZarrV3Array a = ZarrV3Array.open(zarrJson("read.zarr", hex), StoreOptions.empty());
        // Missing chunks read as the fill value's bits.
        assertThat(elementBits(a.readRegion(new long[] {0}, new int[] {3}))).containsOnly(bits);
        // Written back and taken by a new array, the document says the same bits.
        assertThat(a.metadata().toJson()).contains("\"fill_value\": \"" + hex + "\"");
        ZarrV3Metadata created = ZarrV3Metadata.create(
                new long[] {3}, new int[] {2}, dtype, a.fillValue(), List.of(new V3Codec.Bytes(false)));
        assertThat(created.toJson()).contains("\"fill_value\": \"" + hex + "\"");

        // An edge chunk is stored padded with the fill value, as zarr-python pads it.
        String url = tmp.resolve("written.zarr").toString();
        ZarrV3Array w = ZarrV3Array.create(url, created, false, StoreOptions.empty());
        Chunk edge = Chunk.allocate(dtype, new int[] {1});
        if (dtype == DType.FLOAT32) {
            edge.floats()[0] = 1.5f;
        } else {
            edge.doubles()[0] = 1.5;
        }
        w.writeChunk(edge, 1);
        ByteBuffer stored = ByteBuffer.wrap(Stores.open(url).get("c/1")).order(ByteOrder.LITTLE_ENDIAN);
        if (dtype == DType.FLOAT32) {
            assertThat(stored.getFloat(0)).isEqualTo(1.5f);
            assertThat(Integer.toUnsignedLong(stored.getInt(4))).isEqualTo(bits);
        } else {
            assertThat(stored.getDouble(0)).isEqualTo(1.5);
            assertThat(stored.getLong(8)).isEqualTo(bits);
        }
        assertThat(elementBits(w.readRegion(new long[] {0}, new int[] {3})))
                .containsExactly(bits, bits, dtype == DType.FLOAT32 ? 0x3fc00000L : Double.doubleToRawLongBits(1.5));

        // A shard whose every element is the fill value is not stored, and reads back as those bits.
        String shardedUrl = tmp.resolve("sharded.zarr").toString();
        ZarrV3Array s = ZarrV3Array.create(
                shardedUrl,
                ZarrV3Metadata.create(
                        new long[] {4},
                        new int[] {4},
                        dtype,
                        a.fillValue(),
                        ZarrV3Metadata.sharding(new int[] {2}, List.of())),
                false,
                StoreOptions.empty());
        Chunk fill = Chunk.allocate(dtype, new int[] {4});
        for (int i = 0; i < 4; i++) {
            if (dtype == DType.FLOAT32) {
                fill.floats()[i] = Float.intBitsToFloat((int) bits);
            } else {
                fill.doubles()[i] = Double.longBitsToDouble(bits);
            }
        }
        s.writeChunk(fill, 0);
        assertThat(Stores.open(shardedUrl).exists("c/0")).isFalse();
        assertThat(elementBits(s.readRegion(new long[] {0}, new int[] {4}))).containsOnly(bits);
    }
}
