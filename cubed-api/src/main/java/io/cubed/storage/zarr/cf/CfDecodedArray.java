package io.cubed.storage.zarr.cf;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import io.cubed.storage.ChunkStore;
import java.util.Optional;

/**
 * A read-only view of a stored array with its values CF-decoded ({@link CfDecoding}): each chunk is read from the
 * stored array and decoded in the task that reads it. Reads ahead and the requests in flight are the stored array's.
 */
public final class CfDecodedArray implements ChunkStore {
    private static final long serialVersionUID = 1L;

    private final ChunkStore source;
    private final CfDecoding decoding;
    private final Scalar fill;

    private CfDecodedArray(ChunkStore source, CfDecoding decoding) {
        this.source = source;
        this.decoding = decoding;
        Scalar f;
        try {
            f = decoding.decode(source.fillValue());
        } catch (RuntimeException e) {
            // A fill value that is no timestamp: missing.
            f = Scalar.ofLong(CfTimeUnits.NAT);
        }
        this.fill = f;
    }

    /** {@code source} decoded by {@code decoding}; {@code source} itself when decoding changes nothing. */
    public static ChunkStore of(ChunkStore source, CfDecoding decoding) {
        if (decoding.isIdentity()) {
            return source;
        }
        if (decoding.storedDType() != source.dtype()) {
            throw new IllegalArgumentException("the decoding of " + decoding.what() + " (" + decoding.storedDType()
                    + ") does not fit " + source.url() + " (" + source.dtype() + ")");
        }
        return new CfDecodedArray(source, decoding);
    }

    /** The stored array. */
    public ChunkStore source() {
        return source;
    }

    public CfDecoding decoding() {
        return decoding;
    }

    @Override
    public String url() {
        return source.url();
    }

    @Override
    public Optional<String> storedAt() {
        return source.storedAt();
    }

    @Override
    public DType dtype() {
        return decoding.dtype();
    }

    @Override
    public ChunkGrid grid() {
        return source.grid();
    }

    @Override
    public Scalar fillValue() {
        return fill;
    }

    @Override
    public Chunk readChunk(long... chunkCoords) {
        return decoding.decode(source.readChunk(chunkCoords));
    }

    @Override
    public Chunk readChunkIfStored(long... chunkCoords) {
        Chunk c = source.readChunkIfStored(chunkCoords);
        return c == null ? null : decoding.decode(c);
    }

    @Override
    public void readAhead(long[] chunkCoords) {
        source.readAhead(chunkCoords);
    }

    @Override
    public void readRegionAhead(long[] offset, int[] shape) {
        source.readRegionAhead(offset, shape);
    }

    @Override
    public long inFlightBytes() {
        return source.inFlightBytes();
    }

    @Override
    public long regionInFlightBytes(int[] regionShape) {
        return source.regionInFlightBytes(regionShape);
    }

    @Override
    public void writeChunk(Chunk chunk, long... chunkCoords) {
        throw new InvalidArgumentException(url() + " is opened CF-decoded, for reading only; write through the"
                + " stored array (Cubed.fromZarr without CfOptions)");
    }

    @Override
    public boolean chunkExists(long... chunkCoords) {
        return source.chunkExists(chunkCoords);
    }

    @Override
    public Chunk readRegion(long[] offset, int[] shape) {
        return decoding.decode(source.readRegion(offset, shape));
    }

    @Override
    public Chunk readRegion(long[] offset, int[] shape, long[][] wanted) {
        return decoding.decode(source.readRegion(offset, shape, wanted));
    }

    @Override
    public void readRegionAhead(long[] offset, int[] shape, long[][] wanted) {
        source.readRegionAhead(offset, shape, wanted);
    }

    @Override
    public BufferCopies bufferCopies() {
        // A chunk read into other chunks is decoded first (the stored values, then their CF decoding).
        return source.bufferCopies().readingInto(false);
    }

    /**
     * The stored array's: a box of it ({@link #readRegion}) is read as the stored array reads it (a sharded Zarr v3
     * array's inner chunks, with ranged reads) and decoded.
     */
    @Override
    public int[] readableChunkShape() {
        return source.readableChunkShape();
    }

    /**
     * What reading a box of {@code regionShape} holds besides the decoded box, in decoded boxes, rounded up: the
     * stored array's region read (the box of stored values and its {@code source.regionReadCopies}) while it reads,
     * then the box of stored values beside the decoded one while it is decoded; {@code ceil(stored item · (1 +
     * source copies) / decoded item)} covers both.
     */
    @Override
    public int regionReadCopies(int[] regionShape) {
        long stored = (long) source.dtype().itemSizeBytes() * (1L + source.regionReadCopies(regionShape));
        int decoded = dtype().itemSizeBytes();
        return Math.toIntExact((stored + decoded - 1) / decoded);
    }
}
