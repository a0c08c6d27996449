package io.cubed.storage.zarr;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdException;
import io.cubed.chunk.ArrayRecycler;
import io.cubed.error.StorageException;
import io.cubed.storage.zarr.codec.Codec;
import io.cubed.storage.zarr.codec.Lz4Blocks;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import java.util.zip.Inflater;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;

/** The single-stream numcodecs compressors: zlib, gzip, zstd, lz4 (numcodecs framing) and bz2. */
final class SimpleCodecs {
    private SimpleCodecs() {}

    /** zlib format (RFC 1950) as Python's {@code zlib.compress} writes it. */
    static final class ZlibCodec implements Codec {
        private final int level;

        ZlibCodec(int level) {
            this.level = level;
        }

        @Override
        public byte[] encode(byte[] raw) {
            Deflater d = new Deflater(level);
            try {
                d.setInput(raw);
                d.finish();
                return drain(d, raw.length);
            } finally {
                d.end();
            }
        }

        @Override
        public byte[] decode(byte[] encoded, int decodedSizeBytes) {
            Inflater inf = new Inflater();
            try {
                inf.setInput(encoded);
                byte[] out = new byte[decodedSizeBytes];
                int n = 0;
                byte[] probe = new byte[1];
                while (!inf.finished()) {
                    int k = n < out.length ? inf.inflate(out, n, out.length - n) : inf.inflate(probe);
                    if (k == 0 && !inf.finished() && (inf.needsInput() || inf.needsDictionary())) {
                        throw new StorageException(
                                "zlib stream ended after " + n + " of " + decodedSizeBytes + " bytes");
                    }
                    n += k;
                }
                if (n != decodedSizeBytes) {
                    throw new StorageException("zlib stream does not decode to " + decodedSizeBytes + " bytes");
                }
                return out;
            } catch (DataFormatException e) {
                throw new StorageException("corrupt zlib stream: " + e.getMessage(), e);
            } finally {
                inf.end();
            }
        }

