package io.cubed.storage.zarr.blosc;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.error.StorageException;
import io.cubed.storage.zarr.codec.Codec;
import io.cubed.storage.zarr.codec.RawBytes;
import io.cubed.storage.zarr.codec.RawBytesSink;

/**
 * Writes Blosc-1 frames the way c-blosc 1.x does: same block size choice, split decision, header flags, stream layout
 * and fall-backs to stored streams or a stored (memcpyed) frame when data does not compress. Sizes are in bytes. The
 * frame is returned in the buffer it was written to ({@code HEADER_BYTES} longer than the input; its length says where
 * it ends) when it fills at least half of it, and trimmed to its size otherwise.
 */
final class BloscEncoder {
    static final int VERSION_FORMAT = 2;
    static final int CODEC_VERSION_FORMAT = 1;
    static final int HEADER_BYTES = 16;
    static final int FLAG_SHUFFLE = 0x1;
    static final int FLAG_MEMCPYED = 0x2;
    static final int FLAG_BITSHUFFLE = 0x4;
    static final int FLAG_RESERVED = 0x8;
    static final int FLAG_DONT_SPLIT = 0x10;
    /** Largest element size stored in the header; larger ones are treated as a stream of single bytes. */
    static final int MAX_TYPESIZE = 255;
    /** Blocks split into one stream per element byte only for element sizes up to this. */
    static final int MAX_SPLITS = 16;
    /** Inputs below this are stored; blocks split only if they hold at least this many elements. */
    static final int MIN_BUFFERSIZE = 128;

    static final int MAX_BLOCKSIZE = (Integer.MAX_VALUE - MAX_TYPESIZE * 4) / 3;
    static final int MAX_BUFFERSIZE = Integer.MAX_VALUE - HEADER_BYTES;
    private static final int L1 = 32 * 1024;

    private BloscEncoder() {}

    /**
     * Encodes {@code src} as one frame with the given internal codec, level (0..9), concrete shuffle, forced block size
     * in bytes (0 for automatic) and element size in bytes.
     */
    static Codec.Encoded encode(
            byte[] src, BloscCname cname, int clevel, BloscShuffle shuffle, int forcedBlocksize, int typesizeBytes) {
        return encode(RawBytes.of(src), cname, clevel, shuffle, forcedBlocksize, typesizeBytes);
    }

    /**
     * Encodes the raw bytes {@code src} gives as one frame, asking for one block at a time (into a per-thread block
     * buffer) unless they are already in an array; otherwise as {@link #encode(byte[], BloscCname, int, BloscShuffle,
     * int, int)}.
     */
    static Codec.Encoded encode(
            RawBytes src, BloscCname cname, int clevel, BloscShuffle shuffle, int forcedBlocksize, int typesizeBytes) {
        int nbytes = src.size();
        if (nbytes > MAX_BUFFERSIZE) {
            throw new StorageException(
                    "blosc cannot encode " + nbytes + " bytes: the limit is " + MAX_BUFFERSIZE + " bytes");
        }
        int typesize = typesizeBytes > MAX_TYPESIZE ? 1 : typesizeBytes;
        int blocksize = computeBlocksize(cname, clevel, typesize, nbytes, forcedBlocksize);
        int nblocks = nbytes / blocksize + (nbytes % blocksize > 0 ? 1 : 0);
        boolean split = splitBlock(cname, typesize, blocksize);

        int flags = cname.formatCode() << 5;
        if (shuffle == BloscShuffle.SHUFFLE) {
            flags |= FLAG_SHUFFLE;
        } else if (shuffle == BloscShuffle.BITSHUFFLE) {
            flags |= FLAG_BITSHUFFLE;
        }
        if (!split) {
            flags |= FLAG_DONT_SPLIT;
        }
        byte[] dest = ArrayRecycler.bytes(nbytes + HEADER_BYTES);
        int ntbytes = 0;
        if (clevel > 0 && nbytes >= MIN_BUFFERSIZE) {
            try (InternalCodecs.Compressor compressor = InternalCodecs.compressor(cname, clevel)) {
                ntbytes = compressBlocks(
                        src,
                        dest,
                        compressor,
                        cname,
                        clevel,
                        flags,
                        typesize,
                        blocksize,
                        nblocks,
                        split && typesize > 1);
            }
        }
        if (ntbytes == 0) {
            flags |= FLAG_MEMCPYED;
            src.copyTo(0, dest, HEADER_BYTES, nbytes);
            ntbytes = HEADER_BYTES + nbytes;
        }
        dest[0] = VERSION_FORMAT;
        dest[1] = CODEC_VERSION_FORMAT;
        dest[2] = (byte) flags;
        dest[3] = (byte) typesize;
        LittleEndian.putInt(dest, 4, nbytes);
        LittleEndian.putInt(dest, 8, blocksize);
        LittleEndian.putInt(dest, 12, ntbytes);
        // A frame of at least half the buffer stays where it is: trimming it would copy nearly a chunk and, for a
        // moment, hold the buffer and the copy together. A smaller frame is trimmed: the copy is cheap, and the chunk-
        // sized buffer becomes garbage at once instead of being held until the frame is written.
        if (2L * ntbytes >= dest.length) {
            return new Codec.Encoded(dest, ntbytes);
        }
        byte[] trimmed = java.util.Arrays.copyOf(dest, ntbytes);
        ArrayRecycler.giveBack(dest);
        return new Codec.Encoded(trimmed, ntbytes);
    }

