package io.cubed.storage.zarr.blosc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.StorageException;
import io.cubed.storage.zarr.codec.Codec;
import io.cubed.storage.zarr.codec.RawBytes;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Blosc frames coded on several threads (BloscThreads) are byte for byte the frames one thread codes, for every
 * internal codec and filter, from an array or block by block; decoding on several threads gives the same bytes and
 * reports a corrupt block; the blocks really run on more than one thread.
 */
class BloscThreadsTest {
    private static byte[] data(int n, long seed) {
        byte[] b = BloscTestData.random(n, seed);
        // Half smooth, half noise: some streams compress, some are stored.
        for (int i = 0; i < n / 2; i++) {
            b[i] = (byte) (i / 97);
        }
        return b;
    }

    @Test
    void framesCodedOnSeveralThreadsAreTheFramesOfOne() {
        byte[] raw = data(3 * 1024 * 1024 + 40, 5);
        for (BloscCname cname : BloscCname.values()) {
            for (BloscShuffle shuffle :
                    new BloscShuffle[] {BloscShuffle.NOSHUFFLE, BloscShuffle.SHUFFLE, BloscShuffle.BITSHUFFLE}) {
                BloscCodec codec = new BloscCodec(cname, 5, shuffle, 64 * 1024, 8);
                byte[] one = codec.encode(raw);
                byte[] four = BloscThreads.with(4, () -> codec.encode(raw));
                assertThat(four).as(cname + " " + shuffle).isEqualTo(one);
                Codec.Encoded viaBlocks = BloscThreads.with(
                        3,
                        () -> codec.encode(new RawBytes() {
                            @Override
                            public int size() {
                                return raw.length;
                            }

                            @Override
                            public void copyTo(int from, byte[] dst, int dstOff, int length) {
                                System.arraycopy(raw, from, dst, dstOff, length);
                            }
                        }));
                assertThat(Arrays.copyOf(viaBlocks.buffer(), viaBlocks.length()))
                        .isEqualTo(one);
                byte[] back = BloscThreads.with(4, () -> codec.decode(one, raw.length));
                assertThat(back).as(cname + " " + shuffle).isEqualTo(raw);
                byte[] sunk = new byte[raw.length];
                BloscThreads.with(4, () -> {
                    codec.decode(one, raw.length, (at, src, off, len) -> System.arraycopy(src, off, sunk, at, len));
                    return null;
                });
                assertThat(sunk).isEqualTo(raw);
            }
        }
    }

    @Test
    void blocksRunOnSeveralThreadsAndAFailureIsReportedOnce() {
        java.util.Set<String> names = java.util.concurrent.ConcurrentHashMap.newKeySet();
        AtomicInteger count = new AtomicInteger();
        BloscThreads.forEachBlock(64, 4, j -> {
            names.add(Thread.currentThread().getName());
            count.incrementAndGet();
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(count.get()).isEqualTo(64);
        assertThat(names.size()).isGreaterThan(1);

        BloscCodec codec = new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 64 * 1024, 8);
        byte[] raw = data(4 * 1024 * 1024, 9);
        byte[] frame = codec.encode(raw);
        // Corrupt the last block's first stream size.
        int blocksize = LittleEndian.getInt(frame, 8);
        int nblocks = (raw.length + blocksize - 1) / blocksize;
        assertThat(nblocks).isGreaterThan(1);
        int lastBlock = LittleEndian.getInt(frame, 16 + 4 * (nblocks - 1));
        LittleEndian.putInt(frame, lastBlock, Integer.MAX_VALUE);
        assertThatThrownBy(() -> BloscThreads.with(4, () -> codec.decode(frame, raw.length)))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("blosc block " + (nblocks - 1) + " stream 0");
    }
}
