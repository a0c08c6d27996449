package io.cubed.storage.zarr;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.CorruptDataException;
import io.cubed.error.StorageException;
import io.cubed.memory.HeapProbe;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.zarr.codec.Codec;
import io.cubed.storage.zarr.codec.RawBytesSink;
import java.nio.ByteOrder;

/**
 * A stored chunk's elements in C order, decoded one codec block at a time as they are taken ({@link
 * ChunkStore#streamChunk}): the stream holds the chunk's compressed bytes and one decoded block, never the chunk.
 * Elements split between two blocks are put together by the conversion ({@link ChunkBytes#sinkInto}).
 */
final class BlockStream implements ChunkStore.ChunkStream {
    private final Store.Bytes stored;
    private final Codec.Blocks blocks;
    private final DType dtype;
    private final ByteOrder order;
    private final int itemBytes;
    private final long nbytes;
    private final String chunk;
    private final byte[] block;

    private int blockPos;
    private int blockEnd;
    private int nextBlock;
    private long taken;
    /** The conversion into the last destination array, kept while the caller reuses that array. */
    private Object lastDst;

    private RawBytesSink lastSink;

    /** The stream of {@code blocks}, decoded from {@code stored}; {@code chunk} names the chunk in errors. */
    BlockStream(Store.Bytes stored, Codec.Blocks blocks, DType dtype, ByteOrder order, long nbytes, String chunk) {
        this.stored = stored;
        this.blocks = blocks;
        this.dtype = dtype;
        this.order = order;
        this.itemBytes = dtype.itemSizeBytes();
        this.nbytes = nbytes;
        this.chunk = chunk;
        this.block = ArrayRecycler.bytes(blocks.blockBytes());
    }

    @Override
    public void next(Object dst, int dstOff, int n) {
        long want = (long) n * itemBytes;
        if (n < 0 || taken + want > nbytes) {
            throw new IllegalArgumentException("asked for " + n + " more elements of " + chunk + ", which has "
                    + (nbytes - taken) / itemBytes + " left");
        }
        RawBytesSink sink = sinkInto(dst);
        int at = dstOff * itemBytes;
        long left = want;
        try {
            while (left > 0) {
                if (blockPos == blockEnd) {
                    if (nextBlock == blocks.count()) {
                        throw new StorageException("its blocks end after " + taken + " of " + nbytes + " bytes");
                    }
                    blockEnd = blocks.decode(nextBlock++, block, 0);
                    blockPos = 0;
                }
                int take = (int) Math.min(left, blockEnd - blockPos);
                sink.accept(at, block, blockPos, take);
                at += take;
                blockPos += take;
                left -= take;
                taken += take;
            }
        } catch (StorageException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new CorruptDataException("corrupt chunk " + chunk + ": " + e.getMessage(), e);
        }
        if (taken == nbytes) {
            // Every element taken: the compressed bytes, one block and what the caller computed from them are the
            // most the stream has held; the compressed bytes go back for the thread's next read.
            HeapProbe.checkpoint();
            ArrayRecycler.giveBack(stored.array());
            // The decoded block and the codec's scratch block serve the task's next stream.
            ArrayRecycler.giveBack(block);
            blocks.release();
        }
    }

    @Override
    public long nbytes() {
        return nbytes;
    }

    @Override
    public DType dtype() {
        return dtype;
    }

    private RawBytesSink sinkInto(Object dst) {
        if (dst != lastDst) {
            int elements = java.lang.reflect.Array.getLength(dst) / dtype.slotsPerElement();
            lastSink = ChunkBytes.sinkInto(Chunk.wrap(dtype, new int[] {elements}, dst), order);
            lastDst = dst;
        }
        return lastSink;
    }
}
