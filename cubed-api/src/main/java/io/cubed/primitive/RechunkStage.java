package io.cubed.primitive;

import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import io.cubed.memory.ProjectedMemory;
import java.util.Arrays;

/**
 * One copy stage of a rechunk plan, with its figures: an array of {@code shape} elements stored in {@code
 * inputChunks} is copied into a new array stored in {@code outputChunks}. Each task copies one <em>region</em>: per
 * axis a common multiple of the input and output chunk lengths (their least common multiple, or the whole axis when
 * that is shorter), so a region holds whole input chunks and whole output chunks. A task reads the input chunks of its
 * region one at a time and writes the region's output chunks one at a time: every input chunk is read once and every
 * output chunk written once per stage. Counts are exact; memory is per task in bytes, without {@code reservedMem}.
 * Immutable.
 */
public final class RechunkStage {
    private final long[] shape;
    private final int itemsize;
    private final int[] inputChunks;
    private final int[] outputChunks;
    private final int[] region;
    private final int[] outputsPerTaskAlong;
    private final BufferCopies copies;
    private final long tasks;
    private final long reads;
    private final long writes;
    private final long fanIn;
    private final long fanOut;

    RechunkStage(long[] shape, int itemsize, int[] inputChunks, int[] outputChunks, BufferCopies copies) {
        this.shape = shape.clone();
        this.itemsize = itemsize;
        this.inputChunks = inputChunks.clone();
        this.outputChunks = outputChunks.clone();
        this.copies = copies;
        int nd = shape.length;
        this.region = new int[nd];
        this.outputsPerTaskAlong = new int[nd];
        long t = 1;
        long r = 1;
        long w = 1;
        long fi = 1;
        long fo = 1;
        long[] f = new long[AXIS_FACTORS];
        for (int i = 0; i < nd; i++) {
            axisFactors(shape[i], inputChunks[i], outputChunks[i], f);
            region[i] = (int) f[REGION];
            outputsPerTaskAlong[i] = (int) f[FAN_OUT];
            t = saturatedMultiply(t, f[TASKS]);
            r = saturatedMultiply(r, f[READS]);
            w = saturatedMultiply(w, f[WRITES]);
            fi = saturatedMultiply(fi, f[FAN_IN]);
            fo = saturatedMultiply(fo, f[FAN_OUT]);
        }
        this.tasks = t;
        this.reads = r;
        this.writes = w;
        this.fanIn = fi;
        this.fanOut = fo;
    }

    /** Indexes into {@link #axisFactors}'s result. */
    static final int REGION = 0;

    static final int TASKS = 1;
    static final int READS = 2;
    static final int WRITES = 3;
    static final int FAN_IN = 4;
    static final int FAN_OUT = 5;
    static final int AXIS_FACTORS = 6;

    /**
     * A stage's factors along one axis of {@code length} elements, from input chunks of {@code in} to output chunks of
     * {@code out} elements, into {@code f}: the copy region's length ({@link #REGION}, as an {@code int}), and the
     * axis's factor of the tasks, reads, writes, fan-in and fan-out (each stage figure is the product of its factors
     * over the axes, all at least 1 for a non-empty array, so any order of multiplying saturates alike).
     */
    static void axisFactors(long length, int in, int out, long[] f) {
        long n = Math.max(1, length);
        long p = Math.min(in, n);
        long q = Math.min(out, n);
        int region = (int) regionAlong(n, p, q);
        f[REGION] = region;
        f[TASKS] = ceilDiv(length, region);
        f[READS] = ceilDiv(length, p);
        f[WRITES] = ceilDiv(length, q);
        f[FAN_IN] = ceilDiv(region, p);
        f[FAN_OUT] = (int) ceilDiv(region, q);
    }

    /**
     * The copy region's length along an axis of {@code n} elements for input chunks of {@code p} and output chunks of
     * {@code q} elements (both at most {@code n}): their least common multiple, or {@code n} when that is shorter.
     */
    static long regionAlong(long n, long p, long q) {
        return Math.min(n, lcm(p, q));
    }

    /** The input array's chunk shape in elements (a copy). */
    public int[] inputChunks() {
        return inputChunks.clone();
    }

    /** The output array's chunk shape in elements (a copy): the chunks this stage writes. */
    public int[] outputChunks() {
        return outputChunks.clone();
    }

    /** The copy region of one task in elements per axis (a copy); regions at the array's edge are clipped. */
    public int[] regionChunks() {
        return region.clone();
    }

    /** Output chunks one task writes along each axis (a copy): the operation's chunks per task. */
    public int[] outputChunksPerTask() {
        return outputsPerTaskAlong.clone();
    }

    /**
     * The largest piece a task copies from one input chunk into one output chunk, in elements per axis (a copy): the
     * smaller of the input and output chunk on each axis (rechunker's "intermediate chunks").
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

    /** Number of tasks: the copy regions. */
    public long tasks() {
        return tasks;
    }

    /** Number of chunk reads over all tasks: every input chunk once. */
    public long reads() {
        return reads;
    }

