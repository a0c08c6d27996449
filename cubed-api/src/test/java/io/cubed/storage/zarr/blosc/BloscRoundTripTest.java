package io.cubed.storage.zarr.blosc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Encode-then-decode over codecs, shuffles, element sizes, block sizes and inputs. */
class BloscRoundTripTest {
    private static final int[] TYPESIZES = {1, 2, 4, 8, 16, 3};
    private static final int[] BLOCKSIZES = {0, 256, 1000, 4099};

    static List<Arguments> matrix() {
        List<Arguments> out = new ArrayList<>();
        for (BloscCname cname : BloscCname.values()) {
            for (BloscShuffle shuffle : BloscShuffle.values()) {
                for (int typesize : TYPESIZES) {
                    for (int blocksize : BLOCKSIZES) {
                        out.add(Arguments.of(cname, shuffle, typesize, blocksize));
                    }
                }
            }
        }
        return out;
    }

    /** Inputs: names and contents, covering lengths that are not multiples of the element or block size. */
    static List<byte[]> inputs(int typesize) {
        return List.of(
                new byte[0],
                BloscTestData.random(5, 1),
                BloscTestData.random(15, 2),
                BloscTestData.smooth(127, 3),
                BloscTestData.smooth(128, 3),
                BloscTestData.smooth(8000 + typesize - 1, 4),
                BloscTestData.steps(20_011, 5),
                new byte[12_345],
                BloscTestData.random(3001, 6),
                BloscTestData.steps(70_000 + 3, 7));
    }

    @ParameterizedTest(name = "{0} {1} typesize={2} blocksize={3}")
    @MethodSource("matrix")
    void roundTrips(BloscCname cname, BloscShuffle shuffle, int typesize, int blocksize) {
        for (int clevel : new int[] {5}) {
            BloscCodec codec = new BloscCodec(cname, clevel, shuffle, blocksize, typesize);
            for (byte[] raw : inputs(typesize)) {
                byte[] encoded = codec.encode(raw);
                assertThat(encoded.length).as("frame size").isLessThanOrEqualTo(raw.length + 16);
                // The untrimmed frame is the same frame, at the start of the encoder's buffer.
                io.cubed.storage.zarr.codec.Codec.Encoded untrimmed = codec.encodeUntrimmed(raw);
                // Kept in the encoder's buffer when the frame fills at least half of it, trimmed otherwise.
                assertThat(untrimmed.buffer())
                        .hasSize(2 * encoded.length >= raw.length + 16 ? raw.length + 16 : encoded.length);
                assertThat(java.util.Arrays.copyOf(untrimmed.buffer(), untrimmed.length()))
                        .isEqualTo(encoded);
                assertThat(codec.decode(encoded, raw.length))
                        .as("%s, %d bytes", codec, raw.length)
                        .isEqualTo(raw);
            }
        }
    }

    @ParameterizedTest(name = "{0} clevel {1}")
    @MethodSource("levels")
    void roundTripsAtEveryLevel(BloscCname cname, int clevel) {
        for (BloscShuffle shuffle : new BloscShuffle[] {BloscShuffle.SHUFFLE, BloscShuffle.BITSHUFFLE}) {
            BloscCodec codec = new BloscCodec(cname, clevel, shuffle, 0, 8);
            for (byte[] raw : List.of(BloscTestData.smooth(100_003, 11), BloscTestData.steps(40_000, 12))) {
                byte[] encoded = codec.encode(raw);
                assertThat(codec.decode(encoded, raw.length))
                        .as(codec.toString())
                        .isEqualTo(raw);
                if (clevel == 0) {
                    assertThat(encoded).hasSize(raw.length + 16);
                    assertThat(encoded[2] & BloscEncoder.FLAG_MEMCPYED).isNotZero();
                }
            }
        }
    }

    static List<Arguments> levels() {
        List<Arguments> out = new ArrayList<>();
        for (BloscCname cname : BloscCname.values()) {
            for (int clevel = 0; clevel <= 9; clevel++) {
                out.add(Arguments.of(cname, clevel));
            }
        }
        return out;
    }

