package io.cubed.storage.zarr.blosc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.StorageException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Corrupt frames fail with a {@link StorageException} saying what is wrong, never with garbage. */
class BloscCorruptInputTest {
    private static final BloscCodec CODEC = new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0, 8);
    private static final byte[] RAW = BloscTestData.smooth(100_000, 1);

    private static byte[] frame(BloscCname cname) {
        return new BloscCodec(cname, 5, BloscShuffle.SHUFFLE, 0, 8).encode(RAW);
    }

    @Test
    void shorterThanHeader() {
        assertThatThrownBy(() -> CODEC.decode(new byte[5], 100))
                .isInstanceOf(StorageException.class)
                .hasMessage("blosc frame has 5 bytes, fewer than the 16-byte header: truncated or not blosc");
    }

    @Test
    void truncatedFrame() {
        byte[] f = frame(BloscCname.LZ4);
        byte[] truncated = Arrays.copyOf(f, 16);
        assertThatThrownBy(() -> CODEC.decode(truncated, RAW.length))
                .isInstanceOf(StorageException.class)
                .hasMessage("blosc header says the frame has " + f.length + " bytes but 16 were given: truncated");
    }

    @Test
    void trailingBytesAreIgnoredAsByCBlosc() {
        byte[] f = frame(BloscCname.LZ4);
        byte[] longer = Arrays.copyOf(f, f.length + 16);
        Arrays.fill(longer, f.length, longer.length, (byte) 'x');
        assertThat(CODEC.decode(longer, RAW.length)).isEqualTo(RAW);
    }

    @Test
    void badVersion() {
        byte[] f = frame(BloscCname.LZ4);
        f[0] = 3;
        assertThatThrownBy(() -> CODEC.decode(f, RAW.length))
                .isInstanceOf(StorageException.class)
                .hasMessageStartingWith("unsupported blosc format version 3");
    }

    @Test
    void wrongDecodedSize() {
        byte[] f = frame(BloscCname.LZ4);
        assertThatThrownBy(() -> CODEC.decode(f, RAW.length + 8))
                .isInstanceOf(StorageException.class)
                .hasMessage("blosc header says the data decodes to 100000 bytes but 100008 were expected");
    }

    @Test
    void badBlocksize() {
        byte[] f = frame(BloscCname.LZ4);
        LittleEndian.putInt(f, 8, 0);
        assertThatThrownBy(() -> CODEC.decode(f, RAW.length))
                .isInstanceOf(StorageException.class)
                .hasMessage("blosc header gives a block size of 0 bytes, invalid for 100000 decoded bytes");
    }

    @Test
    void zeroTypesize() {
        byte[] f = frame(BloscCname.LZ4);
        f[3] = 0;
        assertThatThrownBy(() -> CODEC.decode(f, RAW.length))
                .isInstanceOf(StorageException.class)
                .hasMessage("blosc header gives an element size of 0 bytes");
    }

    @Test
    void reservedFlag() {
        byte[] f = frame(BloscCname.LZ4);
        f[2] |= 0x08;
        assertThatThrownBy(() -> CODEC.decode(f, RAW.length))
                .isInstanceOf(StorageException.class)
                .hasMessageStartingWith("blosc header has the reserved flag bit 3 set");
    }

    @Test
    void storedFrameWithWrongSize() {
        byte[] f = new BloscCodec(BloscCname.LZ4, 0, BloscShuffle.SHUFFLE, 0, 8).encode(RAW);
        LittleEndian.putInt(f, 4, RAW.length - 8);
        assertThatThrownBy(() -> CODEC.decode(f, RAW.length - 8))
                .isInstanceOf(StorageException.class)
                .hasMessage("stored blosc frame must have 100008 bytes for 99992 decoded bytes but has 100016");
    }

    @Test
    void snappyFrame() {
        byte[] f = frame(BloscCname.LZ4);
        f[2] = (byte) ((f[2] & 0x1F) | (BloscCname.SNAPPY_FORMAT << 5));
        assertThatThrownBy(() -> CODEC.decode(f, RAW.length))
                .isInstanceOf(StorageException.class)
                .hasMessage("unsupported blosc internal codec snappy in blosc header");
    }

    @Test
    void unknownCodecVersion() {
        byte[] f = frame(BloscCname.ZSTD);
        f[1] = 2;
        assertThatThrownBy(() -> CODEC.decode(f, RAW.length))
                .isInstanceOf(StorageException.class)
                .hasMessage("unsupported zstd format version 2 in blosc header (expected 1)");
    }

    @Test
    void blockOffsetOutsideFrame() {
        byte[] f = frame(BloscCname.LZ4);
        LittleEndian.putInt(f, 16, f.length + 100);
        assertThatThrownBy(() -> CODEC.decode(f, RAW.length))
                .isInstanceOf(StorageException.class)
                .hasMessage("blosc block 0 stream 0 starts at byte " + (f.length + 100) + ", outside the " + f.length
                        + "-byte frame");
    }

    @Test
    void streamSizeBeyondFrame() {
        byte[] f = frame(BloscCname.LZ4);
        int start = LittleEndian.getInt(f, 16);
        LittleEndian.putInt(f, start, f.length);
        assertThatThrownBy(() -> CODEC.decode(f, RAW.length))
                .isInstanceOf(StorageException.class)
                .hasMessageStartingWith("blosc block 0 stream 0 says " + f.length + " compressed bytes but only ");
    }

    @Test
    void corruptCompressedData() {
        for (BloscCname cname : BloscCname.values()) {
            byte[] f = frame(cname);
            int start = LittleEndian.getInt(f, 16);
            int size = LittleEndian.getInt(f, start);
            // Shorten the first stream by declaring fewer bytes: every codec must notice the missing data.
            LittleEndian.putInt(f, start, size / 2);
            assertThatThrownBy(() -> CODEC.decode(f, RAW.length))
                    .as(cname.jsonName())
                    .isInstanceOf(StorageException.class)
                    .hasMessageStartingWith("blosc block 0 stream 0: corrupt "
                            + (cname == BloscCname.LZ4HC ? "lz4" : cname.jsonName()) + " data");
        }
    }

    @Test
    void tooManyBlocksForFrame() {
        byte[] f = frame(BloscCname.LZ4);
        LittleEndian.putInt(f, 8, 1);
        assertThatThrownBy(() -> CODEC.decode(f, RAW.length))
                .isInstanceOf(StorageException.class)
                .hasMessage("blosc frame of " + f.length + " bytes is too short for the offsets of its 100000 blocks");
    }

    @Test
    void aFrameAtTheFrontOfALongerArrayIsReadWithinItsGivenLength() {
        byte[] f = frame(BloscCname.LZ4);
        byte[] recycled = Arrays.copyOf(f, f.length + 1000);
        Arrays.fill(recycled, f.length, recycled.length, (byte) 0x5A);
        assertThat(CODEC.decodesFromLongerArrays()).isTrue();
        assertThat(CODEC.decode(recycled, f.length, RAW.length)).isEqualTo(RAW);
        byte[] viaSink = new byte[RAW.length];
        CODEC.decode(recycled, f.length, RAW.length, (at, src, off, n) -> System.arraycopy(src, off, viaSink, at, n));
        assertThat(viaSink).isEqualTo(RAW);
        // A stored value cut short stays truncated, whatever the rest of the array holds.
        assertThatThrownBy(() -> CODEC.decode(recycled, f.length - 1, RAW.length))
                .isInstanceOf(StorageException.class)
                .hasMessage("blosc header says the frame has " + f.length + " bytes but " + (f.length - 1)
                        + " were given: truncated");
    }
}
