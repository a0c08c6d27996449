package io.cubed.primitive;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.memory.BufferCopies;
import io.cubed.memory.MemorySize;
import io.cubed.memory.ProjectedMemory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Plans a rechunk as a sequence of copy stages through regular intermediate chunk grids, every task within a memory
 * budget in bytes; pure arithmetic, no I/O.
 *
 * <p>Each stage copies the array from one chunk grid into another with one task per output chunk; a task holds one
 * input chunk (with its read buffers) and the output chunk (with its write buffers): {@link
 * ProjectedMemory#rechunkCopies} copies. The planner follows rechunker: it consolidates the source chunks (whole
 * multiples, along the axes where the target chunks are larger) and the target chunks (along the axes where the source
 * chunks are larger) up to the memory available, spaces intermediate chunk shapes geometrically between those two,
 * each a multiple of its smaller neighbour, and adds stages until the smallest piece a task copies is at least {@code
 * minMem} bytes — stopping earlier when another stage would add I/O operations (reads + writes), and at {@code
 * maxStages}. A stage that would exceed the budget has its intermediate chunks halved until it fits.
 */
public final class RechunkPlanner {
    /**
     * What one chunk read or write costs besides its bytes, in bytes: a request to an object store takes about as long
     * as moving 1 MB (10 ms at 100 MB/s).
     */
    public static final long REQUEST_COST_BYTES = 1_000_000;
    /** Default maximum number of stages. */
    public static final int DEFAULT_MAX_STAGES = 10;
    /** Cubed's default {@code minMem}: the memory per chunk divided by this (or the array's size if smaller). */
    public static final int MIN_MEM_DIVISOR = 20;

    private final long[] shape;
    private final int itemsize;
    private final int[] rawSource;
    private final int[] source;
    private final int[] target;
    private long maxTaskBytes = Long.MAX_VALUE;
    private BufferCopies copies = BufferCopies.FILE_SYSTEM;
    private long minMemBytes = -1;
    private int maxStages = DEFAULT_MAX_STAGES;

    private RechunkPlanner(long[] shape, int itemsize, int[] source, int[] target) {
        this.shape = shape.clone();
        this.itemsize = itemsize;
        this.source = normalize(shape, source, "source");
        this.rawSource = source.clone();
        for (int i = 0; i < rawSource.length; i++) {
            rawSource[i] = rawSource[i] == -1 ? this.source[i] : rawSource[i];
        }
        this.target = normalize(shape, target, "target");
        if (itemsize < 1) {
            throw new InvalidArgumentException("rechunk: itemsize must be positive, got " + itemsize);
        }
    }

    /**
     * A planner for an array of {@code shape} elements of {@code itemsize} bytes from chunks {@code source} to {@code
     * target} (per axis; {@code -1} or a length above the axis means the whole axis).
     */
    public static RechunkPlanner of(long[] shape, int itemsize, int[] source, int[] target) {
        return new RechunkPlanner(shape, itemsize, source, target);
    }

    /**
     * The memory a copy task may use in bytes, {@code allowedMem − reservedMem}, and the buffer copies of the stores
     * read and written.
     */
    public RechunkPlanner budget(long maxTaskBytes, BufferCopies copies) {
        if (maxTaskBytes < 0) {
            throw new InvalidArgumentException("rechunk: memory per task must not be negative, got " + maxTaskBytes);
        }
        this.maxTaskBytes = maxTaskBytes;
        this.copies = copies;
        return this;
    }

    /** The smallest piece a task should copy from one input chunk, in bytes; default: see {@link #defaultMinMem}. */
    public RechunkPlanner minMem(long bytes) {
        this.minMemBytes = bytes;
        return this;
    }

    /** The maximum number of stages (at least 1). */
    public RechunkPlanner maxStages(int stages) {
        if (stages < 1) {
            throw new InvalidArgumentException("rechunk: maxStages must be at least 1, got " + stages);
        }
        this.maxStages = stages;
        return this;
    }

    /** The largest chunk in bytes the planner makes: the memory per task divided by {@link #copies()}. */
    public long maxChunkBytes() {
        return maxTaskBytes / copies();
    }

    /** In-memory copies of a chunk one copy task holds: see {@link ProjectedMemory#rechunkCopies}. */
    public int copies() {
        return ProjectedMemory.rechunkCopies(copies);
    }

    /** Cubed's default {@code minMem}: {@code min(maxChunkBytes / 20, array bytes)}. */
    public long defaultMinMem() {
        return Math.min(maxChunkBytes() / MIN_MEM_DIVISOR, nbytes());
    }

    private long nbytes() {
        long n = itemsize;
        for (long s : shape) {
            n = RechunkStage.saturatedMultiply(n, s);
        }
        return n;
    }

    /** Source chunks after normalization (a copy). */
    public int[] sourceChunks() {
        return source.clone();
    }