    @Test
    void lz4StreamsAreCompressedAtCbloscsAccelerationForTheLevel() {
        assertThat(InternalCodecs.lz4Acceleration(1)).isEqualTo(9);
        assertThat(InternalCodecs.lz4Acceleration(5)).isEqualTo(5);
        assertThat(InternalCodecs.lz4Acceleration(9)).isEqualTo(1);
        byte[] stream = io.cubed.storage.zarr.codec.Lz4BlocksTest.shuffledNoisyDoubles(1 << 14, 5);
        for (int clevel : new int[] {1, 5, 9}) {
            byte[] ours = new byte[2 * stream.length];
            byte[] expected = new byte[2 * stream.length];
            int n;
            try (InternalCodecs.Compressor c = InternalCodecs.compressor(BloscCname.LZ4, clevel)) {
                n = c.compress(stream, 0, stream.length, ours, 0, ours.length);
            }
            net.jpountz.lz4.LZ4Compressor reference = io.cubed.storage.zarr.codec.Lz4Blocks.compressor(10 - clevel);
            int m;
            try {
                m = reference.compress(stream, 0, stream.length, expected, 0, expected.length);
            } finally {
                io.cubed.storage.zarr.codec.Lz4Blocks.release(reference);
            }
            assertThat(java.util.Arrays.copyOf(ours, n))
                    .as("clevel %d", clevel)
                    .isEqualTo(java.util.Arrays.copyOf(expected, m));
            if (clevel == 5 && io.cubed.storage.zarr.codec.Lz4Blocks.accelerationAvailable()) {
                // The input is one where the acceleration shows: LZ4's default gives other bytes.
                net.jpountz.lz4.LZ4Compressor plain = io.cubed.storage.zarr.codec.Lz4Blocks.compressor(1);
                byte[] other = new byte[2 * stream.length];
                int k = plain.compress(stream, 0, stream.length, other, 0, other.length);
                assertThat(java.util.Arrays.copyOf(other, k)).isNotEqualTo(java.util.Arrays.copyOf(ours, n));
            }
        }
    }

    @Test
    void compressibleDataShrinks() {
        byte[] raw = BloscTestData.steps(200_000, 1);
        for (BloscCname cname : BloscCname.values()) {
            byte[] encoded = new BloscCodec(cname, 5, BloscShuffle.SHUFFLE, 0, 4).encode(raw);
            assertThat(encoded.length).as(cname.jsonName()).isLessThan(raw.length / 2);
        }
    }

    @Test
    void largeTypesizeIsTreatedAsBytes() {
        byte[] raw = BloscTestData.smooth(3000, 1);
        BloscCodec codec = new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0, 300);
        byte[] encoded = codec.encode(raw);
        assertThat(encoded[3]).as("typesize in header").isEqualTo((byte) 1);
        assertThat(codec.decode(encoded, raw.length)).isEqualTo(raw);
    }

    @Test
    void autoshuffleFollowsNumcodecs() {
        byte[] raw = BloscTestData.smooth(4000, 1);
        byte[] bytes = new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.AUTOSHUFFLE, 0, 1).encode(raw);
        byte[] doubles = new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.AUTOSHUFFLE, 0, 8).encode(raw);
        int filters = BloscEncoder.FLAG_SHUFFLE | BloscEncoder.FLAG_BITSHUFFLE;
        assertThat(bytes[2] & filters).isEqualTo(BloscEncoder.FLAG_BITSHUFFLE);
        assertThat(doubles[2] & filters).isEqualTo(BloscEncoder.FLAG_SHUFFLE);
    }

    @Test
    void emptyInputMatchesCBloscFrame() {
        byte[] encoded = new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0, 1).encode(new byte[0]);
        // What numcodecs 0.11 / c-blosc 1.21 write for b"" with lz4 and shuffle.
        assertThat(BloscFixturesTest.hex(encoded, 16)).isEqualTo("02013301000000000100000010000000");
    }

    @Test
    void blosclzCompressesRunsAndFarMatches() {
        // Noise, zeros, a repeat of the noise 50000 bytes back (a far distance), zeros, part of the noise again.
        byte[] raw = new byte[120_000];
        byte[] noise = BloscTestData.random(9000, 3);
        System.arraycopy(noise, 0, raw, 0, noise.length);
        System.arraycopy(noise, 0, raw, 50_000, noise.length);
        System.arraycopy(noise, 100, raw, 100_000, 5000);
        BloscLzEncoder encoder = new BloscLzEncoder();
        byte[] out = new byte[raw.length];
        int n = encoder.compress(raw, 0, raw.length, out, 0, out.length);
        // Without far matches the output would exceed 2 * 9000 + 5000 bytes.
        assertThat(n).isPositive().isLessThan(noise.length + 5000 + 1500);
        byte[] back = new byte[raw.length];
        assertThat(BloscLzDecoder.decompress(out, 0, n, back, 0, back.length)).isEqualTo(raw.length);
        assertThat(back).isEqualTo(raw);
    }
}
