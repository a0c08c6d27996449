package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.StorageException;
import io.cubed.storage.zarr.codec.Codec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every codec is exactly as lenient as numcodecs' decoder (the reference zarr-python uses), and no more: the outcome of
 * decoding a valid stored chunk with bytes after it, cut short by one byte, or stored twice. The expected outcomes
 * were recorded with Debian's numcodecs 0.11 (c-blosc 1.21, Python 3.11's zlib, gzip and bz2 modules, zstd, lz4);
 * {@code LenientDecodingIT} compares with numcodecs live. "equal": decodes to the chunk; "refused": an error ("longer":
 * numcodecs decodes more bytes than a chunk has, which zarr-python then refuses, as we do at once). Blosc frames cut
 * short are refused although c-blosc decodes them (reading past the buffer).
 */
class LenientDecodingTest {
    static final byte[] DATA = data();

    private static byte[] data() {
        ByteBuffer b = ByteBuffer.allocate(20000).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 2500; i++) {
            b.putDouble(i * 0.37);
        }
        return b.array();
    }

    /** The crafted variants of a codec's frame of {@link #DATA}, by name. */
    static Map<String, byte[]> variants(byte[] enc) {
        Map<String, byte[]> v = new LinkedHashMap<>();
        v.put("zeros", Arrays.copyOf(enc, enc.length + 16));
        byte[] x = Arrays.copyOf(enc, enc.length + 16);
        Arrays.fill(x, enc.length, x.length, (byte) 'x');
        v.put("garbage", x);
        v.put("truncated", Arrays.copyOf(enc, enc.length - 1));
        byte[] twice = Arrays.copyOf(enc, 2 * enc.length);
        System.arraycopy(enc, 0, twice, enc.length, enc.length);
        v.put("twice", twice);
        return v;
    }

    /** The codec a spec names, for 8-byte elements. */
    static Codec codec(String spec) {
        return Compressor.parseSpec(spec).codec(8);
    }

    @ParameterizedTest(name = "{0}: zeros {1}, garbage {2}, truncated {3}, twice {4}")
    @CsvSource({
        "blosc:lz4:5:1, equal, equal, refused, equal",
        "blosc:zstd:3:1, equal, equal, refused, equal",
        "blosc:lz4:0:0, equal, equal, refused, equal",
        "zlib:1, equal, equal, refused, equal",
        "gzip:1, equal, refused, refused, longer",
        "zstd:1, refused, refused, refused, refused",
        "lz4, refused, refused, refused, refused",
        "bz2:1, equal, equal, refused, longer",
    })
    void decodingIsAsLenientAsNumcodecs(String spec, String zeros, String garbage, String truncated, String twice) {
        Codec c = codec(spec);
        byte[] enc = c.encode(DATA);
        assertThat(c.decode(enc, DATA.length)).isEqualTo(DATA);
        Map<String, String> expected =
                Map.of("zeros", zeros, "garbage", garbage, "truncated", truncated, "twice", twice);
        for (Map.Entry<String, byte[]> v : variants(enc).entrySet()) {
            String want = expected.get(v.getKey());
            if (want.equals("equal")) {
                assertThat(c.decode(v.getValue(), DATA.length))
                        .as(spec + " " + v.getKey())
                        .isEqualTo(DATA);
            } else {
                assertThatThrownBy(() -> c.decode(v.getValue(), DATA.length))
                        .as(spec + " " + v.getKey())
                        .isInstanceOf(StorageException.class);
            }
        }
    }
}
