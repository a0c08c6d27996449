package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.StorageException;
import io.cubed.storage.zarr.codec.Codec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CompressorTest {
    static List<Compressor> singleStream() {
        return List.of(
                new Compressor.Zlib(1),
                new Compressor.Zlib(9),
                new Compressor.Gzip(5),
                new Compressor.Zstd(3, false),
                new Compressor.Zstd(-5, true),
                new Compressor.Lz4(1),
                new Compressor.Bz2(9));
    }

    /** Smooth doubles plus noise, like real measurements: compressible but not trivially. */
    static byte[] sampleBytes(int doubles) {
        ByteBuffer b = ByteBuffer.allocate(doubles * 8).order(ByteOrder.LITTLE_ENDIAN);
        Random r = new Random(42);
        for (int i = 0; i < doubles; i++) {
            b.putDouble(Math.sin(i / 100.0) * 20 + r.nextGaussian() * 0.01);
        }
        return b.array();
    }

    @ParameterizedTest
    @MethodSource("singleStream")
    void roundTripsAnySize(Compressor compressor) {
        Codec codec = compressor.codec(8);
        for (int n : new int[] {0, 1, 1000, 200_000}) {
            byte[] raw = sampleBytes(n);
            byte[] enc = codec.encode(raw);
            assertThat(codec.decode(enc, raw.length)).isEqualTo(raw);
        }
    }

    @ParameterizedTest
    @MethodSource("singleStream")
    void corruptOrShortInputIsAStorageException(Compressor compressor) {
        Codec codec = compressor.codec(8);
        byte[] raw = sampleBytes(1000);
        byte[] enc = codec.encode(raw);
        assertThatThrownBy(() -> codec.decode(enc, raw.length + 8)).isInstanceOf(StorageException.class);
        byte[] garbage = new byte[enc.length];
        new Random(1).nextBytes(garbage);
        assertThatThrownBy(() -> codec.decode(garbage, raw.length)).isInstanceOf(StorageException.class);
    }

    @Test
    void zlibAndGzipAreTheStandardFormats() throws Exception {
        byte[] raw = sampleBytes(500);
        byte[] z = new Compressor.Zlib(6).codec(8).encode(raw);
        Inflater inf = new Inflater();
        inf.setInput(z);
        byte[] out = new byte[raw.length];
        assertThat(inf.inflate(out)).isEqualTo(raw.length);
        assertThat(out).isEqualTo(raw);
        byte[] g = new Compressor.Gzip(6).codec(8).encode(raw);
        assertThat(g[0] & 0xff).isEqualTo(0x1f);
        assertThat(g[1] & 0xff).isEqualTo(0x8b);
        try (GZIPInputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(g))) {
            assertThat(in.readAllBytes()).isEqualTo(raw);
        }
    }

    @Test
    void lz4UsesNumcodecsFraming() {
        byte[] raw = sampleBytes(300);
        byte[] enc = new Compressor.Lz4(1).codec(8).encode(raw);
        int header = ByteBuffer.wrap(enc, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        assertThat(header).isEqualTo(raw.length);
    }

    @Test
    void lz4CompressesAtItsAcceleration() {
        // Noisy float64 values: LZ4 finds fewer of their matches when it probes fewer positions.
        java.util.Random rnd = new java.util.Random(11);
        ByteBuffer bb = ByteBuffer.allocate(8 << 16).order(ByteOrder.LITTLE_ENDIAN);
        while (bb.hasRemaining()) {
            bb.putDouble(270 + rnd.nextGaussian() * 0.1);
        }
        byte[] raw = bb.array();
        byte[] plain = new Compressor.Lz4(1).codec(8).encode(raw);
        byte[] fast = new Compressor.Lz4(20).codec(8).encode(raw);
        assertThat(new Compressor.Lz4(1).codec(8).decode(fast, raw.length)).isEqualTo(raw);
        assertThat(new Compressor.Lz4(20).codec(8).decode(plain, raw.length)).isEqualTo(raw);
        if (io.cubed.storage.zarr.codec.Lz4Blocks.accelerationAvailable()) {
            assertThat(fast.length).isGreaterThan(plain.length);
        } else {
            assertThat(fast).isEqualTo(plain);
        }
    }

    @ParameterizedTest
    @MethodSource("singleStream")
    void jsonRoundTrips(Compressor compressor) {
        assertThat(Compressor.fromJson(compressor.toJson(), "x")).isEqualTo(compressor);
    }

    @Test
    void numcodecsConfigsParse() {
        assertThat(Compressor.fromJson(Map.of("id", "zlib", "level", 1L), "x")).isEqualTo(new Compressor.Zlib(1));
        assertThat(Compressor.fromJson(Map.of("id", "zstd", "level", 3L), "x"))
                .isEqualTo(new Compressor.Zstd(3, false));
        assertThat(Compressor.fromJson(Map.of("id", "lz4", "acceleration", 1L), "x"))
                .isEqualTo(new Compressor.Lz4(1));
    }

    @Test
    void unknownIdOrBadParameterIsNamed() {
        assertThatThrownBy(() -> Compressor.fromJson(Map.of("id", "snappy"), "file:///a/.zarray"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("'snappy'")
                .hasMessageContaining("file:///a/.zarray");
        assertThatThrownBy(() -> Compressor.fromJson(Map.of("id", "zlib", "level", 42L), "file:///a/.zarray"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("zlib level must be in [0, 9], got 42");
        assertThatThrownBy(() -> Compressor.fromJson(Map.of("id", "zlib", "level", "high"), "u"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("\"level\"");
        assertThatThrownBy(() -> Compressor.fromJson(Map.of("level", 1L), "u"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("no string \"id\"");
    }
}