    /** Number of chunk writes over all tasks: every output chunk once. */
    public long writes() {
        return writes;
    }

    /** Reads plus writes: the I/O operations of the stage. */
    public long ioOps() {
        return saturatedAdd(reads, writes);
    }

    /** Bytes read over all tasks (uncompressed): the array's size, since every input chunk is read once. */
    public long bytesRead() {
        return nbytes();
    }

    /** Bytes written over all tasks (uncompressed): the array's size. */
    public long bytesWritten() {
        return nbytes();
    }

    private long nbytes() {
        return nbytes(shape, itemsize);
    }

    /** Bytes of an array of {@code shape} elements of {@code itemsize} bytes, saturated. */
    static long nbytes(long[] shape, int itemsize) {
        long n = itemsize;
        for (long s : shape) {
            n = saturatedMultiply(n, s);
        }
        return n;
    }

    /** Input chunks one task reads, at most (fewer at the array's edge). */
    public long fanIn() {
        return fanIn;
    }

    /** Output chunks one task writes, at most (fewer at the array's edge). */
    public long fanOut() {
        return fanOut;
    }

    /** Size of one full input chunk in bytes. */
    public long inputChunkBytes() {
        return saturatedMultiply(itemsize, product(inputChunks));
    }

    /** Size of one full output chunk in bytes. */
    public long outputChunkBytes() {
        return saturatedMultiply(itemsize, product(outputChunks));
    }

    /** Size of one full copy region in bytes. */
    public long regionBytes() {
        return saturatedMultiply(itemsize, product(region));
    }

    /**
     * Whether a task needs a region buffer apart from the chunks it reads and writes: only when it reads several input
     * chunks <em>and</em> writes several output chunks. With one input chunk, the outputs are cut from it; with one
     * output chunk, the inputs are copied straight into it.
     */
    public boolean regionBuffered() {
        return fanIn > 1 && fanOut > 1;
    }

    /** Bytes of the region buffer one task holds: {@link #regionBytes()} when {@link #regionBuffered()}, else 0. */
    public long regionBufferBytes() {
        return regionBuffered() ? regionBytes() : 0;
    }

    /**
     * Bytes of the input chunk coordinates one task holds: a box from the first to the last input chunk of its region,
     * whose keys are computed one at a time ({@link RechunkKeyFunction#taskKeys}), {@link TaskKeys#boxBytes} {@code =
     * 56 + 24 · ndim} whatever the fan-in (a list of the keys would take {@code 24 + 8 · ndim} bytes per input
     * chunk).
     */
    public long keyBytes() {
        return TaskKeys.boxBytes(shape.length);
    }

    /**
     * Whether a task reads its input chunks straight into the output chunks it holds ({@link RechunkChunkFunction}):
     * when it reads several input chunks (into the region's output chunks, or into its one output chunk) or writes a
     * single output chunk. A task reading one input chunk and writing several cuts them from the decoded input chunk.
     */
    public boolean readsInputsInto() {
        return readsInputsInto(fanIn, fanOut);
    }

    static boolean readsInputsInto(long fanIn, long fanOut) {
        return fanIn > 1 || fanOut == 1;
    }

    /**
     * The memory the operation counts besides its input and output chunks: the region buffer less the one output
     * chunk the output term counts (the buffer is the region's output chunks), and the keys.
     */
    public long extraMemBytes() {
        long regionBuffer = regionBufferBytes();
        return (regionBuffer > 0 ? regionBuffer - outputChunkBytes() : 0) + keyBytes();
    }

    /**
     * Projected memory of one task in bytes, without {@code reservedMem}: {@link ProjectedMemory#rechunkTask} of the
     * input chunk, the region buffer, the keys and the output chunk.
     */
    public long taskBytes() {
        return taskBytes(
                inputChunkBytes(), regionBufferBytes(), keyBytes(), outputChunkBytes(), copies, readsInputsInto());
    }

    /** {@link ProjectedMemory#rechunkTask} of these bytes, {@code Long.MAX_VALUE} where it overflows. */
    static long taskBytes(
            long inputChunkBytes,
            long regionBufferBytes,
            long keyBytes,
            long outputChunkBytes,
            BufferCopies copies,
            boolean readsInputsInto) {
        try {
            return ProjectedMemory.rechunkTask(
                    inputChunkBytes, regionBufferBytes, keyBytes, outputChunkBytes, copies, readsInputsInto);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    @Override
    public String toString() {
        return "RechunkStage{" + Arrays.toString(inputChunks) + " -> " + Arrays.toString(outputChunks) + ", region "
                + Arrays.toString(region) + ", tasks=" + tasks + ", taskBytes=" + taskBytes() + "}";
    }

    static long lcm(long a, long b) {
        long x = a;
        long y = b;
        while (y != 0) {
            long t = x % y;
            x = y;
            y = t;
        }
        return saturatedMultiply(a / x, b);
    }

    static long gcd(long a, long b) {
        long x = a;
        long y = b;
        while (y != 0) {
            long t = x % y;
            x = y;
            y = t;
        }
        return x;
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
