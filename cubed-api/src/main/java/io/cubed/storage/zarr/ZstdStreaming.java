package io.cubed.storage.zarr;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdException;
import io.cubed.error.StorageException;
import io.cubed.storage.zarr.codec.Codec;
import io.cubed.storage.zarr.codec.RawBytes;
import io.cubed.storage.zarr.codec.RawBytesSink;
import java.nio.ByteBuffer;

/**
 * Compresses a chunk's raw bytes into one zstd frame piece by piece, as {@link RawBytes} gives them in order, and
 * decompresses one frame piece by piece into a {@link RawBytesSink}, so that the raw bytes never exist as one array: a
 * chunk converted from its elements, decoded block by block from another codec ({@code cubed copy --codec zstd}), or
 * decompressed into its elements costs a piece of {@value #PIECE} bytes instead of a chunk-sized array.
 *
 * <p>A frame compressed here declares its content size (the size is pledged before the first piece), as a one-shot
 * compression does: numcodecs before 0.13 cannot decode a frame without it. zstd-jni compresses a stream only between
 * direct buffers, so each thread keeps one for input and one for output ({@value #PIECE} bytes each, off the heap) and
 * the compressed bytes are copied from the output buffer as they come. Decompression goes through zstd-jni's input
 * stream, which decodes straight into the thread's heap piece (about 4 % slower than the one-shot decoder into a
 * chunk-sized array on 1.15 GB read on one thread, for one chunk-sized array less: docs/zarr.md).
 */
final class ZstdStreaming {
    /** Bytes handed to zstd at a time: large enough that the calls cost nothing, small enough to stay in cache. */
    static final int PIECE = 256 << 10;

