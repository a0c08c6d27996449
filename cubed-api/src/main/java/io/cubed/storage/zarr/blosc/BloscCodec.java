package io.cubed.storage.zarr.blosc;

import io.cubed.error.StorageException;
import io.cubed.storage.zarr.codec.Codec;
import io.cubed.storage.zarr.codec.RawBytes;
import io.cubed.storage.zarr.codec.RawBytesSink;
import java.util.Arrays;
import java.util.Objects;

/**
 * The numcodecs {@code blosc} codec: Blosc-1 frames byte-compatible with c-blosc 1.x. Encoding uses the constructor's
 * parameters; decoding reads everything from the frame header, so it accepts any valid Blosc-1 frame.
 */
public final class BloscCodec implements Codec {
    private final BloscCname cname;
    private final int clevel;
    private final BloscShuffle shuffle;
    private final int blocksize;
    private final int typesize;

    /**
     * Starts the warm-up of the Vector API byte shuffle now (a background thread, see {@code ShuffleWarmup}) instead of
     * once the scalar loops have shuffled 12 GiB: a process about to shuffle gigabytes (the benchmark suite) gives the
     * JIT a head start, and its first chunks are shuffled by the vector code sooner. Does nothing where the vector
     * shuffle is off or already warm.
     */
    public static void warmUp() {
        ByteShuffle.startWarmup();
    }

    /**
     * A codec compressing with {@code cname} at level {@code clevel} (0..9, 0 stores), filter {@code shuffle}, block
     * size {@code blocksize} in bytes (0 chooses it as c-blosc does) and element size {@code typesize} in bytes.
     */
    public BloscCodec(BloscCname cname, int clevel, BloscShuffle shuffle, int blocksize, int typesize) {
        this.cname = Objects.requireNonNull(cname, "cname");
        this.shuffle = Objects.requireNonNull(shuffle, "shuffle");
        if (clevel < 0 || clevel > 9) {
            throw new StorageException("blosc clevel must be between 0 and 9, got " + clevel);
        }
        if (blocksize < 0) {
            throw new StorageException(
                    "blosc blocksize must be 0 (automatic) or a positive number of bytes, got " + blocksize);
        }
        if (typesize < 1) {
            throw new StorageException("blosc typesize must be at least 1 byte, got " + typesize);
        }
        this.clevel = clevel;
        this.blocksize = blocksize;
        this.typesize = typesize;
    }

    /** Compresses {@code raw} (bytes) into one Blosc-1 frame. */
    @Override
    public byte[] encode(byte[] raw) {
        Encoded e = encodeUntrimmed(raw);
        return e.length() == e.buffer().length ? e.buffer() : Arrays.copyOf(e.buffer(), e.length());
    }

    /**
     * The frame in the encoder's buffer (the input's size plus the header) when it fills at least half of it, without
     * the copy that would trim it; a smaller frame comes trimmed.
     */
    @Override
    public Encoded encodeUntrimmed(byte[] raw) {
        Objects.requireNonNull(raw, "raw");
        return BloscEncoder.encode(raw, cname, clevel, shuffle.resolve(typesize), blocksize, typesize);
    }

    @Override
    public boolean worksInBlocks() {
        return true;
    }

    /** Compresses the raw bytes {@code raw} gives block by block, without gathering them into one array. */
    @Override
    public Encoded encode(RawBytes raw) {
        Objects.requireNonNull(raw, "raw");
        return BloscEncoder.encode(raw, cname, clevel, shuffle.resolve(typesize), blocksize, typesize);
    }

    /** Decompresses one Blosc-1 frame block by block into {@code sink}, without a chunk-sized array. */
    @Override
    public void decode(byte[] encoded, int decodedSizeBytes, RawBytesSink sink) {
        BloscDecoder.decode(encoded, encoded == null ? 0 : encoded.length, decodedSizeBytes, sink);
    }

    /** Decompresses one Blosc-1 frame that must decode to exactly {@code decodedSizeBytes} bytes. */
    @Override
    public byte[] decode(byte[] encoded, int decodedSizeBytes) {
        return BloscDecoder.decode(encoded, encoded == null ? 0 : encoded.length, decodedSizeBytes);
    }

    /** The frame's header: its version, its sizes against {@code encodedLength} and {@code decodedSizeBytes}. */
    @Override
    public void checkEncoded(byte[] encoded, int encodedLength, int decodedSizeBytes) {
        BloscDecoder.blocks(encoded, encodedLength, decodedSizeBytes);
    }

    /** True: a frame's header gives its length, and the decoder reads within {@code encodedLength}. */
    @Override
    public boolean decodesFromLongerArrays() {
        return true;
    }

    @Override
    public byte[] decode(byte[] encoded, int encodedLength, int decodedSizeBytes) {
        return BloscDecoder.decode(encoded, encodedLength, decodedSizeBytes);
    }

    @Override
    public void decode(byte[] encoded, int encodedLength, int decodedSizeBytes, RawBytesSink sink) {
        BloscDecoder.decode(encoded, encodedLength, decodedSizeBytes, sink);
    }

    /**
     * The blocks of one Blosc-1 frame, each decoded on request into the caller's array, through a scratch block of
     * this reader's own (so that several readers can decode in step on one thread).
     */
    @Override
    public Blocks blocks(byte[] encoded, int encodedLength, int decodedSizeBytes) {
        BloscDecoder.Blocks b = BloscDecoder.blocks(encoded, encodedLength, decodedSizeBytes);
        byte[] scratch = b.shuffle || b.bitshuffle ? io.cubed.chunk.ArrayRecycler.bytes(b.blocksize) : null;
        return new Blocks() {
            @Override
            public int count() {
                return b.count();
            }

            @Override
            public int blockBytes() {
                return b.blocksize;
            }

            @Override
            public int decode(int j, byte[] out, int outOff) {
                java.util.Objects.checkIndex(j, b.count());
                return b.decode(j, scratch, out, outOff);
            }

            @Override
            public void release() {
                io.cubed.chunk.ArrayRecycler.giveBack(scratch);
            }
        };
    }

    /** The internal compressor used when encoding. */
    public BloscCname cname() {
        return cname;
    }

    /** The compression level (0..9) used when encoding. */
    public int clevel() {
        return clevel;
    }

    /** The filter used when encoding, as configured (possibly {@link BloscShuffle#AUTOSHUFFLE}). */
    public BloscShuffle shuffle() {
        return shuffle;
    }

    /** The configured block size in bytes; 0 means chosen automatically. */
    public int blocksize() {
        return blocksize;
    }

    /** The element size in bytes used for shuffling and splitting. */
    public int typesize() {
        return typesize;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BloscCodec other
                && other.cname == cname
                && other.clevel == clevel
                && other.shuffle == shuffle
                && other.blocksize == blocksize
                && other.typesize == typesize;
    }

    @Override
    public int hashCode() {
        return Objects.hash(cname, clevel, shuffle, blocksize, typesize);
    }

    @Override
    public String toString() {
        return "BloscCodec{cname=" + cname.jsonName() + ", clevel=" + clevel + ", shuffle=" + shuffle + ", blocksize="
                + blocksize + ", typesize=" + typesize + "}";
    }
}