    /**
     * Writes the block offsets and compressed blocks after the header; returns the frame size in bytes, or 0 when the
     * data does not fit in {@code dest} (the caller then stores it). With several threads allowed ({@link
     * BloscThreads}), the blocks are compressed at the same time, each with a compressor of its own, and then laid out
     * in order: the frame is byte for byte the one a single thread writes.
     */
    private static int compressBlocks(
            RawBytes raw,
            byte[] dest,
            InternalCodecs.Compressor compressor,
            BloscCname cname,
            int clevel,
            int flags,
            int typesize,
            int blocksize,
            int nblocks,
            boolean split) {
        int maxbytes = dest.length;
        int ntbytes = HEADER_BYTES + 4 * nblocks;
        if (ntbytes > maxbytes) {
            return 0;
        }
        int threads = BloscThreads.current();
        if (threads > 1 && nblocks > 1) {
            byte[][] blocks = new byte[nblocks][];
            int[] sizes = new int[nblocks];
            BloscThreads.forEachRange(nblocks, threads, (from, to) -> {
                try (InternalCodecs.Compressor own = InternalCodecs.compressor(cname, clevel)) {
                    for (int j = from; j < to; j++) {
                        int bsize = Math.min(blocksize, raw.size() - j * blocksize);
                        int nsplits = split && bsize == blocksize ? typesize : 1;
                        byte[] out = new byte[bsize + 4 * nsplits];
                        sizes[j] = compressBlock(raw, j, own, flags, typesize, blocksize, split, out, 0, out.length);
                        blocks[j] = out;
                    }
                }
            });
            for (int j = 0; j < nblocks; j++) {
                LittleEndian.putInt(dest, HEADER_BYTES + 4 * j, ntbytes);
                if (ntbytes + sizes[j] > maxbytes) {
                    return 0;
                }
                System.arraycopy(blocks[j], 0, dest, ntbytes, sizes[j]);
                ntbytes += sizes[j];
            }
            return ntbytes;
        }
        for (int j = 0; j < nblocks; j++) {
            LittleEndian.putInt(dest, HEADER_BYTES + 4 * j, ntbytes);
            ntbytes = compressBlock(raw, j, compressor, flags, typesize, blocksize, split, dest, ntbytes, maxbytes);
            if (ntbytes == 0) {
                return 0;
            }
        }
        return ntbytes;
    }

    /**
     * Shuffles (as {@code flags} say) and compresses block {@code j} of {@code raw} into {@code dest} from {@code
     * ntbytes}: its streams, each after its 4-byte size, stored when it does not compress. Returns the offset after the
     * block, or 0 when it does not fit below {@code maxbytes}.
     */
    private static int compressBlock(
            RawBytes raw,
            int j,
            InternalCodecs.Compressor compressor,
            int flags,
            int typesize,
            int blocksize,
            boolean split,
            byte[] dest,
            int ntbytes,
            int maxbytes) {
        boolean shuffle = (flags & FLAG_SHUFFLE) != 0 && typesize > 1;
        boolean bitshuffle = (flags & FLAG_BITSHUFFLE) != 0;
        int blockOff = j * blocksize;
        int bsize = Math.min(blocksize, raw.size() - blockOff);
        boolean leftover = bsize < blocksize;
        byte[] array = raw.array();
        if (shuffle && typesize == 8 && !leftover && array == null) {
            // Values the source holds as float64 are shuffled from its array, not copied into a block of bytes first.
            RawBytesSink.Doubles values = raw.doublesAt(blockOff, bsize);
            if (values != null) {
                byte[] in = BlockBuffers.encoder(1, blocksize);
                ByteShuffle.shuffle8FromDoubles(bsize / 8, values.array(), values.offset(), in, 0);
                return compressStreams(in, 0, bsize, compressor, split ? typesize : 1, dest, ntbytes, maxbytes);
            }
        }
        byte[] src = array;
        int srcOff = blockOff;
        if (array == null) {
            src = BlockBuffers.encoder(0, blocksize);
            raw.copyTo(blockOff, src, 0, bsize);
            srcOff = 0;
        }
        byte[] in = src;
        int inOff = srcOff;
        if (shuffle) {
            in = BlockBuffers.encoder(1, blocksize);
            ByteShuffle.shuffle(typesize, bsize, src, srcOff, in, 0);
            inOff = 0;
        } else if (bitshuffle && bsize >= typesize) {
            in = BlockBuffers.encoder(1, blocksize);
            BitShuffle.shuffle(typesize, bsize, src, srcOff, in, 0);
            inOff = 0;
        }
        return compressStreams(
                in, inOff, bsize, compressor, split && !leftover ? typesize : 1, dest, ntbytes, maxbytes);
    }

