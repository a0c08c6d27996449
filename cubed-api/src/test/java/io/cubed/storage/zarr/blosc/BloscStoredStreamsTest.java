package io.cubed.storage.zarr.blosc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.storage.zarr.codec.RawBytes;
import io.cubed.storage.zarr.codec.RawBytesSink;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Shuffled blocks some of whose streams are stored as they are (incompressible bytes) decode from the frame where those
 * streams lie, without first being copied next to the decompressed ones: the frames here are checked to hold such
 * streams, and every decoded byte is compared with the input.
 */
class BloscStoredStreamsTest {
    /** 4 MiB of float64: four blocks where blocks split (c-blosc makes them 1 MiB for 8-byte elements). */
    private static final int N = 1 << 19;

    /**
     * The test JVMs have the Vector API module: the vector code is warmed up and in use here, as in a long process. The
     * build runs these tests again with {@code -Dcubed.blosc.vector=false} (the {@code scalar-shuffle} execution), where
     * the scalar loops decode and encode the same frames, as they do in a short process and without the module.
     */
    @BeforeAll
    static void shuffleInUse() {
        if (!"false".equals(System.getProperty(ByteShuffle.VECTOR_PROPERTY))) {
            BloscCodec.warmUp();
            long end = System.nanoTime() + ShuffleWarmup.DEADLINE_NANOS;
            while (!ShuffleWarmup.vectorReady() && System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            assertThat(ShuffleWarmup.ready())
                    .as("the vector unshuffle is in use")
                    .isTrue();
        } else {
            assertThat(ByteShuffle.VECTOR).as("the scalar loops are in use").isFalse();
        }
    }

    /** Doubles in [0, 1): their high bytes repeat and compress, their low bytes are noise and are stored. */
    private static byte[] uniformDoubles(int n, long seed) {
        Random r = new Random(seed);
        ByteBuffer b = ByteBuffer.allocate(8 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            b.putDouble(r.nextDouble());
        }
        return b.array();
    }

    /** Per block of the frame, per stream: whether the stream is stored as it is (its size is the stream's bytes). */
    private static boolean[][] storedStreams(byte[] frame) {
        int typesize = frame[3] & 0xFF;
        int nbytes = LittleEndian.getInt(frame, 4);
        int blocksize = LittleEndian.getInt(frame, 8);
        boolean split = (frame[2] & BloscEncoder.FLAG_DONT_SPLIT) == 0;
        int blocks = (nbytes + blocksize - 1) / blocksize;
        boolean[][] stored = new boolean[blocks][];
        for (int j = 0; j < blocks; j++) {
            int bsize = Math.min(blocksize, nbytes - j * blocksize);
            int nsplits = split && bsize == blocksize ? typesize : 1;
            int neblock = bsize / nsplits;
            int pos = LittleEndian.getInt(frame, BloscEncoder.HEADER_BYTES + 4 * j);
            stored[j] = new boolean[nsplits];
            for (int s = 0; s < nsplits; s++) {
                int size = LittleEndian.getInt(frame, pos);
                stored[j][s] = size == neblock;
                pos += 4 + size;
            }
        }
        return stored;
    }

    private static void assertDecodes(byte[] frame, byte[] raw) {
        assertThat(BloscDecoder.decode(frame, frame.length, raw.length)).isEqualTo(raw);
        // The block-by-block path: every block handed over from the per-thread block buffer.
        byte[] viaSink = new byte[raw.length];
        BloscDecoder.decode(
                frame,
                frame.length,
                raw.length,
                (at, src, srcOff, length) -> System.arraycopy(src, srcOff, viaSink, at, length));
        assertThat(viaSink).isEqualTo(raw);
        if (raw.length % 8 == 0) {
            assertDecodesToDoubles(frame, raw);
        }
    }

    /**
     * Encoding from a source that holds its bytes as float64 values (offered for every block, shuffled straight from
     * them where the block is full, split and of 8-byte elements) gives the frame encoding the bytes gives.
     */
    private static void assertEncodesFromDoubles(BloscCodec codec, byte[] raw) {
        double[] values = new double[2 + raw.length / 8];
        for (int i = 0; i < raw.length / 8; i++) {
            values[2 + i] = Double.longBitsToDouble(LittleEndian.getLong(raw, 8 * i));
        }
        int[] offered = new int[1];
        RawBytes source = new RawBytes() {
            @Override
            public int size() {
                return raw.length;
            }

            @Override
            public void copyTo(int from, byte[] dst, int dstOff, int length) {
                System.arraycopy(raw, from, dst, dstOff, length);
            }

            @Override
            public RawBytesSink.Doubles doublesAt(int from, int length) {
                offered[0]++;
                return new RawBytesSink.Doubles(values, 2 + from / 8);
            }
        };
        io.cubed.storage.zarr.codec.Codec.Encoded e = codec.encode(source);
        byte[] frame = codec.encode(raw);
        assertThat(Arrays.copyOf(e.buffer(), e.length())).isEqualTo(frame);
        // Every full block of 8-byte elements is taken from the values, split or not.
        int fullBlocks = (frame[3] & 0xFF) == 8 ? LittleEndian.getInt(frame, 4) / LittleEndian.getInt(frame, 8) : 0;
        assertThat(offered[0]).as("blocks shuffled from the values").isEqualTo(fullBlocks);
    }

    @Test
    void blocksEncodeFromFloat64ValuesAsFromTheirBytes() {
        byte[] raw = uniformDoubles(N + 3, 14);
        assertEncodesFromDoubles(new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 256 << 10, 8), raw);
        assertEncodesFromDoubles(new BloscCodec(BloscCname.BLOSCLZ, 5, BloscShuffle.SHUFFLE, 0, 8), raw);
        // Blocks of one stream (zstd does not split); elements of 4 bytes, which are not taken from the values.
        assertEncodesFromDoubles(new BloscCodec(BloscCname.ZSTD, 1, BloscShuffle.SHUFFLE, 128 << 10, 8), raw);
        assertEncodesFromDoubles(new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 128 << 10, 4), raw);
    }

    /**
     * A sink that takes float64 values: the blocks that can (full, split, 8-byte elements) are written into its
     * {@code double[]} by the unshuffle, except every other one, which it declines and gets as bytes, as it
     * gets the others; every value is the input's.
     */
    private static void assertDecodesToDoubles(byte[] frame, byte[] raw) {
        // Three values before the chunk's: the decoder writes where the sink says, not at the run's own index.
        double[] values = new double[3 + raw.length / 8];
        Arrays.fill(values, Double.NaN);
        int[] runs = new int[3]; // asked for, taken as doubles, taken as bytes
        BloscDecoder.decode(frame, frame.length, raw.length, new RawBytesSink() {
            private int asked = -1;

            @Override
            public void accept(int at, byte[] src, int srcOff, int length) {
                runs[2]++;
                for (int i = 0; i < length / 8; i++) {
                    values[3 + at / 8 + i] = Double.longBitsToDouble(LittleEndian.getLong(src, srcOff + 8 * i));
                }
            }

            @Override
            public Doubles doublesFor(int at, int length) {
                asked = at;
                return runs[0]++ % 2 == 0 ? new Doubles(values, 3 + at / 8) : null;
            }

            @Override
            public void acceptedAsDoubles(int at, int length) {
                assertThat(at).as("the run asked for").isEqualTo(asked);
                runs[1]++;
            }
        });
        assertThat(values[0]).isNaN();
        for (int i = 0; i < raw.length / 8; i++) {
            assertThat(Double.doubleToRawLongBits(values[3 + i]))
                    .as("value %d", i)
                    .isEqualTo(LittleEndian.getLong(raw, 8 * i));
        }
        boolean[][] stored = storedStreams(frame);
        int splitBlocks = 0;
        for (boolean[] block : stored) {
            splitBlocks += (frame[3] & 0xFF) == 8 && block.length == 8 ? 1 : 0;
        }
        assertThat(runs[0]).as("blocks the decoder offered as doubles").isEqualTo(splitBlocks);
        assertThat(runs[1]).as("blocks decoded as doubles").isEqualTo((splitBlocks + 1) / 2);
    }

    @Test
    void splitBlocksWithStoredAndCompressedStreams() {
        // 8 streams per block (LZ4 splits); 3 elements more make a last block that is one stream.
        byte[] raw = uniformDoubles(N + 3, 11);
        byte[] frame = new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 256 << 10, 8).encode(raw);
        boolean[][] stored = storedStreams(frame);
        assertThat(stored.length).isGreaterThan(2);
        for (int j = 0; j < stored.length - 1; j++) {
            assertThat(stored[j]).hasSize(8).contains(true, false);
        }
        assertDecodes(frame, raw);
    }

    @Test
    void splitBlocksWhoseStreamsAreAllStoredOrAllCompressed() {
        // Noise in every byte (all 8 streams stored) in the first half, a constant (all compressed) in the second.
        byte[] raw = new byte[8 * N];
        new Random(12).nextBytes(raw);
        Arrays.fill(raw, raw.length / 2, raw.length, (byte) 7);
        byte[] frame = new BloscCodec(BloscCname.BLOSCLZ, 5, BloscShuffle.SHUFFLE, 128 << 10, 8).encode(raw);
        boolean[][] stored = storedStreams(frame);
        boolean[] allStored = new boolean[8];
        Arrays.fill(allStored, true);
        assertThat(stored[0]).isEqualTo(allStored);
        assertThat(stored[stored.length - 1]).isEqualTo(new boolean[8]);
        assertDecodes(frame, raw);
    }

    @Test
    void blocksOfOneStoredStream() {
        // zstd does not split: each block is one stream, stored when it does not compress (the noise), compressed
        // otherwise (the zeros); also with elements of 4 bytes, which the scalar unshuffle takes.
        for (int typesize : new int[] {8, 4}) {
            byte[] raw = new byte[8 * N];
            new Random(13).nextBytes(raw);
            Arrays.fill(raw, 0, raw.length / 4, (byte) 0);
            byte[] frame = new BloscCodec(BloscCname.ZSTD, 1, BloscShuffle.SHUFFLE, 128 << 10, typesize).encode(raw);
            boolean[][] stored = storedStreams(frame);
            assertThat(stored[0]).as("a block of zeros is compressed").containsExactly(false);
            assertThat(stored[stored.length - 1])
                    .as("a block of noise is stored")
                    .containsExactly(true);
            assertDecodes(frame, raw);
        }
    }
}
