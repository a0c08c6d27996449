package io.cubed.storage.zarr.blosc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.cubed.error.StorageException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Randomly damaged frames either decode (stored bytes carry no checksum) or fail with a {@link StorageException};
 * never with another exception.
 */
class BloscFuzzTest {
    @Test
    void damagedFramesFailOnlyWithStorageException() {
        Random rnd = new Random(123);
        byte[] raw = BloscTestData.smooth(40_000, 9);
        for (BloscCname cname : BloscCname.values()) {
            for (BloscShuffle shuffle : new BloscShuffle[] {BloscShuffle.SHUFFLE, BloscShuffle.BITSHUFFLE}) {
                for (int typesize : new int[] {1, 4, 8}) {
                    BloscCodec codec = new BloscCodec(cname, 5, shuffle, 4096, typesize);
                    byte[] frame = codec.encode(raw);
                    for (int trial = 0; trial < 60; trial++) {
                        byte[] damaged = frame.clone();
                        int flips = 1 + rnd.nextInt(4);
                        for (int k = 0; k < flips; k++) {
                            // Half the time damage the header and block offsets, where sizes live.
                            int pos = rnd.nextBoolean()
                                    ? rnd.nextInt(Math.min(damaged.length, 64))
                                    : rnd.nextInt(damaged.length);
                            damaged[pos] = (byte) rnd.nextInt(256);
                        }
                        Throwable t = catchThrowable(() -> codec.decode(damaged, raw.length));
                        if (t != null) {
                            assertThat(t).as(codec + " trial " + trial).isInstanceOf(StorageException.class);
                        }
                    }
                }
            }
        }
    }

    @Test
    void blosclzDecoderNeverThrowsOnRandomStreams() {
        Random rnd = new Random(7);
        byte[] out = new byte[4096];
        for (int trial = 0; trial < 20_000; trial++) {
            byte[] in = new byte[1 + rnd.nextInt(64)];
            rnd.nextBytes(in);
            int n = BloscLzDecoder.decompress(in, 0, in.length, out, 0, rnd.nextInt(out.length + 1));
            assertThat(n).isBetween(-1, out.length);
        }
    }
}
