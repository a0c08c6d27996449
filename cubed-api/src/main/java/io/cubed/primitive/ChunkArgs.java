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
        long[][] needed = overlapOfTargets(inputs[input].grid(), key, targets, targetOffsets);
        if (needed == null) {
            return; // no target takes any of its elements
        }
        long[][] region = regionToRead(inputs[input], key, needed[0], needed[1]);
        if (region != null) {
            Box box = readBox(input, region, null);
            ChunkStores.copyOverlaps(box.chunk(), box.offset(), targets, targetOffsets);
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

    /**
     * The smallest box of the chunk at {@code key} of {@code grid} that holds its overlap with every target: its first
     * element and the element after its last, per axis; null when no target overlaps the chunk.
     */
    private static long[][] overlapOfTargets(ChunkGrid grid, long[] key, Chunk[] targets, long[][] targetOffsets) {
        long[] offset = grid.chunkOffset(key);
        int[] shape = grid.chunkShapeAt(key);
        int nd = offset.length;
        long[] lo = null;
        long[] hi = null;
        for (int j = 0; j < targets.length; j++) {
            int[][] o = ChunkStores.overlap(offset, shape, targetOffsets[j], targets[j].shape());
            if (o == null) {
                continue;
            }
            if (lo == null) {
                lo = new long[nd];
                hi = new long[nd];
                Arrays.fill(lo, Long.MAX_VALUE);
                Arrays.fill(hi, Long.MIN_VALUE);
            }
            for (int a = 0; a < nd; a++) {
                lo[a] = Math.min(lo[a], offset[a] + o[0][a]);
                hi[a] = Math.max(hi[a], offset[a] + o[0][a] + o[2][a]);
            }
        }
        return lo == null ? null : new long[][] {lo, hi};
    }

    /**
     * The elements a task needs of one input chunk: per axis their indexes in the input, sorted and distinct (at least
     * one per axis).
     */
    public record Need(long[][] indexes) {
        /** The first element needed, per axis. */
        public long[] lo() {
            long[] lo = new long[indexes.length];
            for (int a = 0; a < lo.length; a++) {
                lo[a] = indexes[a][0];
            }
            return lo;
        }

        /** The element after the last needed, per axis. */
        public long[] hi() {
            long[] hi = new long[indexes.length];
            for (int a = 0; a < hi.length; a++) {
                hi[a] = indexes[a][indexes[a].length - 1] + 1;
            }
            return hi;
        }

        /**
         * The readable chunks of {@code store} ({@linkplain ChunkStore#readableChunkShape its inner chunks}) that hold
         * these elements, per axis: their indexes in the grid of readable chunks, sorted and distinct.
         */
        long[][] readable(ChunkStore store) {
            int[] r = store.readableChunkShape();
            long[][] wanted = new long[indexes.length][];
            for (int a = 0; a < wanted.length; a++) {
                long[] w = new long[indexes[a].length];
                int n = 0;
                for (long q : indexes[a]) {
                    long c = q / r[a];
                    if (n == 0 || w[n - 1] != c) {
                        w[n++] = c;
                    }
                }
                wanted[a] = Arrays.copyOf(w, n);
            }
            return wanted;
        }
    }

    /**
     * As {@link #box(int, int, long[], long[])} for the elements {@code need}: of the box, only the readable chunks
     * holding those elements are read ({@link ChunkStore#readRegion(long[], int[], long[][])}: a stepped slice or a
     * list of indexes reads the inner chunks it takes elements from, not those between them); the box's other
     * elements hold any value. Counts the bytes of the box.
     */
    public Box box(int input, int k, Need need) {
        return box(input, k, need.lo(), need.hi(), need);
    }

    /**
     * As {@link #box(int, int, Need)}, working out the elements only for an input that reads boxes ({@link
     * #readsBoxes}); of another the whole chunk is read, as {@link #chunk(int, int)} reads it.
     */
    public Box box(int input, int k, java.util.function.Supplier<Need> need) {
        if (!readsBoxes(inputs[input])) {
            return new Box(read(input, k), inputs[input].grid().chunkOffset(keys.keyAt(input, k)));
        }
        return box(input, k, need.get());
    }

    /** A box of an input chunk read by a task: its elements, and the element of the input its first one is. */
    public static final class Box {
        private final Chunk chunk;
        private final long[] offset;

        Box(Chunk chunk, long[] offset) {
            this.chunk = chunk;
            this.offset = offset.clone();
        }

        /** The elements read. */
        public Chunk chunk() {
            return chunk;
        }

        /** The element offset in the input of the box's first element (a copy). */
        public long[] offset() {
            return offset.clone();
        }
    }

    /**
     * The part of the {@code k}-th listed chunk of input {@code input} that holds the elements from {@code lo}
     * (inclusive) to {@code hi} (exclusive) per axis, read now: the box of whole readable chunks around them when
     * reading it pays ({@link #regionToRead}: a sharded array's inner chunks, read with ranged reads), else the whole
     * chunk, as {@link #chunk(int, int)} reads it. Counts the bytes of what it reads.
     */
    public Box box(int input, int k, long[] lo, long[] hi) {
        return box(input, k, lo, hi, null);
    }

    private Box box(int input, int k, long[] lo, long[] hi, Need need) {
        long[] key = keys.keyAt(input, k);
        ChunkStore store = inputs[input];
        long[][] region = regionToRead(store, key, lo, hi, need);
        if (region == null) {
            return new Box(read(input, k), store.grid().chunkOffset(key));
        }
        return readBox(input, region, need);
    }

    /** Reads the box {@code region} (first element, element after the last) of input {@code input}, counting it. */
    private Box readBox(int input, long[][] region, Need need) {
        ChunkStore store = inputs[input];
        int[] shape = new int[region[0].length];
        for (int a = 0; a < shape.length; a++) {
            shape[a] = Math.toIntExact(region[1][a] - region[0][a]);
        }
        Chunk c = need == null
                ? store.readRegion(region[0], shape)
                : store.readRegion(region[0], shape, need.readable(store));
        synchronized (this) {
            bytesRead += c.nbytes();
        }
        return new Box(c, region[0]);
    }

    /**
     * The box a task reads of the chunk at {@code key} of {@code store} when it needs only the elements from {@code
     * lo} (inclusive) to {@code hi} (exclusive) per axis, which must lie in that chunk: those elements widened to
     * whole {@linkplain ChunkStore#readableChunkShape readable chunks} and clipped to the chunk, as its first element
     * and the element after its last per axis; or null when the task reads the whole chunk. A box is read only from a
     * stored array that reads boxes smaller than its chunks (a sharded Zarr v3 array and views of it; never a chunk
     * computed in the task), when the box is smaller than the chunk, and when reading it holds no more than the plan
     * projects for reading the chunk: {@code box · (1 + regionReadCopies(box))} at most {@code chunk · (1 +
     * bufferCopies().read)} elements, the chunk counted at the grid's full chunk shape as the projection counts it.
     */
    static long[][] regionToRead(ChunkStore store, long[] key, long[] lo, long[] hi) {
        return regionToRead(store, key, lo, hi, null);
    }

    /**
     * As {@link #regionToRead(ChunkStore, long[], long[], long[])} for the elements {@code need} (null: every element
     * from {@code lo} to {@code hi}): the box pays when the readable chunks holding them ({@link Need#readable}) are
     * fewer elements than the chunk, though the box around them may be the whole chunk (a stepped slice).
     */
    static long[][] regionToRead(ChunkStore store, long[] key, Need need) {
        return regionToRead(store, key, need.lo(), need.hi(), need);
    }

    private static long[][] regionToRead(ChunkStore store, long[] key, long[] lo, long[] hi, Need need) {
        if (!readsBoxes(store)) {
            return null;
        }
        ChunkGrid grid = store.grid();
        int[] readable = store.readableChunkShape();
        int[] full = grid.chunkShape();
        long[] offset = grid.chunkOffset(key);
        int[] shape = grid.chunkShapeAt(key);
        int nd = offset.length;
        long[] first = new long[nd];
        long[] end = new long[nd];
        int[] boxShape = new int[nd];
        long boxElements = 1;
        long chunkElements = 1;
        for (int a = 0; a < nd; a++) {
            long chunkEnd = offset[a] + shape[a];
            if (lo[a] < offset[a] || hi[a] > chunkEnd || lo[a] >= hi[a]) {
                throw new InvalidArgumentException("elements " + lo[a] + " to " + (hi[a] - 1) + " along axis " + a
                        + " are not in chunk " + Arrays.toString(key) + " of " + store.url() + ", which holds "
                        + offset[a] + " to " + (chunkEnd - 1));
            }
            // Readable chunks start at multiples of their shape from the array's origin, as do the chunks.
            first[a] = Math.max(offset[a], lo[a] / readable[a] * readable[a]);
            end[a] = Math.min(chunkEnd, (hi[a] + readable[a] - 1) / readable[a] * readable[a]);
            boxShape[a] = (int) (end[a] - first[a]);
            boxElements *= boxShape[a];
            chunkElements *= shape[a];
        }
        if (readElements(store, first, end, need) >= chunkElements) {
            return null;
        }
        long projected = Chunk.elementCount(full) * (1L + store.bufferCopies().read());
        long held = boxElements * (1L + store.regionReadCopies(boxShape));
        return held <= projected ? new long[][] {first, end} : null;
    }

    /**
     * The elements of the box {@code first..end} (exclusive) that a region read reads: those of the readable chunks of
     * {@code need} in it ({@link Need#readable}), or all of the box.
     */
    private static long readElements(ChunkStore store, long[] first, long[] end, Need need) {
        int[] readable = store.readableChunkShape();
        long[][] wanted = need == null ? null : need.readable(store);
        long elements = 1;
        for (int a = 0; a < first.length; a++) {
            if (wanted == null) {
                elements *= end[a] - first[a];
                continue;
            }
            long along = 0;
            for (long c : wanted[a]) {
                along += Math.min(end[a], (c + 1) * readable[a]) - Math.max(first[a], c * readable[a]);
            }
            elements *= along;
        }
        return elements;
    }

    /**
     * Whether a task may read boxes of {@code store}'s chunks smaller than its chunks ({@link #regionToRead}): a stored
     * array whose {@linkplain ChunkStore#readableChunkShape readable chunks} are smaller than its chunks.
     */
    static boolean readsBoxes(ChunkStore store) {
        return !(store instanceof ComputedChunkStore)
                && !Arrays.equals(store.readableChunkShape(), store.grid().chunkShape());
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