    /** Target chunks after normalization (a copy). */
    public int[] targetChunks() {
        return target.clone();
    }

    /**
     * The plan: no stage when the chunks are already the target's or the array is empty; otherwise stages from the
     * source chunks to the target chunks, each task within the budget. Fails with {@link
     * MemoryBudgetExceededException} naming the smallest budget that would work when no plan fits.
     */
    public RechunkPlan plan() {
        RechunkPlan p = tryPlan(maxTaskBytes);
        if (p != null) {
            return p;
        }
        long need = minimumTaskBytes();
        if (need <= maxTaskBytes) {
            // The search is not monotone in the budget: a plan found for a smaller budget fits this one too.
            return tryPlan(need);
        }
        throw new MemoryBudgetExceededException("rechunk of shape " + Arrays.toString(shape) + " from chunks "
                + Arrays.toString(source) + " to " + Arrays.toString(target) + " needs at least "
                + MemorySize.format(need) + " (" + need + " bytes) per copy task beyond reservedMem, but only "
                + MemorySize.format(maxTaskBytes) + " (" + maxTaskBytes + " bytes) is available: a task holds one "
                + "source chunk and one target chunk (" + copies()
                + " copies); raise allowedMem or use smaller chunks");
    }

    /** The smallest memory per task in bytes (beyond {@code reservedMem}) for which {@link #plan} succeeds. */
    public long minimumTaskBytes() {
        long hi = new RechunkStage(shape, itemsize, rawSource, target, copies).taskBytes();
        long lo = 0;
        // Bisection on the budget: tryPlan(hi) succeeds (the single stage fits), tryPlan(lo) does not.
        if (tryPlan(lo) != null) {
            return lo;
        }
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (tryPlan(mid) != null) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    private RechunkPlan tryPlan(long budget) {
        boolean empty = false;
        for (long s : shape) {
            empty |= s == 0;
        }
        if (empty || Arrays.equals(source, target)) {
            return new RechunkPlan(shape, itemsize, source, target, List.of(), RechunkPlan.Outcome.NOTHING_TO_DO);
        }
        long cap = budget / copies();
        long minMem = minMemBytes >= 0 ? minMemBytes : Math.min(cap / MIN_MEM_DIVISOR, nbytes());
        int nd = shape.length;
        int[] readLimit = new int[nd];
        for (int i = 0; i < nd; i++) {
            readLimit[i] = target[i] > source[i] ? target[i] : 0;
        }
        int[] read = consolidate(source, readLimit, cap);
        List<RechunkStage> previous = null;
        long previousCost = Long.MAX_VALUE;
        for (int k = 1; k <= maxStages; k++) {
            List<int[]> chain = new ArrayList<>();
            chain.add(rawSource);
            chain.addAll(interior(read, target, k));
            chain.add(target);
            List<RechunkStage> stages = fit(dedupe(chain), budget);
            if (stages == null) {
                continue;
            }
            long cost = 0;
            long smallest = Long.MAX_VALUE;
            for (RechunkStage s : stages) {
                cost = RechunkStage.saturatedAdd(cost, cost(s));
                smallest = Math.min(smallest, s.pieceBytes());
            }
            if (previous != null && cost >= previousCost) {
                return new RechunkPlan(shape, itemsize, source, target, previous, RechunkPlan.Outcome.IO_INCREASED);
            }
            if (smallest >= minMem) {
                return new RechunkPlan(shape, itemsize, source, target, stages, RechunkPlan.Outcome.MIN_MEM_REACHED);
            }
            previous = stages;
            previousCost = cost;
        }
        return previous == null
                ? null
                : new RechunkPlan(shape, itemsize, source, target, previous, RechunkPlan.Outcome.MAX_STAGES);
    }

    /**
     * {@code chunks} grown by whole multiples, from the last axis to the first, along the axes where {@code limits}
     * is positive (up to it), while the chunk stays within {@code capBytes}.
     */
    int[] consolidate(int[] chunks, int[] limits, long capBytes) {
        int[] c = chunks.clone();
        if (bytes(c) > capBytes) {
            return c;
        }
        for (int i = c.length - 1; i >= 0; i--) {
            if (limits[i] <= c[i]) {
                continue;
            }
            int original = c[i];
            c[i] = limits[i];
            if (bytes(c) <= capBytes) {
                continue;
            }
            c[i] = original;
            long multiple = capBytes / bytes(c);
            c[i] = (int) Math.min(limits[i], Math.max(1, multiple) * original);
            break;
        }
        return c;
    }

    /**
     * The {@code k − 1} chunk shapes between {@code from} and {@code to}: geometric per axis, each rounded to a
     * multiple of its smaller neighbour towards the smaller end.
     */
    List<int[]> interior(int[] from, int[] to, int k) {
        List<int[]> out = new ArrayList<>();
        for (int s = 1; s < k; s++) {
            out.add(new int[from.length]);
        }
        for (int i = 0; i < from.length; i++) {
            long[] values = multiples(Math.min(from[i], to[i]), Math.max(from[i], to[i]), k - 1);
            for (int s = 0; s < k - 1; s++) {
                long v = from[i] <= to[i] ? values[s] : values[k - 2 - s];
                out.get(s)[i] = (int) Math.min(v, Math.max(1, shape[i]));
            }
        }
        return out;
    }

    /** {@code m} values spaced geometrically strictly between {@code lo} and {@code hi}, each a multiple of the last. */
    static long[] multiples(long lo, long hi, int m) {
        long[] v = new long[m];
        long prev = lo;
        for (int s = 1; s <= m; s++) {
            double g = lo * Math.pow((double) hi / lo, (double) s / (m + 1));
            long next = Math.max(prev, (long) Math.floor(g / prev + 1e-9) * prev);
            v[s - 1] = next;
            prev = next;
        }
        return v;
    }

    private boolean sameChunks(int[] a, int[] b) {
        return Arrays.equals(normalize(shape, a, "stage"), normalize(shape, b, "stage"));
    }

    private List<int[]> dedupe(List<int[]> chain) {
        List<int[]> out = new ArrayList<>();
        for (int[] c : chain) {
            if (out.isEmpty() || !sameChunks(out.get(out.size() - 1), c)) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * The stages of {@code chain}, halving the largest axis of an intermediate chunk shape of any stage over {@code
     * budget} bytes; {@code null} when a stage over budget has no intermediate left to shrink.
     */
    private List<RechunkStage> fit(List<int[]> chain, long budget) {
        List<int[]> c = new ArrayList<>();
        for (int[] x : chain) {
            c.add(x.clone());
        }
        while (true) {
            // Chunk shapes that became equal to a neighbour merge first, so every stage checked is a stage run.
            c = dedupe(c);
            int over = -1;
            for (int s = 0; s + 1 < c.size(); s++) {
                if (stage(c.get(s), c.get(s + 1)).taskBytes() > budget) {
                    over = s;
                    break;
                }
            }
            if (over < 0) {
                List<RechunkStage> stages = new ArrayList<>();
                for (int s = 0; s + 1 < c.size(); s++) {
                    stages.add(stage(c.get(s), c.get(s + 1)));
                }
                return stages;
            }
            boolean inIsIntermediate = over >= 1;
            boolean outIsIntermediate = over + 1 <= c.size() - 2;
            int[] shrink;
            if (inIsIntermediate && (!outIsIntermediate || bytes(c.get(over)) >= bytes(c.get(over + 1)))) {
                shrink = c.get(over);
            } else if (outIsIntermediate) {
                shrink = c.get(over + 1);
            } else {
                return null;
            }
            int axis = 0;
            for (int i = 1; i < shrink.length; i++) {
                if (shrink[i] > shrink[axis]) {
                    axis = i;
                }
            }
            if (shrink[axis] <= 1) {
                return null;
            }
            shrink[axis] /= 2;
        }
    }

    /**
     * The I/O cost of a stage in bytes: bytes read and written plus {@value #REQUEST_COST_BYTES} per chunk read or
     * written.
     */
    public static long cost(RechunkStage s) {
        return RechunkStage.saturatedAdd(
                RechunkStage.saturatedAdd(s.bytesRead(), s.bytesWritten()),
                RechunkStage.saturatedMultiply(s.ioOps(), REQUEST_COST_BYTES));
    }

    private RechunkStage stage(int[] in, int[] out) {
        return new RechunkStage(shape, itemsize, in, out, copies);
    }

    private long bytes(int[] chunks) {
        return RechunkStage.saturatedMultiply(itemsize, RechunkStage.product(chunks));
    }

    /** Chunks per axis, {@code -1} or above the axis length meaning the whole axis (at least 1 for empty axes). */
    static int[] normalize(long[] shape, int[] chunks, String what) {
        if (chunks.length != shape.length) {
            throw new InvalidArgumentException("rechunk: " + what + " chunks " + Arrays.toString(chunks) + " have "
                    + chunks.length + " entries but the shape " + Arrays.toString(shape) + " has " + shape.length);
        }
        int[] c = new int[chunks.length];
        for (int i = 0; i < c.length; i++) {
            long full = Math.max(1, Math.min(shape[i], Integer.MAX_VALUE - 8));
            if (chunks[i] == -1) {
                c[i] = (int) full;
            } else if (chunks[i] < 1) {
                throw new InvalidArgumentException("rechunk: " + what + " chunks " + Arrays.toString(chunks)
                        + " must be positive (or -1 for a whole axis), axis " + i + " is " + chunks[i]);
            } else {
                c[i] = (int) Math.min(chunks[i], full);
            }
        }
        return c;
    }
}
