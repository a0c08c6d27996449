package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import io.cubed.chunk.ArrayRecycler;
import io.cubed.storage.zarr.codec.Codec;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

/**
 * The byte codecs that compress a whole chunk at once (zstd, numcodecs' LZ4) write their frames into a recycled
 * worst-case buffer and decode into a recycled array: the frames are the ones their own libraries read, and the arrays
 * come back for the task's next chunk instead of new ones.
 */
class SimpleCodecsTest {
    /** Half noise, half runs, so that the frames are neither trivial nor incompressible. */
    private static byte[] data(int n, long seed) {
        byte[] b = new byte[n];
        Random r = new Random(seed);
        for (int i = 0; i < n; i++) {
            b[i] = (i / 64) % 2 == 0 ? (byte) r.nextInt() : (byte) (i / 1024);
        }
        return b;
    }

    @Test
    void zstdFramesAreZstdsAndTheirBuffersComeBack() {
        for (boolean checksum : new boolean[] {false, true}) {
            Codec zstd = new SimpleCodecs.ZstdCodec(3, checksum);
            byte[] raw = data(300_000, 1);
            byte[] exact = zstd.encode(raw);
            // The library itself reads the frame back (an independent decoder of the same format).
            assertThat(Zstd.decompress(exact, raw.length)).isEqualTo(raw);
            assertThat(Zstd.getFrameContentSize(exact)).isEqualTo(raw.length);
            assertRecycled(zstd, raw, exact, (int) Zstd.compressBound(raw.length));
        }
    }

    /**
     * Raw bytes given only piece by piece (no array), in the order a codec that encodes in order asks: zstd's streamed
     * frame holds the same bytes, declares its content size as a one-shot frame does (numcodecs before 0.13 needs
     * it), and fits the worst case on incompressible bytes; sizes around the streaming piece.
     */
    @Test
    void zstdStreamsRawBytesGivenPieceByPiece() {
        Codec zstd = new SimpleCodecs.ZstdCodec(3, true);
        assertThat(zstd.encodesInOrder()).isTrue();
        int piece = ZstdStreaming.PIECE;
        Random noise = new Random(7);
        for (int n : new int[] {1, 9, piece - 1, piece, piece + 1, 3 * piece + 7}) {
            byte[] compressible = data(n, n);
            byte[] incompressible = new byte[n];
            noise.nextBytes(incompressible);
            for (byte[] raw : List.of(compressible, incompressible)) {
                int[] asked = {0};
                io.cubed.storage.zarr.codec.RawBytes pieces = new io.cubed.storage.zarr.codec.RawBytes() {
                    @Override
                    public int size() {
                        return raw.length;
                    }

                    @Override
                    public void copyTo(int from, byte[] dst, int dstOff, int length) {
                        assertThat(from).as("asked in order").isEqualTo(asked[0]);
                        asked[0] += length;
                        System.arraycopy(raw, from, dst, dstOff, length);
                    }
                };
                Codec.Encoded e = zstd.encode(pieces);
                byte[] frame = Arrays.copyOf(e.buffer(), e.length());
                assertThat(asked[0]).isEqualTo(n);
                assertThat(e.buffer().length).isEqualTo((int) Zstd.compressBound(n));
                assertThat(Zstd.getFrameContentSize(frame))
                        .as("content size of %d bytes", n)
                        .isEqualTo(n);
                assertThat(Zstd.decompress(frame, n)).isEqualTo(raw);
                assertThat(zstd.decode(frame, n)).isEqualTo(raw);
            }
        }
    }

    /** The bytes a sink receives, checked to come from the front, in order. */
    private static byte[] decodedInOrder(Codec codec, byte[] frame, int size) {
        byte[] out = new byte[size];
        int[] next = {0};
        codec.decode(frame, frame.length, size, (at, src, srcOff, length) -> {
            assertThat(at).as("handed over in order").isEqualTo(next[0]);
            System.arraycopy(src, srcOff, out, at, length);
            next[0] += length;
        });
        assertThat(next[0]).isEqualTo(size);
        return out;
    }

