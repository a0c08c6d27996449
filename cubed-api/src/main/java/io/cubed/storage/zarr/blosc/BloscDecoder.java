package io.cubed.storage.zarr.blosc;

import static io.cubed.storage.zarr.blosc.BloscEncoder.FLAG_BITSHUFFLE;
import static io.cubed.storage.zarr.blosc.BloscEncoder.FLAG_DONT_SPLIT;
import static io.cubed.storage.zarr.blosc.BloscEncoder.FLAG_MEMCPYED;
import static io.cubed.storage.zarr.blosc.BloscEncoder.FLAG_RESERVED;
import static io.cubed.storage.zarr.blosc.BloscEncoder.FLAG_SHUFFLE;
import static io.cubed.storage.zarr.blosc.BloscEncoder.HEADER_BYTES;
import static io.cubed.storage.zarr.blosc.BloscEncoder.MAX_BLOCKSIZE;
import static io.cubed.storage.zarr.blosc.BloscEncoder.MAX_SPLITS;
import static io.cubed.storage.zarr.blosc.BloscEncoder.MIN_BUFFERSIZE;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.error.StorageException;
import io.cubed.storage.zarr.codec.RawBytesSink;

/**
 * Reads any Blosc-1 frame: every parameter (element size, block size, filters, internal codec, split, stored flags)
 * comes from the header, and every size and offset is validated before use, within the frame's size as its header gives
 * it (bytes after it are ignored, as by c-blosc). Sizes are in bytes.
 */
final class BloscDecoder {
    private BloscDecoder() {}

    /**
     * Decodes the frame in the first {@code frameLength} bytes of {@code frame}, which must describe exactly {@code
     * expectedBytes} decoded bytes.
     */
    static byte[] decode(byte[] frame, int frameLength, int expectedBytes) {
        byte[] out = ArrayRecycler.bytes(Math.max(0, expectedBytes));
        decode(
                frame,
                frameLength,
                expectedBytes,
                (at, src, srcOff, length) -> System.arraycopy(src, srcOff, out, at, length),
                out);
        return out;
    }

    /**
     * Decodes the frame in the first {@code frameLength} bytes of {@code frame}, which must describe exactly {@code
     * expectedBytes} decoded bytes, giving {@code sink} each block as it is decoded, in order, from a per-thread block
     * buffer: no chunk-sized array is allocated.
     */
    static void decode(byte[] frame, int frameLength, int expectedBytes, RawBytesSink sink) {
        decode(frame, frameLength, expectedBytes, sink, null);
    }

    /**
     * The decoder: blocks go to {@code sink}, except that unfiltered blocks are decompressed straight into {@code
     * direct} when it is given (the array {@code sink} copies into), saving a copy.
     */
    private static void decode(byte[] frame, int frameLength, int expectedBytes, RawBytesSink sink, byte[] direct) {
        Blocks b = blocks(frame, frameLength, expectedBytes);
        if (b.nbytes == 0) {
            return;
        }
        if (b.memcpyed) {
            sink.accept(0, frame, HEADER_BYTES, b.nbytes);
            return;
        }
        boolean filtered = b.shuffle || b.bitshuffle;
        // Blocks decode independently; several threads take them when the caller allows (BloscThreads) and the sink
        // can take runs in any order: every block boundary is a multiple of 8 bytes, so no element spans two runs.
        int threads = direct != null || b.blocksize % 8 == 0 ? BloscThreads.current() : 1;
        BloscThreads.forEachBlock(b.count(), threads, j -> {
            int blockOff = j * b.blocksize;
            if (threads == 1 && direct == null && b.decodesToDoubles(j)) {
                // A sink that would copy the block's bytes into float64 values as they are gets the values themselves.
                RawBytesSink.Doubles d = sink.doublesFor(blockOff, b.blocksize);
                if (d != null) {
                    b.decodeDoubles(j, BlockBuffers.decoder(0, b.blocksize), d.array(), d.offset());
                    sink.acceptedAsDoubles(blockOff, b.blocksize);
                    return;
                }
                // A sink that places the block's values in pieces (rows in several output chunks) gets each piece.
                if (sink.doublesPiece(blockOff, b.blocksize) != null) {
                    b.decodePieces(j, BlockBuffers.decoder(0, b.blocksize), sink);
                    return;
                }
            }
            // A block under the element size is never bitshuffled: it decodes as it is stored.
            boolean filteredBlock = b.shuffle || (b.bitshuffle && b.blockBytes(j) >= b.typesize);
            boolean straight = !filteredBlock && direct != null;
            byte[] scratch = filteredBlock ? BlockBuffers.decoder(0, b.blocksize) : null;
            byte[] out = straight ? direct : BlockBuffers.decoder(filtered ? 1 : 0, b.blocksize);
            int bsize = b.decode(j, scratch, out, straight ? blockOff : 0);
            if (!straight) {
                sink.accept(blockOff, out, 0, bsize);
            }
        });
    }

