package io.cubed.storage;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import java.util.Arrays;

/**
 * A read-only view of a stored array with larger chunks, each a whole number of stored chunks along every axis: a
 * view chunk is assembled from the stored chunks it covers, read one at a time.
 */
public final class RegroupedChunkStore implements ChunkStore {
    private static final long serialVersionUID = 1L;

    private final ChunkStore source;
    private final ChunkGrid grid;

    private RegroupedChunkStore(ChunkStore source, ChunkGrid grid) {
        this.source = source;
        this.grid = grid;
    }

    /**
     * {@code source} seen with chunks {@code chunks}, each a multiple of its {@linkplain ChunkStore#readableChunkShape
     * readable chunk} (the stored chunk, or a sharded Zarr v3 array's inner chunk) along its axis, or the whole axis.
     */
    public static ChunkStore of(ChunkStore source, int[] chunks) {
        ChunkGrid stored = source.grid();
        if (Arrays.equals(chunks, stored.chunkShape())) {
            return source;
        }
        ChunkGrid g = ChunkGrid.of(stored.shape(), chunks);
        int[] readable = source.readableChunkShape();
        boolean sharded = !Arrays.equals(readable, stored.chunkShape());
        for (int i = 0; i < chunks.length; i++) {
            // A chunk that reaches the end of the axis (-1, the whole axis, or the stored chunk of an axis shorter
            // than it) holds whole stored chunks and the edge one.
            if (chunks[i] % readable[i] != 0 && chunks[i] < stored.shape(i)) {
                throw new InvalidArgumentException("chunks " + Arrays.toString(chunks) + " for " + source.url()
                        + " must be multiples of its " + (sharded ? "inner chunks " : "stored chunks ")
                        + Arrays.toString(readable) + " (axis " + i + ")"
                        + (sharded ? ", the inner chunks of its shards " + Arrays.toString(stored.chunkShape()) : "")
                        + "; use rechunk for other chunkings");
            }
        }
        return new RegroupedChunkStore(source, g);
    }

    /** True when each chunk of this view holds whole stored chunks of the source (shards, when sharded). */
    private boolean wholeStoredChunks() {
        ChunkGrid stored = source.grid();
        for (int i = 0; i < grid.ndim(); i++) {
            if (grid.chunkShape(i) % stored.chunkShape(i) != 0 && grid.chunkShape(i) < stored.shape(i)) {
                return false;
            }
        }
        return true;
    }

    /** The stored array this view reads. */
    public ChunkStore source() {
        return source;
    }

    @Override
    public String url() {
        return source.url();
    }

    @Override
    public java.util.Optional<String> storedAt() {
        return source.storedAt();
    }

    @Override
    public DType dtype() {
        return source.dtype();
    }

    @Override
    public ChunkGrid grid() {
        return grid;
    }

    @Override
    public Scalar fillValue() {
        return source.fillValue();
    }

    @Override
    public Chunk readChunk(long... chunkCoords) {
        grid.checkCoords(chunkCoords);
        return source.readRegion(grid.chunkOffset(chunkCoords), grid.chunkShapeAt(chunkCoords));
    }

    /**
     * Reads each stored chunk of the view chunk straight into the targets, one at a time; a view chunk within a shard
     * is read as a region (its inner chunks with ranged reads) and copied into them.
     */
    @Override
    public void readChunkInto(long[] chunkCoords, Chunk[] targets, long[][] targetOffsets) {
        grid.checkCoords(chunkCoords);
        long[] offset = grid.chunkOffset(chunkCoords);
        int[] shape = grid.chunkShapeAt(chunkCoords);
        if (wholeStoredChunks()) {
            ChunkStores.readBoxInto(source, offset, shape, targets, targetOffsets);
        } else {
            ChunkStores.copyOverlaps(source.readRegion(offset, shape), offset, targets, targetOffsets);
        }
    }

    /** What reading ahead holds in flight: whole stored chunks' worth, or runs of inner chunks of a view chunk. */
    @Override
    public long inFlightBytes() {
        return wholeStoredChunks() ? source.inFlightBytes() : source.regionInFlightBytes(grid.chunkShape());
    }

    @Override
    public long regionInFlightBytes(int[] regionShape) {
        return source.regionInFlightBytes(regionShape);
    }

    /** Starts reading ahead what reading the view chunk will read: its stored chunks, or its inner chunks' ranges. */
    @Override
    public void readAhead(long[] chunkCoords) {
        source.readRegionAhead(grid.chunkOffset(chunkCoords), grid.chunkShapeAt(chunkCoords));
    }

    @Override
    public void readRegionAhead(long[] offset, int[] shape) {
        source.readRegionAhead(offset, shape);
    }

    @Override
    public void readRegionAhead(long[] offset, int[] shape, long[][] wanted) {
        source.readRegionAhead(offset, shape, wanted);
    }

    @Override
    public void writeChunk(Chunk chunk, long... chunkCoords) {
        throw new InvalidArgumentException(url() + " is opened with chunks " + Arrays.toString(grid.chunkShape())
                + " for reading only; write through its stored chunks");
    }

    @Override
    public boolean chunkExists(long... chunkCoords) {
        grid.checkCoords(chunkCoords);
        return true;
    }

    @Override
    public Chunk readRegion(long[] offset, int[] shape) {
        return source.readRegion(offset, shape);
    }

    @Override
    public Chunk readRegion(long[] offset, int[] shape, long[][] wanted) {
        return source.readRegion(offset, shape, wanted);
    }

    /**
     * The source's copies, with the read copies of a region of this view's chunk shape when the source reads regions
     * otherwise than whole stored chunks (inner chunks of shards): the larger of the two, as a view chunk of whole
     * shards is read either way.
     */
    @Override
    public BufferCopies bufferCopies() {
        BufferCopies own = source.bufferCopies();
        if (Arrays.equals(source.readableChunkShape(), source.grid().chunkShape())) {
            return own;
        }
        int region = source.regionReadCopies(grid.chunkShape());
        return new BufferCopies(wholeStoredChunks() ? Math.max(own.read(), region) : region, own.write());
    }

    @Override
    public int[] readableChunkShape() {
        return source.readableChunkShape();
    }

    @Override
    public int regionReadCopies(int[] regionShape) {
        return source.regionReadCopies(regionShape);
    }
}