    private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);

    private ZstdStreaming() {}

    /** One thread's buffers: a heap piece the raw bytes are copied into, and the direct buffers zstd works between. */
    private static final class Buffers {
        final byte[] piece = new byte[PIECE];
        final ByteBuffer in = ByteBuffer.allocateDirect(PIECE);
        final ByteBuffer out = ByteBuffer.allocateDirect(PIECE);
    }

    /** Where the compressed bytes go as zstd gives them. */
    private interface Output {
        /** Takes the remaining bytes of {@code compressed}. */
        void take(ByteBuffer compressed) throws java.io.IOException;
    }

    /**
     * One zstd frame of {@code raw}'s bytes at {@code level} (with a checksum when asked) in {@code out}, which must
     * hold the worst case ({@code Zstd.compressBound} of the size; a longer frame is an error, not a silent copy).
     */
    static Codec.Encoded compress(RawBytes raw, int level, boolean checksum, byte[] out) {
        int[] written = {0};
        try {
            compress(raw, level, checksum, compressed -> {
                int k = compressed.remaining();
                if (k > out.length - written[0]) {
                    throw new StorageException("zstd frame of " + raw.size() + " bytes longer than the " + out.length
                            + "-byte worst case");
                }
                compressed.get(out, written[0], k);
                written[0] += k;
            });
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return new Codec.Encoded(out, written[0]);
    }

    /**
     * One zstd frame of {@code raw}'s bytes written to {@code out} as it is made, straight from zstd's output buffer:
     * neither the raw nor the compressed bytes are ever held whole.
     */
    static void compress(RawBytes raw, int level, boolean checksum, java.nio.channels.WritableByteChannel out)
            throws java.io.IOException {
        compress(raw, level, checksum, compressed -> {
            while (compressed.hasRemaining()) {
                out.write(compressed);
            }
        });
    }

    private static void compress(RawBytes raw, int level, boolean checksum, Output output) throws java.io.IOException {
        int size = raw.size();
        Buffers b = BUFFERS.get();
        try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
            ctx.setLevel(level);
            ctx.setChecksum(checksum);
            ctx.setPledgedSrcSize(size);
            int taken = 0;
            boolean done = false;
            while (!done) {
                int n = Math.min(PIECE, size - taken);
                raw.copyTo(taken, b.piece, 0, n);
                taken += n;
                b.in.clear();
                b.in.put(b.piece, 0, n);
                b.in.flip();
                EndDirective op = taken == size ? EndDirective.END : EndDirective.CONTINUE;
                // CONTINUE returns once zstd has taken the whole piece; END once the frame is complete.
                boolean finished;
                do {
                    b.out.clear();
                    finished = ctx.compressDirectByteBufferStream(b.out, b.in, op);
                    b.out.flip();
                    output.take(b.out);
                } while (b.in.hasRemaining() || (op == EndDirective.END && !finished));
                done = op == EndDirective.END;
            }
        } catch (ZstdException e) {
            throw new StorageException("zstd cannot compress " + size + " bytes: " + e.getMessage(), e);
        }
    }

    /**
     * Decompresses the one zstd frame in the first {@code length} bytes of {@code encoded}, which must decode to exactly
     * {@code size} bytes, handing the bytes to {@code sink} a piece at a time as zstd gives them: the decoded bytes never
     * exist as one array. As the one-shot decoder (and numcodecs) does, it refuses a frame cut short, one that decodes
     * to more or fewer bytes, and any byte after the frame (garbage fails as a frame; a second frame decodes past the
     * size).
     */
    static void decompress(byte[] encoded, int length, int size, RawBytesSink sink) {
        Buffers b = BUFFERS.get();
        long produced = 0;
        try (com.github.luben.zstd.ZstdInputStreamNoFinalizer in = new com.github.luben.zstd.ZstdInputStreamNoFinalizer(
                new java.io.ByteArrayInputStream(encoded, 0, length))) {
            while (true) {
                int k = in.read(b.piece, 0, PIECE);
                if (k < 0) {
                    break;
                }
                if (produced + k > size) {
                    throw new StorageException("zstd frame decodes to more than the " + size + " bytes expected");
                }
                sink.accept((int) produced, b.piece, 0, k);
                produced += k;
            }
        } catch (java.io.IOException | ZstdException e) {
            throw new StorageException("corrupt zstd frame: " + e.getMessage(), e);
        }
        if (produced != size) {
            throw new StorageException("zstd frame decodes to " + produced + " bytes, expected " + size);
        }
    }

    /**
     * The frame in the first {@code length} bytes of {@code encoded}, which must decode to {@code size} bytes, as blocks
     * of {@value #PIECE} bytes decoded in order on request ({@link Codec#blocks}). zstd-jni's input stream (the one
     * that frees its native state when collected too, should a caller drop it before its end) holds zstd's window.
     */
    static Codec.Blocks pieces(byte[] encoded, int length, int size) {
        java.io.InputStream in;
        try {
            in = new com.github.luben.zstd.ZstdInputStream(new java.io.ByteArrayInputStream(encoded, 0, length));
        } catch (java.io.IOException e) {
            throw new StorageException("corrupt zstd frame: " + e.getMessage(), e);
        }
        int count = Math.max(1, (int) ((size + (long) PIECE - 1) / PIECE));
        return new Codec.Blocks() {
            private int next;
            private boolean closed;

            @Override
            public int count() {
                return count;
            }

            @Override
            public int blockBytes() {
                return Math.min(PIECE, Math.max(1, size));
            }

            @Override
            public int decode(int j, byte[] out, int outOff) {
                if (j != next) {
                    throw new IllegalArgumentException(
                            "zstd piece " + j + " asked for before piece " + next + ": a zstd frame decodes in order");
                }
                int want = (int) Math.min(PIECE, size - (long) j * PIECE);
                try {
                    int got = in.readNBytes(out, outOff, want);
                    if (got < want) {
                        throw new StorageException(
                                "zstd frame decodes to " + ((long) j * PIECE + got) + " bytes, expected " + size);
                    }
                    next++;
                    if (next == count && in.read() >= 0) {
                        throw new StorageException("zstd frame decodes to more than the " + size + " bytes expected");
                    }
                } catch (java.io.IOException | ZstdException e) {
                    throw new StorageException("corrupt zstd frame: " + e.getMessage(), e);
                }
                if (next == count) {
                    release();
                }
                return want;
            }

            @Override
            public void release() {
                if (!closed) {
                    closed = true;
                    try {
                        in.close();
                    } catch (java.io.IOException ignored) {
                        // Nothing to write back: the stream only read.
                    }
                }
            }
        };
    }
}