    /**
     * The blocks of the frame in the first {@code frameLength} bytes of {@code frame}, which must describe exactly
     * {@code expectedBytes} decoded bytes, for decoding one at a time: the header and every size in it are checked
     * here, each block's offsets when it is decoded.
     */
    static Blocks blocks(byte[] frame, int frameLength, int expectedBytes) {
        if (frame == null) {
            throw new StorageException("blosc frame is null");
        }
        if (frameLength < 0 || frameLength > frame.length) {
            throw new IllegalArgumentException(
                    "frame length " + frameLength + " outside an array of " + frame.length + " bytes");
        }
        if (frameLength < HEADER_BYTES) {
            throw new StorageException("blosc frame has " + frameLength + " bytes, fewer than the " + HEADER_BYTES
                    + "-byte header: truncated or not blosc");
        }
        int version = frame[0] & 0xFF;
        int codecVersion = frame[1] & 0xFF;
        int flags = frame[2] & 0xFF;
        int typesize = frame[3] & 0xFF;
        int nbytes = LittleEndian.getInt(frame, 4);
        int blocksize = LittleEndian.getInt(frame, 8);
        int cbytes = LittleEndian.getInt(frame, 12);
        if (version != 1 && version != BloscEncoder.VERSION_FORMAT) {
            throw new StorageException("unsupported blosc format version " + version
                    + " (Blosc-1 frames have version 1 or 2; Blosc2 frames are not supported)");
        }
        // Bytes after the frame are ignored, as c-blosc (which is never told the buffer's size) and so zarr-python do;
        // a frame cut short is refused (c-blosc would read past the buffer).
        if (cbytes < HEADER_BYTES || cbytes > frameLength) {
            throw new StorageException("blosc header says the frame has " + toUnsigned(cbytes) + " bytes but "
                    + frameLength + " were given" + (cbytes > frameLength ? ": truncated" : ""));
        }
        if (nbytes != expectedBytes) {
            throw new StorageException("blosc header says the data decodes to " + toUnsigned(nbytes) + " bytes but "
                    + expectedBytes + " were expected");
        }
        if (nbytes == 0) {
            return new Blocks(frame, cbytes, 0, 1, 1, flags, null);
        }
        if ((flags & FLAG_RESERVED) != 0) {
            throw new StorageException("blosc header has the reserved flag bit 3 set (flags 0x"
                    + Integer.toHexString(flags) + "): not a Blosc-1 frame this reader understands");
        }
        if (typesize == 0) {
            throw new StorageException("blosc header gives an element size of 0 bytes");
        }
        if (blocksize <= 0 || blocksize > nbytes || blocksize > MAX_BLOCKSIZE) {
            throw new StorageException("blosc header gives a block size of " + toUnsigned(blocksize)
                    + " bytes, invalid for " + nbytes + " decoded bytes");
        }
        if ((flags & FLAG_MEMCPYED) != 0) {
            if ((long) nbytes + HEADER_BYTES != cbytes) {
                throw new StorageException("stored blosc frame must have " + ((long) nbytes + HEADER_BYTES)
                        + " bytes for " + nbytes + " decoded bytes but has " + cbytes);
            }
            return new Blocks(frame, cbytes, nbytes, blocksize, typesize, flags, null);
        }
        int format = (flags >>> 5) & 7;
        InternalCodecs.Decompressor decompressor = InternalCodecs.decompressor(format);
        if (codecVersion != BloscEncoder.CODEC_VERSION_FORMAT) {
            throw new StorageException("unsupported " + BloscCname.formatName(format) + " format version "
                    + codecVersion + " in blosc header (expected 1)");
        }
        Blocks b = new Blocks(frame, cbytes, nbytes, blocksize, typesize, flags, decompressor);
        if (b.count() > (cbytes - HEADER_BYTES) / 4) {
            throw new StorageException(
                    "blosc frame of " + cbytes + " bytes is too short for the offsets of its " + b.count() + " blocks");
        }
        return b;
    }