    /**
     * zstd decompresses piece by piece into a sink: frames with and without a content size (one-shot, streamed with a
     * pledged size, streamed without one) give the bytes in order; what the one-shot decoder and numcodecs refuse
     * (bytes after the frame, a frame cut short, two frames, another size) is refused too.
     */
    @Test
    void zstdDecodesPieceByPieceAndRefusesWhatTheOneShotDecoderRefuses() throws Exception {
        Codec zstd = new SimpleCodecs.ZstdCodec(3, false);
        assertThat(zstd.decodesInOrder()).isTrue();
        int piece = ZstdStreaming.PIECE;
        for (int n : new int[] {1, piece - 3, piece, 3 * piece + 5}) {
            byte[] raw = data(n, 3 + n);
            java.io.ByteArrayOutputStream unsized = new java.io.ByteArrayOutputStream();
            try (com.github.luben.zstd.ZstdOutputStream z = new com.github.luben.zstd.ZstdOutputStream(unsized, 3)) {
                z.write(raw);
            }
            assertThat(Zstd.getFrameContentSize(unsized.toByteArray())).isEqualTo(-1);
            for (byte[] frame : List.of(zstd.encode(raw), unsized.toByteArray())) {
                assertThat(decodedInOrder(zstd, frame, n)).as("%d bytes", n).isEqualTo(raw);
            }
        }
        byte[] frame = zstd.encode(LenientDecodingTest.DATA);
        for (var v : LenientDecodingTest.variants(frame).entrySet()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> decodedInOrder(zstd, v.getValue(), LenientDecodingTest.DATA.length))
                    .as(v.getKey())
                    .isInstanceOf(io.cubed.error.StorageException.class);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> decodedInOrder(zstd, frame, LenientDecodingTest.DATA.length - 8))
                .hasMessageContaining("more than");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> decodedInOrder(zstd, frame, LenientDecodingTest.DATA.length + 8))
                .hasMessageContaining("expected");
    }

    @Test
    void lz4FramesAreNumcodecsAndTheirBuffersComeBack() {
        Codec lz4 = new SimpleCodecs.Lz4Codec(1);
        byte[] raw = data(200_000, 2);
        byte[] exact = lz4.encode(raw);
        // numcodecs' layout: the raw length, little-endian, then one LZ4 block.
        int length = (exact[0] & 0xff) | (exact[1] & 0xff) << 8 | (exact[2] & 0xff) << 16 | (exact[3] & 0xff) << 24;
        assertThat(length).isEqualTo(raw.length);
        byte[] back = new byte[raw.length];
        LZ4Factory.safeInstance().safeDecompressor().decompress(exact, 4, exact.length - 4, back, 0);
        assertThat(back).isEqualTo(raw);
        assertRecycled(
                lz4,
                raw,
                exact,
                4 + LZ4Factory.fastestInstance().fastCompressor().maxCompressedLength(raw.length));
    }

    /**
     * In a task's scope: the untrimmed frame is {@code exact} at the front of a worst-case buffer of {@code bound}
     * bytes, decodes to {@code raw}, and the buffer and the decoded array handed back serve the next chunk.
     */
    private static void assertRecycled(Codec codec, byte[] raw, byte[] exact, int bound) {
        List<Object> first;
        try (ArrayRecycler.Scope s = ArrayRecycler.open("codec test " + codec, 4L * bound)) {
            Codec.Encoded e = codec.encodeUntrimmed(raw);
            assertThat(e.buffer()).hasSize(bound);
            assertThat(Arrays.copyOf(e.buffer(), e.length())).isEqualTo(exact);
            byte[] decoded = codec.decode(exact, raw.length);
            assertThat(decoded).isEqualTo(raw);
            first = List.of(e.buffer(), decoded);
            ArrayRecycler.giveBack(e.buffer());
            ArrayRecycler.giveBack(decoded);
            long reused = ArrayRecycler.reusedBytes();
            // The next chunk of the same size: the same two arrays, overwritten.
            byte[] other = data(raw.length, 3);
            Codec.Encoded again = codec.encodeUntrimmed(other);
            byte[] decodedAgain = codec.decode(Arrays.copyOf(again.buffer(), again.length()), raw.length);
            assertThat(again.buffer()).isSameAs(first.get(0));
            assertThat(decodedAgain).isSameAs(first.get(1)).isEqualTo(other);
            assertThat(ArrayRecycler.reusedBytes() - reused).isEqualTo((long) bound + raw.length);
        }
        // Outside a task's scope nothing is kept: new arrays each time.
        assertThat(codec.encodeUntrimmed(raw).buffer()).isNotSameAs(first.get(0));
        assertThat(codec.decode(exact, raw.length)).isNotSameAs(first.get(1)).isEqualTo(raw);
    }
}
