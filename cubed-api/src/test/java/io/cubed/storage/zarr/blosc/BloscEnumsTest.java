package io.cubed.storage.zarr.blosc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.StorageException;
import org.junit.jupiter.api.Test;

/** Names and codes of {@link BloscCname} and {@link BloscShuffle}, and constructor validation. */
class BloscEnumsTest {
    @Test
    void cnamesRoundTripThroughJsonNames() {
        for (BloscCname c : BloscCname.values()) {
            assertThat(BloscCname.fromJsonName(c.jsonName())).isEqualTo(c);
        }
        assertThat(BloscCname.LZ4HC.jsonName()).isEqualTo("lz4hc");
        assertThat(BloscCname.BLOSCLZ.jsonName()).isEqualTo("blosclz");
    }

    @Test
    void unsupportedAndUnknownCnamesAreNamed() {
        assertThatThrownBy(() -> BloscCname.fromJsonName("snappy"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("unsupported blosc internal codec snappy");
        assertThatThrownBy(() -> BloscCname.fromJsonName("brotli"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("brotli");
        assertThatThrownBy(() -> BloscCname.fromJsonName(null)).isInstanceOf(StorageException.class);
    }

    @Test
    void shuffleCodes() {
        for (BloscShuffle s : BloscShuffle.values()) {
            assertThat(BloscShuffle.fromCode(s.code())).isEqualTo(s);
        }
        assertThat(BloscShuffle.AUTOSHUFFLE.code()).isEqualTo(-1);
        assertThat(BloscShuffle.BITSHUFFLE.code()).isEqualTo(2);
        assertThat(BloscShuffle.AUTOSHUFFLE.resolve(1)).isEqualTo(BloscShuffle.BITSHUFFLE);
        assertThat(BloscShuffle.AUTOSHUFFLE.resolve(4)).isEqualTo(BloscShuffle.SHUFFLE);
        assertThatThrownBy(() -> BloscShuffle.fromCode(3))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("unknown blosc shuffle code 3");
    }

    @Test
    void constructorRejectsBadParameters() {
        assertThatThrownBy(() -> new BloscCodec(BloscCname.LZ4, 10, BloscShuffle.SHUFFLE, 0, 8))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("clevel must be between 0 and 9, got 10");
        assertThatThrownBy(() -> new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, -1, 8))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("blocksize");
        assertThatThrownBy(() -> new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0, 0))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("typesize must be at least 1");
    }

    @Test
    void automaticBlocksizeFollowsCBlosc() {
        // 8 MiB of float64 with lz4 level 5: 128 KiB, times 8 for the split, capped at 1 MiB.
        assertThat(BloscEncoder.computeBlocksize(BloscCname.LZ4, 5, 8, 8 << 20, 0))
                .isEqualTo(1 << 20);
        // zstd never splits; high-ratio codecs double the base block size; level 9 doubles it again.
        assertThat(BloscEncoder.computeBlocksize(BloscCname.ZSTD, 5, 8, 8 << 20, 0))
                .isEqualTo(256 * 1024);
        assertThat(BloscEncoder.computeBlocksize(BloscCname.ZSTD, 9, 8, 8 << 20, 0))
                .isEqualTo(1 << 20);
        // Forced sizes below 128 bytes are raised to 128; sizes are multiples of the typesize.
        assertThat(BloscEncoder.computeBlocksize(BloscCname.ZSTD, 5, 3, 10_000, 10))
                .isEqualTo(126);
        assertThat(BloscEncoder.computeBlocksize(BloscCname.LZ4, 5, 4, 3, 0)).isEqualTo(1);
    }
}
