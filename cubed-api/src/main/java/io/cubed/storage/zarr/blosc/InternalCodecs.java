package io.cubed.storage.zarr.blosc;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import io.cubed.error.StorageException;
import io.cubed.storage.zarr.codec.Lz4Blocks;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/** The compressors Blosc runs on each stream of a block: blosclz, lz4, lz4hc, zlib and zstd. Sizes are in bytes. */
final class InternalCodecs {
    private static final LZ4Factory LZ4 = LZ4Factory.fastestInstance();
    private static final LZ4SafeDecompressor LZ4_DECOMPRESSOR = LZ4.safeDecompressor();

    private InternalCodecs() {}

    /** Compresses one stream; an instance serves one encode call and is not thread-safe. */
    interface Compressor extends AutoCloseable {
        /**
         * Compresses {@code src[off..off+len)} into {@code dst[dstOff..]} using at most {@code maxOut} bytes; returns
         * the compressed size, or 0 when the result would not fit.
         */
        int compress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut);

        @Override
        default void close() {}
    }

    /** Decompresses one stream; implementations are stateless and thread-safe. */
    interface Decompressor {
        /**
         * Decompresses the {@code len} bytes at {@code src[off]} into {@code dst[dstOff..]}, writing at most
         * {@code maxOut} bytes; returns the number of bytes written, or -1 when the stream is corrupt.
         */
        int decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut);
    }

    /** A fresh compressor for {@code cname} at compression level {@code clevel} (1..9). */
    static Compressor compressor(BloscCname cname, int clevel) {
        return switch (cname) {
            case BLOSCLZ -> new BloscLzEncoder()::compress;
            case LZ4 -> lz4Compressor(Lz4Blocks.compressor(lz4Acceleration(clevel)));
            case LZ4HC -> lz4Compressor(LZ4.highCompressor(clevel));
            case ZLIB -> new ZlibCompressor(clevel);
            case ZSTD -> zstdCompressor(clevel);
        };
    }

    /** The decompressor for a header format code, or throws {@link StorageException} naming an unsupported one. */
    static Decompressor decompressor(int formatCode) {
        return switch (formatCode) {
            case 0 -> BloscLzDecoder::decompress;
            case 1 -> InternalCodecs::lz4Decompress;
            case 3 -> InternalCodecs::zlibDecompress;
            case 4 -> InternalCodecs::zstdDecompress;
            default -> throw new StorageException(
                    "unsupported blosc internal codec " + BloscCname.formatName(formatCode) + " in blosc header");
        };
    }

    private static Compressor zstdCompressor(int clevel) {
        // c-blosc maps its levels 1..8 to zstd levels 1,3,..,15 and 9 to zstd's maximum.
        int level = clevel < 9 ? clevel * 2 - 1 : Zstd.maxCompressionLevel();
        return (src, off, len, dst, dstOff, maxOut) -> {
            try {
                long n = Zstd.compressByteArray(dst, dstOff, maxOut, src, off, len, level);
                return Zstd.isError(n) ? 0 : (int) n;
            } catch (ZstdException e) {
                return 0; // does not fit in maxOut
            }
        };
    }

    /** c-blosc's LZ4 acceleration at a compression level: {@code 10 − clevel} (5 at clevel 5, 1 at clevel 9). */
    static int lz4Acceleration(int clevel) {
        return Math.max(1, 10 - clevel);
    }

    private static Compressor lz4Compressor(LZ4Compressor lz4) {
        return new Compressor() {
            @Override
            public int compress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut) {
                try {
                    return lz4.compress(src, off, len, dst, dstOff, maxOut);
                } catch (LZ4Exception e) {
                    return 0; // does not fit in maxOut
                }
            }

            @Override
            public void close() {
                Lz4Blocks.release(lz4);
            }
        };
    }

    private static int lz4Decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut) {
        try {
            return LZ4_DECOMPRESSOR.decompress(src, off, len, dst, dstOff, maxOut);
        } catch (LZ4Exception e) {
            return -1;
        }
    }

    private static int zstdDecompress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut) {
        try {
            long n = Zstd.decompressByteArray(dst, dstOff, maxOut, src, off, len);
            return Zstd.isError(n) ? -1 : (int) n;
        } catch (ZstdException e) {
            return -1;
        }
    }

    private static int zlibDecompress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(src, off, len);
            int written = 0;
            while (!inflater.finished() && written < maxOut) {
                int n = inflater.inflate(dst, dstOff + written, maxOut - written);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    return -1;
                }
                written += n;
            }
            return inflater.finished() ? written : -1;
        } catch (DataFormatException e) {
            return -1;
        } finally {
            inflater.end();
        }
    }

    /** zlib-format deflate at the Blosc level, reusing one {@link Deflater} across the streams of an encode call. */
    private static final class ZlibCompressor implements Compressor {
        private final Deflater deflater;

        ZlibCompressor(int clevel) {
            deflater = new Deflater(clevel);
        }

        @Override
        public int compress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut) {
            deflater.reset();
            deflater.setInput(src, off, len);
            deflater.finish();
            int written = 0;
            while (!deflater.finished() && written < maxOut) {
                int n = deflater.deflate(dst, dstOff + written, maxOut - written);
                if (n == 0 && deflater.needsInput()) {
                    break;
                }
                written += n;
            }
            return deflater.finished() ? written : 0;
        }

        @Override
        public void close() {
            deflater.end();
        }
    }
}