    /** A checked frame header: its blocks decode independently, in any order, on any thread. */
    static final class Blocks {
        final byte[] frame;
        final int cbytes;
        final int nbytes;
        final int blocksize;
        final int typesize;
        final boolean memcpyed;
        final boolean shuffle;
        final boolean bitshuffle;
        final boolean splittable;
        final int format;
        final InternalCodecs.Decompressor decompressor;

        private Blocks(
                byte[] frame,
                int cbytes,
                int nbytes,
                int blocksize,
                int typesize,
                int flags,
                InternalCodecs.Decompressor decompressor) {
            this.frame = frame;
            this.cbytes = cbytes;
            this.nbytes = nbytes;
            this.blocksize = blocksize;
            this.typesize = typesize;
            this.memcpyed = (flags & FLAG_MEMCPYED) != 0;
            this.shuffle = (flags & FLAG_SHUFFLE) != 0 && typesize > 1;
            this.bitshuffle = !shuffle && (flags & FLAG_BITSHUFFLE) != 0;
            this.splittable =
                    (flags & FLAG_DONT_SPLIT) == 0 && typesize <= MAX_SPLITS && blocksize / typesize >= MIN_BUFFERSIZE;
            this.format = (flags >>> 5) & 7;
            this.decompressor = decompressor;
        }

        /** Number of blocks. */
        int count() {
            return nbytes == 0 ? 0 : nbytes / blocksize + (nbytes % blocksize > 0 ? 1 : 0);
        }

        /** Decoded bytes of block {@code j}: the block size, less for the last block. */
        int blockBytes(int j) {
            return Math.min(blocksize, nbytes - j * blocksize);
        }

        /**
         * Decodes block {@code j} into {@code out} from {@code outOff} and returns its size; {@code scratch}, of at
         * least the block size, holds the decompressed bytes of a shuffled block (it may be null for others).
         */
        int decode(int j, byte[] scratch, byte[] out, int outOff) {
            return decodeTo(j, scratch, out, outOff);
        }

        /**
         * Whether block {@code j} can be decoded straight into {@code float64} values ({@link #decodeDoubles}): a full
         * block of 8-byte elements, shuffled, one stream per byte of its elements.
         */
        boolean decodesToDoubles(int j) {
            return !memcpyed && shuffle && typesize == 8 && splittable && blockBytes(j) == blocksize;
        }

        /**
         * Decodes block {@code j}, for which {@link #decodesToDoubles} holds, into {@code values[valueOff...]}: the
         * doubles whose little-endian bytes the elements are, through {@code scratch} for the streams that are
         * compressed.
         */
        void decodeDoubles(int j, byte[] scratch, double[] values, int valueOff) {
            decodeTo(j, scratch, values, valueOff);
        }

