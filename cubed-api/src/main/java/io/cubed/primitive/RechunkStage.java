package io.cubed.primitive;

import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import java.util.Arrays;

/**
 * One copy stage of a rechunk plan, with its figures: an array of {@code shape} elements stored in {@code
 * inputChunks} is copied into a new array stored in {@code outputChunks}, one task per output chunk, each task reading
 * the input chunks its output chunk overlaps one at a time. Counts are exact for regular grids; memory is per task in
 * bytes, without {@code reservedMem}. Immutable.
 */
public final class RechunkStage {
    /** Bytes of the list of input chunk coordinates a task holds, per input chunk and axis (a {@code long}). */
    static final int KEY_BYTES_PER_AXIS = Long.BYTES;
    /** Bytes of the list of input chunk coordinates a task holds, per input chunk besides the coordinates. */
    static final int KEY_BYTES_PER_CHUNK = 24;
    /** Bytes of the list of input chunk coordinates a task holds, fixed part. */
    static final int KEY_BYTES_FIXED = 32;

    private final long[] shape;
    private final int itemsize;
    private final int[] inputChunks;
    private final int[] outputChunks;
    private final BufferCopies copies;
    private final long tasks;
    private final long reads;
    private final long bytesRead;
    private final long fanIn;

    RechunkStage(long[] shape, int itemsize, int[] inputChunks, int[] outputChunks, BufferCopies copies) {
        this.shape = shape.clone();
        this.itemsize = itemsize;
        this.inputChunks = inputChunks.clone();
        this.outputChunks = outputChunks.clone();
        this.copies = copies;
        long t = 1;
        long r = 1;
        long b = itemsize;
        long f = 1;
        for (int i = 0; i < shape.length; i++) {
            t = saturatedMultiply(t, ceilDiv(shape[i], outputChunks[i]));
            r = saturatedMultiply(r, readsAlong(shape[i], inputChunks[i], outputChunks[i]));
            b = saturatedMultiply(b, elementsReadAlong(shape[i], inputChunks[i], outputChunks[i]));
            f = saturatedMultiply(f, fanInAlong(shape[i], inputChunks[i], outputChunks[i]));
        }
        this.tasks = t;
        this.reads = r;
        this.bytesRead = b;
        this.fanIn = f;
    }

    /** The input array's chunk shape in elements (a copy). */
    public int[] inputChunks() {
        return inputChunks.clone();
    }

    /** The output array's chunk shape in elements (a copy): the chunks this stage writes, one task each. */
    public int[] outputChunks() {
        return outputChunks.clone();
    }

    /**
     * The largest piece a task copies from one input chunk, in elements per axis (a copy): the smaller of the input
     * and output chunk on each axis (rechunker's "intermediate chunks").
     */
    public int[] pieceChunks() {
        int[] p = new int[inputChunks.length];
        for (int i = 0; i < p.length; i++) {
            p[i] = Math.min(inputChunks[i], outputChunks[i]);
        }
        return p;
    }

    /** Size of {@link #pieceChunks()} in bytes. */
    public long pieceBytes() {
        return saturatedMultiply(itemsize, product(pieceChunks()));
    }

    /** Number of tasks: the output chunks. */
    public long tasks() {
        return tasks;
    }

    /** Number of chunk reads over all tasks (one per overlapping pair of input and output chunk). */
    public long reads() {
        return reads;
    }

    /** Number of chunk writes: one per output chunk. */
    public long writes() {
        return tasks;
    }

    /** Reads plus writes: the I/O operations of the stage. */
    public long ioOps() {
        return saturatedAdd(reads, tasks);
    }

    /**
     * Bytes read over all tasks (uncompressed): every task reads whole input chunks, so an input chunk overlapped by
     * several output chunks is read several times.
     */
    public long bytesRead() {
        return bytesRead;
    }

    /** Bytes written over all tasks (uncompressed): the array's size. */
    public long bytesWritten() {
        long n = itemsize;
        for (long s : shape) {
            n = saturatedMultiply(n, s);
        }
        return n;
    }