        private static byte[] drain(Deflater d, int hint) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, hint / 2));
            byte[] buf = new byte[64 * 1024];
            while (!d.finished()) {
                int n = d.deflate(buf);
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        }
    }

    /** gzip format (RFC 1952), one member written, concatenated members read. */
    static final class GzipCodec implements Codec {
        private final int level;

        GzipCodec(int level) {
            this.level = level;
        }

        @Override
        public byte[] encode(byte[] raw) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(64, raw.length / 2));
            try (GZIPOutputStream gz = new GZIPOutputStream(bytes, 64 * 1024) {
                {
                    def.setLevel(level);
                }
            }) {
                gz.write(raw);
            } catch (IOException e) {
                throw new StorageException("gzip compression failed: " + e, e);
            }
            return bytes.toByteArray();
        }

        /**
         * Reads the members one after another as Python's {@code gzip} module (numcodecs' decoder) does: zero bytes
         * after a member are padding and skipped, anything else must be another member; each member's CRC-32 and size
         * are checked.
         */
        @Override
        public byte[] decode(byte[] encoded, int decodedSizeBytes) {
            byte[] out = new byte[decodedSizeBytes];
            int produced = 0;
            int pos = 0;
            java.util.zip.Inflater inflater = new java.util.zip.Inflater(true);
            try {
                while (true) {
                    while (pos < encoded.length && encoded[pos] == 0) {
                        pos++;
                    }
                    if (pos == encoded.length) {
                        break;
                    }
                    if (pos + 10 > encoded.length || encoded[pos] != 0x1f || (encoded[pos + 1] & 0xff) != 0x8b) {
                        throw new StorageException("corrupt gzip stream: " + (encoded.length - pos) + " bytes at byte "
                                + pos + " are neither a gzip member nor zero padding");
                    }
                    pos = gzipBody(encoded, pos);
                    inflater.reset();
                    inflater.setInput(encoded, pos, encoded.length - pos);
                    int start = produced;
                    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
                    while (!inflater.finished()) {
                        if (produced == out.length) {
                            byte[] probe = new byte[1];
                            if (inflater.inflate(probe) > 0) {
                                throw new StorageException(
                                        "gzip stream holds more than the expected " + decodedSizeBytes + " bytes");
                            }
                        } else {
                            produced += inflater.inflate(out, produced, out.length - produced);
                        }
                        if (!inflater.finished() && (inflater.needsInput() || inflater.needsDictionary())) {
                            throw new StorageException(
                                    "corrupt gzip stream: a member ends before its deflate data does");
                        }
                    }
                    crc.update(out, start, produced - start);
                    pos = encoded.length - inflater.getRemaining();
                    if (pos + 8 > encoded.length) {
                        throw new StorageException("corrupt gzip stream: a member lacks its 8-byte trailer");
                    }
                    long storedCrc = readLe32(encoded, pos);
                    long storedSize = readLe32(encoded, pos + 4);
                    if (storedCrc != crc.getValue() || storedSize != ((produced - start) & 0xffffffffL)) {
                        throw new StorageException(
                                "corrupt gzip stream: a member's CRC-32 or size does not match its" + " data");
                    }
                    pos += 8;
                }
            } catch (java.util.zip.DataFormatException e) {
                throw new StorageException("corrupt gzip stream: " + e.getMessage(), e);
            } finally {
                inflater.end();
            }
            if (produced != decodedSizeBytes) {
                throw new StorageException(
                        "gzip stream ended after " + produced + " of " + decodedSizeBytes + " bytes");
            }
            return out;
        }

        /** The offset of a member's deflate data: after the 10-byte header and the optional fields its flags name. */
        private static int gzipBody(byte[] b, int member) {
            if (b[member + 2] != 8) {
                throw new StorageException(
                        "corrupt gzip stream: compression method " + b[member + 2] + " is not deflate");
            }
            int flags = b[member + 3] & 0xff;
            int pos = member + 10;
            try {
                if ((flags & 4) != 0) {
                    pos += 2 + ((b[pos] & 0xff) | (b[pos + 1] & 0xff) << 8);
                }
                if ((flags & 8) != 0) {
                    while (b[pos++] != 0) {
                        // the file name, zero-terminated
                    }
                }
                if ((flags & 16) != 0) {
                    while (b[pos++] != 0) {
                        // the comment, zero-terminated
                    }
                }
                if ((flags & 2) != 0) {
                    pos += 2;
                }
            } catch (ArrayIndexOutOfBoundsException e) {
                throw new StorageException("corrupt gzip stream: a member header is cut short", e);
            }
            if (pos > b.length) {
                throw new StorageException("corrupt gzip stream: a member header is cut short");
            }
            return pos;
        }

        private static long readLe32(byte[] b, int at) {
            return (b[at] & 0xffL) | (b[at + 1] & 0xffL) << 8 | (b[at + 2] & 0xffL) << 16 | (b[at + 3] & 0xffL) << 24;
        }
    }

    /** Zstandard frames (zstd-jni). */
    static final class ZstdCodec implements Codec {
        private final int level;
        private final boolean checksum;

        ZstdCodec(int level, boolean checksum) {
            this.level = level;
            this.checksum = checksum;
        }

        @Override
        public byte[] encode(byte[] raw) {
            Encoded e = compress(raw, new byte[bound(raw.length)]);
            return java.util.Arrays.copyOf(e.buffer(), e.length());
        }

        /**
         * Compressed into a worst-case buffer from the task's recycled arrays, returned untrimmed: zstd-jni's {@code
         * compress(byte[])} allocates that buffer (zeroed, so every page touched) and then copies the frame into an
         * exact array, which together took about as long as compressing a 48 MB chunk at level 3.
         */
        @Override
        public Encoded encodeUntrimmed(byte[] raw) {
            return compress(raw, ArrayRecycler.bytes(bound(raw.length)));
        }

        /**
         * The frame's header: a zstd frame whose content size, when it gives one (frames written by streaming without a
         * pledged size do not), is {@code decodedSizeBytes}.
         */
        @Override
        public void checkEncoded(byte[] encoded, int encodedLength, int decodedSizeBytes) {
            long size = Zstd.getFrameContentSize(encoded, 0, encodedLength);
            if (size != ZSTD_CONTENT_SIZE_UNKNOWN && size != decodedSizeBytes) {
                throw new StorageException(
                        size < 0
                                ? "not a zstd frame (" + encodedLength + " bytes)"
                                : "zstd frame says it decodes to " + size + " bytes, expected " + decodedSizeBytes);
            }
        }

        /** zstd's {@code ZSTD_CONTENTSIZE_UNKNOWN} as zstd-jni returns it. */
        private static final long ZSTD_CONTENT_SIZE_UNKNOWN = -1;

        /**
         * The frame's bytes in pieces of {@link ZstdStreaming#PIECE} bytes, decoded as they are asked for, which must be
         * in order (a zstd frame decodes from its start; {@link BlockStream} asks so): a stream of the chunk's elements
         * holds the stored bytes, one piece and zstd's window, never the chunk. The frame's content size is checked
         * first; a frame that ends early or goes on past the size is refused when its last piece is decoded.
         */
        @Override
        public Blocks blocks(byte[] encoded, int encodedLength, int decodedSizeBytes) {
            checkEncoded(encoded, encodedLength, decodedSizeBytes);
            return ZstdStreaming.pieces(encoded, encodedLength, decodedSizeBytes);
        }

        /** Streamed ({@link ZstdStreaming}): the raw bytes go to the sink piece by piece, never held whole. */
        @Override
        public boolean decodesInOrder() {
            return true;
        }

        @Override
        public void decode(byte[] encoded, int decodedSizeBytes, io.cubed.storage.zarr.codec.RawBytesSink sink) {
            decode(encoded, encoded.length, decodedSizeBytes, sink);
        }

        @Override
        public void decode(
                byte[] encoded,
                int encodedLength,
                int decodedSizeBytes,
                io.cubed.storage.zarr.codec.RawBytesSink sink) {
            if (encodedLength < 0 || encodedLength > encoded.length) {
                throw new IllegalArgumentException(
                        "length " + encodedLength + " outside an array of " + encoded.length + " encoded bytes");
            }
            ZstdStreaming.decompress(encoded, encodedLength, decodedSizeBytes, sink);
        }

        /** Streamed ({@link ZstdStreaming}): the raw bytes are taken piece by piece, never held whole. */
        @Override
        public boolean encodesInOrder() {
            return true;
        }

        /**
         * One frame of the bytes {@code raw} gives, taken in order a piece at a time ({@link ZstdStreaming}) unless they
         * are in one array already, into a worst-case buffer from the task's recycled arrays, returned untrimmed.
         */
        @Override
        public Encoded encode(io.cubed.storage.zarr.codec.RawBytes raw) {
            byte[] whole = raw.array();
            if (whole != null) {
                return encodeUntrimmed(whole);
            }
            return ZstdStreaming.compress(raw, level, checksum, ArrayRecycler.bytes(bound(raw.size())));
        }

        /** Streamed to {@code out} as zstd makes the frame ({@link ZstdStreaming}): no array of either side. */
        @Override
        public void encode(io.cubed.storage.zarr.codec.RawBytes raw, java.nio.channels.WritableByteChannel out)
                throws IOException {
            ZstdStreaming.compress(raw, level, checksum, out);
        }

        private Encoded compress(byte[] raw, byte[] out) {
            try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
                ctx.setLevel(level);
                ctx.setChecksum(checksum);
                return new Encoded(out, ctx.compressByteArray(out, 0, out.length, raw, 0, raw.length));
            } catch (ZstdException e) {
                throw new StorageException("zstd cannot compress " + raw.length + " bytes: " + e.getMessage(), e);
            }
        }

        private static int bound(int rawLength) {
            long b = Zstd.compressBound(rawLength);
            if (b > Integer.MAX_VALUE - 8) {
                throw new StorageException("a chunk of " + rawLength
                        + " bytes is too large for one zstd frame in a Java" + " array (worst case " + b + " bytes)");
            }
            return (int) b;
        }

        /** Decompressed into an array of the task's recycled ones: the caller hands it back once it has the values. */
        @Override
        public byte[] decode(byte[] encoded, int decodedSizeBytes) {
            return decode(encoded, encoded.length, decodedSizeBytes);
        }

        /**
         * True: every decoder here reads the frame within the length it is given, so the stored bytes may come in a
         * longer array recycled from chunk to chunk ({@code Store.getTransient(key, capacity)}) instead of a new
         * array of each frame's own length.
         */
        @Override
        public boolean decodesFromLongerArrays() {
            return true;
        }

        @Override
        public byte[] decode(byte[] encoded, int encodedLength, int decodedSizeBytes) {
            if (encodedLength < 0 || encodedLength > encoded.length) {
                throw new IllegalArgumentException(
                        "length " + encodedLength + " outside an array of " + encoded.length + " encoded bytes");
            }
            try {
                byte[] out = ArrayRecycler.bytes(decodedSizeBytes);
                long n = Zstd.decompressByteArray(out, 0, out.length, encoded, 0, encodedLength);
                if (n != decodedSizeBytes) {
                    throw new StorageException("zstd frame decodes to " + n + " bytes, expected " + decodedSizeBytes);
                }
                return out;
            } catch (ZstdException e) {
                throw new StorageException("corrupt zstd frame: " + e.getMessage(), e);
            }
        }
    }

    /**
     * numcodecs LZ4: a 4-byte little-endian uncompressed length followed by one LZ4 block, compressed at the codec's
     * acceleration ({@link Lz4Blocks}).
     */
    static final class Lz4Codec implements Codec {
        private static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
        private final int acceleration;
        private final LZ4SafeDecompressor decompressor = FACTORY.safeDecompressor();

        Lz4Codec(int acceleration) {
            this.acceleration = acceleration;
        }

        @Override
        public byte[] encode(byte[] raw) {
            LZ4Compressor compressor = Lz4Blocks.compressor(acceleration);
            try {
                Encoded e = compress(compressor, raw, new byte[4 + compressor.maxCompressedLength(raw.length)]);
                return java.util.Arrays.copyOf(e.buffer(), e.length());
            } finally {
                Lz4Blocks.release(compressor);
            }
        }

        /** Into a worst-case buffer from the task's recycled arrays, untrimmed (as zstd's, above). */
        @Override
        public Encoded encodeUntrimmed(byte[] raw) {
            LZ4Compressor compressor = Lz4Blocks.compressor(acceleration);
            try {
                return compress(compressor, raw, ArrayRecycler.bytes(4 + compressor.maxCompressedLength(raw.length)));
            } finally {
                Lz4Blocks.release(compressor);
            }
        }

        private static Encoded compress(LZ4Compressor compressor, byte[] raw, byte[] out) {
            out[0] = (byte) raw.length;
            out[1] = (byte) (raw.length >>> 8);
            out[2] = (byte) (raw.length >>> 16);
            out[3] = (byte) (raw.length >>> 24);
            int n = compressor.compress(raw, 0, raw.length, out, 4, out.length - 4);
            return new Encoded(out, 4 + n);
        }

        @Override
        public byte[] decode(byte[] encoded, int decodedSizeBytes) {
            if (encoded.length < 4) {
                throw new StorageException(
                        "lz4 data of " + encoded.length + " bytes is shorter than its 4-byte header");
            }
            int size = (encoded[0] & 0xff)
                    | (encoded[1] & 0xff) << 8
                    | (encoded[2] & 0xff) << 16
                    | (encoded[3] & 0xff) << 24;
            if (size != decodedSizeBytes) {
                throw new StorageException("lz4 header says " + size + " bytes, expected " + decodedSizeBytes);
            }
            byte[] out = ArrayRecycler.bytes(size);
            try {
                int n = decompressor.decompress(encoded, 4, encoded.length - 4, out, 0, size);
                if (n != size) {
                    throw new StorageException("lz4 block decodes to " + n + " bytes, expected " + size);
                }
            } catch (LZ4Exception e) {
                throw new StorageException("corrupt lz4 block: " + e.getMessage(), e);
            }
            return out;
        }
    }

    /** bzip2 streams (commons-compress); {@code level} 1-9 is the block size in units of 100 kB. */
    static final class Bz2Codec implements Codec {
        private final int level;

        Bz2Codec(int level) {
            this.level = level;
        }

        @Override
        public byte[] encode(byte[] raw) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(64, raw.length / 2));
            try (OutputStream bz = new BZip2CompressorOutputStream(bytes, level)) {
                bz.write(raw);
            } catch (IOException e) {
                throw new StorageException("bz2 compression failed: " + e, e);
            }
            return bytes.toByteArray();
        }

        /**
         * Reads concatenated streams as Python's {@code bz2.decompress} (numcodecs' decoder) does: after at least one
         * whole stream, bytes that do not start another stream are ignored; a stream cut short is an error.
         */
        @Override
        public byte[] decode(byte[] encoded, int decodedSizeBytes) {
            try (InputStream in = new BZip2CompressorInputStream(new ByteArrayInputStream(encoded), true)) {
                byte[] out = new byte[decodedSizeBytes];
                int n = in.readNBytes(out, 0, decodedSizeBytes);
                if (n != decodedSizeBytes) {
                    throw new StorageException("bz2 stream ended after " + n + " of " + decodedSizeBytes + " bytes");
                }
                int more;
                try {
                    more = in.read();
                } catch (IOException e) {
                    if (String.valueOf(e.getMessage()).startsWith("Garbage after a valid BZip2 stream")) {
                        return out;
                    }
                    throw e;
                }
                if (more >= 0) {
                    throw new StorageException(
                            "bz2 stream holds more than the expected " + decodedSizeBytes + " bytes");
                }
                return out;
            } catch (IOException e) {
                throw new StorageException("corrupt bz2 stream: " + e.getMessage(), e);
            }
        }
    }

    static byte[] readExactly(InputStream in, int size, String codec) throws IOException {
        byte[] out = new byte[size];
        int n = in.readNBytes(out, 0, size);
        if (n != size) {
            throw new StorageException(codec + " stream ended after " + n + " of " + size + " bytes");
        }
        if (in.read() >= 0) {
            throw new StorageException(codec + " stream holds more than the expected " + size + " bytes");
        }
        return out;
    }
}
