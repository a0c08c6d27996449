package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.ChunkStores;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The input chunks of one task, read on demand: {@link #chunk} when an input contributes one chunk, {@link #chunks}
 * to read all of an input's chunks together, {@link #iterator} to read them one at a time (bounded memory). Counts the
 * bytes read.
 */
public final class ChunkArgs {
    private final ChunkStore[] inputs;
    private final TaskKeys keys;
    private long bytesRead;

    ChunkArgs(ChunkStore[] inputs, long[][][] keys) {
        this(inputs, TaskKeys.listed(keys));
    }

    ChunkArgs(ChunkStore[] inputs, TaskKeys keys) {
        if (keys.inputs() != inputs.length) {
            throw new InvalidArgumentException("key function gave keys for " + keys.inputs() + " inputs, but the "
                    + "operation has " + inputs.length);
        }
        this.inputs = inputs;
        this.keys = keys;
    }

    /** Number of inputs. */
    public int size() {
        return inputs.length;
    }

    /** Number of chunks input {@code input} contributes. */
    public int count(int input) {
        return keys.count(input);
    }

    /** The chunk coordinates of input {@code input}'s {@code k}-th chunk. */
    public long[] key(int input, int k) {
        return keys.keyAt(input, k).clone();
    }

    /** The single chunk of input {@code input}; fails when it contributes several. */
    public Chunk chunk(int input) {
        if (keys.count(input) != 1) {
            throw new InvalidArgumentException(
                    "input " + input + " contributes " + keys.count(input) + " chunks to this task, not one");
        }
        return read(input, 0);
    }

    /** The single chunk of every input, read now, in input order; fails when an input contributes several. */
    public Chunk[] singleChunks() {
        Chunk[] blocks = new Chunk[inputs.length];
        for (int j = 0; j < blocks.length; j++) {
            blocks[j] = chunk(j);
        }
        return blocks;
    }

    /**
     * The {@code k}-th listed chunk of input {@code input}, read now: for chunk functions that decide from data already
     * read which of the listed chunks they need (each one read costs its bytes; the others are never read).
     */
    public Chunk chunk(int input, int k) {
        return read(input, k);
    }

    /**
     * The {@code k}-th listed chunk of input {@code input}, read now into {@code reuse} when that has its data type and
     * shape (its elements are overwritten; for tasks that read chunk after chunk of one shape into the same arrays),
     * else into a new chunk; a chunk computed in the task (a fused operation) is always new. Returns the chunk read.
     */
    public Chunk chunk(int input, int k, Chunk reuse) {
        long[] key = keys.keyAt(input, k);
        ChunkGrid grid = inputs[input].grid();
        if (reuse == null
                || inputs[input] instanceof ComputedChunkStore
                || reuse.dtype() != inputs[input].dtype()
                || !Arrays.equals(reuse.shape(), grid.chunkShapeAt(key))) {
            return read(input, k);
        }
        readInto(input, k, new Chunk[] {reuse}, new long[][] {grid.chunkOffset(key)});
        return reuse;
    }

    /** The data type of input {@code input}. */
    public DType dtype(int input) {
        return inputs[input].dtype();
    }

    /** The shape of the {@code k}-th listed chunk of input {@code input} (clipped at the array's edge). */
    public int[] chunkShape(int input, int k) {
        return inputs[input].grid().chunkShapeAt(keys.keyAt(input, k));
    }

    /** All chunks of input {@code input}, read now and held together. */
    public List<Chunk> chunks(int input) {
        int n = keys.count(input);
        List<Chunk> list = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            list.add(read(input, k));
        }
        return list;
    }

    /** The chunks of input {@code input}, each read when the iterator reaches it. */
    public Iterator<Chunk> iterator(int input) {
        int n = keys.count(input);
        return new Iterator<>() {
            private int k;

            @Override
            public boolean hasNext() {
                return k < n;
            }

            @Override
            public Chunk next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return read(input, k++);
            }
        };
    }

    /**
     * Reads the {@code k}-th listed chunk of input {@code input} straight into each of {@code targets} it overlaps,
     * target {@code j} holding the input's elements from element {@code targetOffsets[j]}: {@link
     * ChunkStore#readChunkInto}, so a stored chunk is converted into the targets without being allocated as a chunk
     * of its own. Counts the chunk's bytes as {@link #chunk(int, int)} does.
     */
    public void readInto(int input, int k, Chunk[] targets, long[][] targetOffsets) {
        long[] key = keys.keyAt(input, k);
        if (inputs[input] instanceof ComputedChunkStore) {
            // Computed in the task: read() counts what computing it read.
            ChunkStores.copyOverlaps(read(input, k), inputs[input].grid().chunkOffset(key), targets, targetOffsets);
            return;
        }
        inputs[input].readChunkInto(key, targets, targetOffsets);
        long nbytes = inputs[input].dtype().itemSizeBytes();
        for (int n : inputs[input].grid().chunkShapeAt(key)) {
            nbytes *= n;
        }
        synchronized (this) {
            bytesRead += nbytes;
        }
    }

    /**
     * The box of {@code shape} elements at element {@code offset} of input {@code input}, read now from whichever of
     * its chunks it overlaps; for operations that read regions instead of whole chunks (their memory is declared as
     * the operation's extra memory).
     */
    public Chunk region(int input, long[] offset, int[] shape) {
        Chunk c = inputs[input].readRegion(offset, shape);
        synchronized (this) {
            bytesRead += c.nbytes();
        }
        return c;
    }

    /** The shape of input {@code input}. */
    public long[] shape(int input) {
        return inputs[input].grid().shape();
    }

    private Chunk read(int input, int k) {
        long[] inner = new long[1];
        long[] key = keys.keyAt(input, k);
        Chunk c = inputs[input] instanceof ComputedChunkStore computed
                ? computed.readChunk(key, inner)
                : inputs[input].readChunk(key);
        synchronized (this) {
            // A chunk computed in the task (a fused operation) counts what computing it read, not its own size.
            bytesRead += inputs[input] instanceof ComputedChunkStore ? inner[0] : c.nbytes();
        }
        return c;
    }

    /**
     * Reads the {@code k}-th listed chunk of input {@code input} and hands it to {@code sink} box by box ({@link
     * ChunkStore#readChunkInBoxes}: a stored chunk decoded block by block, each block handed over while in cache; a
     * chunk computed by fused elementwise operations tile by tile as they compute it; another computed chunk whole).
     * Counts the chunk's bytes as {@link #chunk(int, int)} does.
     */
    public void readInBoxes(int input, int k, ChunkStore.BoxSink sink) {
        long[] key = keys.keyAt(input, k);
        if (inputs[input] instanceof ComputedChunkStore computed) {
            long[] inner = new long[1];
            computed.readChunkInBoxes(key, inner, sink);
            synchronized (this) {
                bytesRead += inner[0];
            }
            return;
        }
        inputs[input].readChunkInBoxes(key, sink);
        long nbytes = inputs[input].dtype().itemSizeBytes();
        for (int n : inputs[input].grid().chunkShapeAt(key)) {
            nbytes *= n;
        }
        synchronized (this) {
            bytesRead += nbytes;
        }
    }

    /**
     * The {@code k}-th listed chunk of input {@code input} as a stream of its elements in C order ({@link
     * ChunkStore#streamChunk}: a stored chunk decoded block by block as they are taken, holding at most {@code
     * budgetBytes} of decoded data or else the decoded chunk), or null when it is read whole (computed chunks, and
     * chunks the store does not stream). Counts the chunk's bytes as {@link #chunk(int, int)} does.
     */
    public ChunkStore.ChunkStream stream(int input, int k, long budgetBytes) {
        if (inputs[input] instanceof ComputedChunkStore) {
            return null;
        }
        ChunkStore.ChunkStream s = inputs[input].streamChunk(keys.keyAt(input, k), budgetBytes);
        if (s != null) {
            addBytesRead(s.nbytes());
        }
        return s;
    }

    synchronized long bytesRead() {
        return bytesRead;
    }

    /** Adds bytes read on this task's behalf elsewhere (by fused operations computed with these inputs). */
    synchronized void addBytesRead(long n) {
        bytesRead += n;
    }

    /** The store of input {@code input}. */
    ChunkStore input(int input) {
        return inputs[input];
    }
}