    /** An upper bound of the number of input chunks one task reads. */
    public long fanIn() {
        return fanIn;
    }

    /** Size of one full input chunk in bytes. */
    public long inputChunkBytes() {
        return saturatedMultiply(itemsize, product(inputChunks));
    }

    /** Size of one full output chunk in bytes. */
    public long outputChunkBytes() {
        return saturatedMultiply(itemsize, product(outputChunks));
    }

    /** Bytes of the input chunk coordinates one task holds: {@code 32 + fanIn · (24 + 8 · ndim)}. */
    public long keyBytes() {
        return saturatedAdd(
                KEY_BYTES_FIXED,
                saturatedMultiply(fanIn, KEY_BYTES_PER_CHUNK + (long) KEY_BYTES_PER_AXIS * shape.length));
    }

    /**
     * Projected memory of one task in bytes, without {@code reservedMem}: {@code input chunk · (1 + read copies) +
     * keys + output chunk · (1 + write copies)} — one input chunk at a time, the output chunk being assembled.
     */
    public long taskBytes() {
        long in = saturatedMultiply(inputChunkBytes(), 1L + copies.read());
        long out = saturatedMultiply(outputChunkBytes(), 1L + copies.write());
        return saturatedAdd(saturatedAdd(in, keyBytes()), out);
    }

    @Override
    public String toString() {
        return "RechunkStage{" + Arrays.toString(inputChunks) + " -> " + Arrays.toString(outputChunks) + ", tasks="
                + tasks + ", reads=" + reads + ", taskBytes=" + taskBytes() + "}";
    }

    /** Chunk reads along one axis of length {@code n}: pairs of overlapping input ({@code p}) and output ({@code q}) chunks. */
    static long readsAlong(long n, int p, int q) {
        if (n == 0) {
            return 0;
        }
        // Each output chunk reads 1 + (input boundaries strictly inside it): boundaries not shared by both grids.
        return ceilDiv(n, q) + ceilDiv(n, p) - ceilDiv(n, lcm(p, q));
    }

    /** Elements read along one axis of length {@code n}: each output chunk reads its overlapping input chunks whole. */
    static long elementsReadAlong(long n, int p, int q) {
        if (n == 0) {
            return 0;
        }
        long np = ceilDiv(n, p);
        long lastStart = (np - 1) * p;
        long lastLength = n - lastStart;
        // Output boundaries inside an input chunk make it read once more; inside the last one, a shorter chunk.
        long inside = ceilDiv(n, q) - ceilDiv(n, lcm(p, q));
        long insideLast = (n - 1) / q - lastStart / q;
        return saturatedAdd(n, saturatedMultiply(p, inside)) - (p - lastLength) * insideLast;
    }

    /** An upper bound of the input chunks one output chunk overlaps along one axis. */
    static long fanInAlong(long n, int p, int q) {
        if (n == 0) {
            return 0;
        }
        long bound = q % p == 0 ? q / p : (p % q == 0 ? 1 : (q - 1) / p + 2);
        return Math.min(bound, ceilDiv(n, p));
    }

    static long lcm(long a, long b) {
        long x = a;
        long y = b;
        while (y != 0) {
            long t = x % y;
            x = y;
            y = t;
        }
        return a / x * b;
    }

    static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }

    static long product(int[] chunks) {
        long n = 1;
        for (int c : chunks) {
            n = saturatedMultiply(n, c);
        }
        return n;
    }

    static long saturatedMultiply(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return (hi == 0 && lo >= 0) || (hi == -1 && lo < 0) ? lo : Long.MAX_VALUE;
    }

    static long saturatedAdd(long a, long b) {
        long s = a + b;
        return ((a ^ s) & (b ^ s)) < 0 ? Long.MAX_VALUE : s;
    }

    /** The grid of the stage's output. */
    ChunkGrid outputGrid() {
        return ChunkGrid.of(shape, outputChunks);
    }
}