    /**
     * Compresses the (shuffled) block {@code in[inOff...inOff + bsize)} as {@code nsplits} streams into {@code dest}
     * from {@code ntbytes}, each after its 4-byte size, stored when it does not compress. Returns the offset after the
     * block, or 0 when it does not fit below {@code maxbytes}.
     */
    private static int compressStreams(
            byte[] in,
            int inOff,
            int bsize,
            InternalCodecs.Compressor compressor,
            int nsplits,
            byte[] dest,
            int ntbytes,
            int maxbytes) {
        int neblock = bsize / nsplits;
        for (int s = 0; s < nsplits; s++) {
            int sizeAt = ntbytes;
            ntbytes += 4;
            int maxout = neblock;
            if (ntbytes + maxout > maxbytes) {
                maxout = maxbytes - ntbytes;
                if (maxout <= 0) {
                    return 0;
                }
            }
            int streamOff = inOff + s * neblock;
            int cbytes = compressor.compress(in, streamOff, neblock, dest, ntbytes, maxout);
            if (cbytes <= 0 || cbytes >= neblock) {
                // Store the stream; a size equal to the stream length marks it as stored.
                if (ntbytes + neblock > maxbytes) {
                    return 0;
                }
                System.arraycopy(in, streamOff, dest, ntbytes, neblock);
                cbytes = neblock;
            }
            LittleEndian.putInt(dest, sizeAt, cbytes);
            ntbytes += cbytes;
        }
        return ntbytes;
    }

    /** Whether c-blosc (in its default forward-compatible split mode) splits blocks into one stream per byte. */
    static boolean splitBlock(BloscCname cname, int typesize, int blocksize) {
        return cname != BloscCname.ZSTD && typesize <= MAX_SPLITS && blocksize / typesize >= MIN_BUFFERSIZE;
    }

    /** The block size in bytes c-blosc 1.x chooses for these parameters ({@code forced} 0 means automatic). */
    static int computeBlocksize(BloscCname cname, int clevel, int typesize, int nbytes, int forced) {
        if (nbytes < typesize) {
            return 1;
        }
        int blocksize = nbytes;
        if (forced != 0) {
            blocksize = Math.min(Math.max(forced, MIN_BUFFERSIZE), MAX_BLOCKSIZE);
        } else if (nbytes >= L1) {
            blocksize = L1;
            if (cname.highCompressionRatio()) {
                blocksize *= 2;
            }
            if (clevel == 0) {
                blocksize /= 4;
            } else if (clevel == 1) {
                blocksize /= 2;
            } else if (clevel == 3) {
                blocksize *= 2;
            } else if (clevel == 4 || clevel == 5) {
                blocksize *= 4;
            } else if (clevel >= 6 && clevel <= 8) {
                blocksize *= 8;
            } else if (clevel == 9) {
                blocksize *= cname.highCompressionRatio() ? 16 : 8;
            }
        }
        if (clevel > 0 && splitBlock(cname, typesize, blocksize)) {
            blocksize = Math.min(blocksize, 1 << 18) * typesize;
            blocksize = Math.min(Math.max(blocksize, 1 << 16), 1 << 20);
        }
        if (blocksize > nbytes) {
            blocksize = nbytes;
        }
        if (blocksize > typesize) {
            blocksize = blocksize / typesize * typesize;
        }
        return blocksize;
    }
}
