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
            return;
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
            sink.accept(0, frame, HEADER_BYTES, nbytes);
            return;
        }
        int format = (flags >>> 5) & 7;
        InternalCodecs.Decompressor decompressor = InternalCodecs.decompressor(format);
        if (codecVersion != BloscEncoder.CODEC_VERSION_FORMAT) {
            throw new StorageException("unsupported " + BloscCname.formatName(format) + " format version "
                    + codecVersion + " in blosc header (expected 1)");
        }
        int nblocks = nbytes / blocksize + (nbytes % blocksize > 0 ? 1 : 0);
        if (nblocks > (cbytes - HEADER_BYTES) / 4) {
            throw new StorageException(
                    "blosc frame of " + cbytes + " bytes is too short for the offsets of its " + nblocks + " blocks");
        }
        boolean shuffle = (flags & FLAG_SHUFFLE) != 0 && typesize > 1;
        boolean bitshuffle = !shuffle && (flags & FLAG_BITSHUFFLE) != 0;
        boolean splittable =
                (flags & FLAG_DONT_SPLIT) == 0 && typesize <= MAX_SPLITS && blocksize / typesize >= MIN_BUFFERSIZE;
        // Blocks decode independently; several threads take them when the caller allows (BloscThreads) and the sink
        // can take runs in any order: every block boundary is a multiple of 8 bytes, so no element spans two runs.
        int threads = direct != null || blocksize % 8 == 0 ? BloscThreads.current() : 1;
        BloscThreads.forEachBlock(nblocks, threads, j -> {
            byte[] tmp = BlockBuffers.decoder(0, blocksize);
            byte[] unshuffled = shuffle || bitshuffle ? BlockBuffers.decoder(1, blocksize) : null;
            int blockOff = j * blocksize;
            int bsize = Math.min(blocksize, nbytes - blockOff);
            boolean leftover = bsize < blocksize;
            boolean bitshuffleBlock = bitshuffle && bsize >= typesize;
            boolean filtered = shuffle || bitshuffleBlock;
            boolean straight = !filtered && direct != null;
            byte[] target = straight ? direct : tmp;
            int targetOff = straight ? blockOff : 0;
            int nsplits = splittable && !leftover ? typesize : 1;
            int neblock = bsize / nsplits;
            if (neblock * nsplits != bsize) {
                throw new StorageException("blosc block " + j + " of " + bsize + " bytes does not split into " + nsplits
                        + " equal streams");
            }
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
                if (streamBytes == neblock) {
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
            if (shuffle) {
                ByteShuffle.unshuffle(typesize, bsize, tmp, 0, unshuffled, 0);
                sink.accept(blockOff, unshuffled, 0, bsize);
            } else if (bitshuffleBlock) {
                BitShuffle.unshuffle(typesize, bsize, tmp, 0, unshuffled, 0);
                sink.accept(blockOff, unshuffled, 0, bsize);
            } else if (!straight) {
                sink.accept(blockOff, tmp, 0, bsize);
            }
        });
    }

    private static long toUnsigned(int v) {
        return Integer.toUnsignedLong(v);
    }
}