        /**
         * Decodes block {@code j}, for which {@link #decodesToDoubles} holds, into the pieces {@code sink} gives ({@link
         * RawBytesSink#doublesPiece}), each then accepted.
         */
        void decodePieces(int j, byte[] scratch, RawBytesSink sink) {
            decodeTo(j, scratch, sink, 0);
        }

        /**
         * {@link #decode} into a {@code byte[]}, {@link #decodeDoubles} into a {@code double[]}, or {@link
         * #decodePieces} into a sink's pieces.
         */
        private int decodeTo(int j, byte[] scratch, Object out, int outOff) {
            int blockOff = j * blocksize;
            boolean bytes = out instanceof byte[];
            int bsize = blockBytes(j);
            if (memcpyed && bytes) {
                System.arraycopy(frame, HEADER_BYTES + blockOff, out, outOff, bsize);
                return bsize;
            }
            boolean leftover = bsize < blocksize;
            boolean bitshuffleBlock = bitshuffle && bsize >= typesize;
            boolean filtered = shuffle || bitshuffleBlock;
            byte[] target = filtered || !bytes ? scratch : (byte[]) out;
            int targetOff = filtered ? 0 : outOff;
            int nsplits = splittable && !leftover ? typesize : 1;
            int neblock = bsize / nsplits;
            if (neblock * nsplits != bsize) {
                throw new StorageException("blosc block " + j + " of " + bsize + " bytes does not split into " + nsplits
                        + " equal streams");
            }
            // Streams stored as they are (incompressible bytes: often the low-order bytes of floating-point data) are
            // unshuffled from the frame where they lie rather than first copied next to the decompressed ones: when a
            // block has one stream per byte of its 8-byte elements, and by any shuffle when the block is one stream.
            // rawAt[s] is where stream s lies in the frame, or -1 once it is in scratch.
            boolean inPlace = shuffle && nsplits == typesize && typesize == 8;
            if (!bytes && (!inPlace || memcpyed)) {
                throw new IllegalStateException("blosc block " + j + " cannot be decoded into doubles: "
                        + (inPlace ? "the frame is stored" : "not a split, shuffled block of 8-byte elements"));
            }
            int[] rawAt = inPlace ? new int[] {-1, -1, -1, -1, -1, -1, -1, -1} : null;
            int rawWhole = -1;
            int pos = LittleEndian.getInt(frame, HEADER_BYTES + 4 * j);
            for (int s = 0; s < nsplits; s++) {
                if (pos < HEADER_BYTES || pos > cbytes - 4) {
                    throw new StorageException("blosc block " + j + " stream " + s + " starts at byte " + pos
                            + ", outside the " + cbytes + "-byte frame");
                }
                int streamBytes = LittleEndian.getInt(frame, pos);
                pos += 4;
                if (streamBytes < 0 || streamBytes > cbytes - pos) {
                    throw new StorageException("blosc block " + j + " stream " + s + " says "
                            + toUnsigned(streamBytes) + " compressed bytes but only " + (cbytes - pos)
                            + " remain in the frame");
                }
                int dst = targetOff + s * neblock;
                if (streamBytes == neblock && inPlace) {
                    rawAt[s] = pos; // unshuffled from the frame below
                } else if (streamBytes == neblock && shuffle && nsplits == 1) {
                    rawWhole = pos; // likewise
                } else if (streamBytes == neblock) {
                    System.arraycopy(frame, pos, target, dst, neblock);
                } else {
                    int n = decompressor.decompress(frame, pos, streamBytes, target, dst, neblock);
                    if (n != neblock) {
                        throw new StorageException("blosc block " + j + " stream " + s + ": corrupt "
                                + BloscCname.formatName(format) + " data ("
                                + (n < 0 ? "undecodable" : "decodes to " + n + " bytes") + ", expected " + neblock
                                + " bytes)");
                    }
                }
                pos += streamBytes;
            }
            if (inPlace) {
                // Each stream where it lies: in the frame (stored) or in scratch (decompressed).
                byte[] a0 = rawAt[0] >= 0 ? frame : scratch;
                byte[] a1 = rawAt[1] >= 0 ? frame : scratch;
                byte[] a2 = rawAt[2] >= 0 ? frame : scratch;
                byte[] a3 = rawAt[3] >= 0 ? frame : scratch;
                byte[] a4 = rawAt[4] >= 0 ? frame : scratch;
                byte[] a5 = rawAt[5] >= 0 ? frame : scratch;
                byte[] a6 = rawAt[6] >= 0 ? frame : scratch;
                byte[] a7 = rawAt[7] >= 0 ? frame : scratch;
                int b0 = rawAt[0] >= 0 ? rawAt[0] : 0;
                int b1 = rawAt[1] >= 0 ? rawAt[1] : neblock;
                int b2 = rawAt[2] >= 0 ? rawAt[2] : 2 * neblock;
                int b3 = rawAt[3] >= 0 ? rawAt[3] : 3 * neblock;
                int b4 = rawAt[4] >= 0 ? rawAt[4] : 4 * neblock;
                int b5 = rawAt[5] >= 0 ? rawAt[5] : 5 * neblock;
                int b6 = rawAt[6] >= 0 ? rawAt[6] : 6 * neblock;
                int b7 = rawAt[7] >= 0 ? rawAt[7] : 7 * neblock;
                if (out instanceof double[] values) {
                    ByteShuffle.unshuffle8ToDoubles(
                            neblock, a0, b0, a1, b1, a2, b2, a3, b3, a4, b4, a5, b5, a6, b6, a7, b7, values, outOff);
                } else if (out instanceof RawBytesSink sink) {
                    for (int e = 0; e < neblock; ) {
                        int at = blockOff + 8 * e;
                        RawBytesSink.Piece p = sink.doublesPiece(at, 8 * (neblock - e));
                        if (p == null || p.bytes() <= 0 || p.bytes() % 8 != 0) {
                            throw new IllegalStateException("blosc block " + j + ": the sink gave no piece for bytes "
                                    + at + ".." + (blockOff + bsize) + " after giving one for the block's start");
                        }
                        int n = Math.min(p.bytes() / 8, neblock - e);
                        if (p.array() != null) {
                            ByteShuffle.unshuffle8ToDoubles(
                                    n,
                                    a0,
                                    b0 + e,
                                    a1,
                                    b1 + e,
                                    a2,
                                    b2 + e,
                                    a3,
                                    b3 + e,
                                    a4,
                                    b4 + e,
                                    a5,
                                    b5 + e,
                                    a6,
                                    b6 + e,
                                    a7,
                                    b7 + e,
                                    p.array(),
                                    p.offset());
                            sink.acceptedAsDoubles(at, 8 * n);
                        }
                        e += n;
                    }
                } else {
                    ByteShuffle.unshuffle8(
                            neblock,
                            a0,
                            b0,
                            a1,
                            b1,
                            a2,
                            b2,
                            a3,
                            b3,
                            a4,
                            b4,
                            a5,
                            b5,
                            a6,
                            b6,
                            a7,
                            b7,
                            (byte[]) out,
                            outOff);
                }
            } else if (shuffle && rawWhole >= 0) {
                ByteShuffle.unshuffle(typesize, bsize, frame, rawWhole, (byte[]) out, outOff);
            } else if (shuffle) {
                ByteShuffle.unshuffle(typesize, bsize, scratch, 0, (byte[]) out, outOff);
            } else if (bitshuffleBlock) {
                BitShuffle.unshuffle(typesize, bsize, scratch, 0, (byte[]) out, outOff);
            }
            return bsize;
        }
    }

    private static long toUnsigned(int v) {
        return Integer.toUnsignedLong(v);
    }
}
