package io.cubed.primitive;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.memory.BufferCopies;
import io.cubed.memory.MemorySize;
import io.cubed.memory.ProjectedMemory;
import java.util.Arrays;
import java.util.List;

/**
 * Plans a rechunk as a sequence of copy stages through regular intermediate chunk grids, every task within a memory
 * budget in bytes; pure arithmetic, no I/O.
 *
 * <p>Each stage copies the array from one chunk grid into the next, one task per copy region: a box holding whole
 * input chunks and whole output chunks (see {@link RechunkStage}), so every stage reads and writes the array once. A
 * task holds one input chunk (with its read buffers), the region buffer, and one output chunk (with its write
 * buffers): {@link ProjectedMemory#rechunkCopies} copies. A stage fits when its task is within the budget and its
 * region buffer within one copy's share of it ({@code budget / copies}, as Cubed bounds its copy chunks), which keeps
 * regions small enough for many tasks to run side by side.
 *
 * <p>The planner tries 1, 2, … stages. One stage is the direct copy; two stages take the cheapest intermediate chunk
 * shape of an exhaustive search over per-axis candidates (divisors and multiples of the source and target lengths);
 * more stages space intermediate chunk shapes geometrically between the consolidated source chunks and the target
 * chunks (each a multiple of its smaller neighbour, Cubed's {@code multspace}), then shrink them until every stage
 * fits. It keeps the number of stages with the least I/O cost (bytes and requests), and stops when another stage no
 * longer lowers it, when every piece a task copies is at least {@code minMem} bytes, or at {@code maxStages}. Among
 * chains of the same number of stages, the one that takes the least time on the executor's slots wins: each stage's
 * I/O cost weighted by how evenly its tasks fill them ({@link #parallelism}). Last, it trades a little of that cost for
 * memory: among the plans within a smaller budget whose time and I/O are within {@link #nearBest} (5 %) of the
 * cheapest's, it takes the one of least memory per task ({@link #plan}).
 *
 * <p>This class holds the settings and the loop over the number of stages; {@code RechunkChainShapes} builds the
 * starting chains, {@code RechunkChainSearch} improves them, and {@code RechunkCosts} prices and checks them.
 */
public final class RechunkPlanner {
    /**
     * What one chunk read or write costs besides its bytes, in bytes: a request to an object store takes about as long
     * as moving 1 MB (10 ms at 100 MB/s).
     */
    public static final long REQUEST_COST_BYTES = 1_000_000;
    /**
     * By default a plan whose estimated time and I/O are within this fraction of the cheapest plan's counts as just as
     * good, and the one of least memory per task among those is taken ({@link #plan}, {@link #nearBest}).
     */
    public static final double NEAR_BEST = 0.05;
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
    private int parallelism = 1;
    private double nearBest = NEAR_BEST;

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

    /**
     * How many copy tasks run at once (the executor's threads or task slots; default 1): chains with the same number
     * of stages are compared by the time of their slowest slot, so that their tasks fill whole waves
     * of this many.
     */
    public RechunkPlanner parallelism(int tasksAtOnce) {
        if (tasksAtOnce < 1) {
            throw new InvalidArgumentException("rechunk: parallelism must be at least 1, got " + tasksAtOnce);
        }
        this.parallelism = tasksAtOnce;
        return this;
    }

    /**
     * How much more estimated time and I/O than the cheapest plan's (a fraction, default {@link #NEAR_BEST}) a plan
     * may cost to be taken for using less memory per task; 0 for the cheapest plan.
     */
    public RechunkPlanner nearBest(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new InvalidArgumentException("rechunk: nearBest must be a fraction from 0 to 1, got " + fraction);
        }
        this.nearBest = fraction;
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

    /** In-memory copies of a chunk one copy task holds, the region included: {@link ProjectedMemory#rechunkCopies}. */
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
     * source chunks to the target chunks, each task within the budget, of least memory per task among the plans whose
     * estimated time and I/O are within {@link #nearBest} of the cheapest's ({@link #leanest}). Fails with {@link
     * MemoryBudgetExceededException} naming the smallest budget that would work when no plan fits.
     */
    public RechunkPlan plan() {
        RechunkPlan p = tryPlan(maxTaskBytes);
        if (p != null) {
            return leanest(p);
        }
        long need = minimumTaskBytes();
        if (need <= maxTaskBytes) {
            // The search is not monotone in the budget: a plan found for a smaller budget fits this one too.
            return tryPlan(need);
        }
        throw new MemoryBudgetExceededException("rechunk of shape " + Arrays.toString(shape) + " from chunks "
                + Arrays.toString(source) + " to " + Arrays.toString(target) + " needs at least "
                + MemorySize.format(need) + " (" + need + " bytes) per copy task beyond reservedMem, but only "
                + MemorySize.format(maxTaskBytes) + " (" + maxTaskBytes + " bytes) is available: a task holds at "
                + "least one source chunk or one target chunk with its buffers; raise allowedMem or use smaller "
                + "chunks");
    }

    /**
     * A plan of least memory per task among those whose estimated time and I/O cost are within {@link #nearBest} of
     * {@code cheapest}'s: the cheapest plan fills the budget with large copy regions even when smaller ones cost
     * about the same, and the memory a task holds is a process's heap (in-process, the heap follows the plan) or an
     * executor's. Bisects the budget below this planner's, planning within each (a smaller budget also caps the
     * regions, at a copy's share of it), to within a {@link #LEAN_PRECISION}-th of the budget. The search is not
     * monotone in the budget, so this finds a lean plan, not surely the leanest. Time is the least monotone: a plan
     * whose I/O is within the limit but whose tasks fill the slots too unevenly is followed by the next plans below it
     * (within just less than what it needs, {@link #budgetNeeded}: smaller regions, more tasks), up to {@link
     * #WAVE_STEPS} of them, before the bisection counts its budget as too small. W3 on two slots: regions of 7 stripes
     * make 19 tasks a stage, too slow; the next plan, regions of 6 stripes in 22 tasks, is within 5 %.
     */
    private RechunkPlan leanest(RechunkPlan cheapest) {
        if (cheapest.stages().isEmpty() || nearBest == 0) {
            return cheapest;
        }
        RechunkCosts costs = costs();
        double timeLimit = costs.time(cheapest.stages()) * (1 + nearBest);
        double ioLimit = RechunkCosts.ioCost(cheapest.stages()) * (1 + nearBest);
        RechunkPlan lean = cheapest;
        long lo = 0;
        long hi = Math.min(maxTaskBytes, RechunkStage.saturatedMultiply(cheapest.maxTaskBytes(), copies()));
        long precision = Math.max(1, hi / LEAN_PRECISION);
        while (hi - lo > precision) {
            long mid = lo + (hi - lo) / 2;
            RechunkPlan p = tryPlan(mid);
            for (int step = 0;
                    step < WAVE_STEPS
                            && planned(p)
                            && RechunkCosts.ioCost(p.stages()) <= ioLimit
                            && costs.time(p.stages()) > timeLimit;
                    step++) {
                long below = budgetNeeded(p) - 1;
                p = below > lo ? tryPlan(below) : null;
            }
            if (planned(p) && costs.time(p.stages()) <= timeLimit && RechunkCosts.ioCost(p.stages()) <= ioLimit) {
                if (p.maxTaskBytes() < lean.maxTaskBytes()) {
                    lean = p;
                }
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return lean;
    }

    private static boolean planned(RechunkPlan p) {
        return p != null && !p.stages().isEmpty();
    }

    /** The lean plan's budget is bisected to within this fraction of the cheapest plan's task. */
    static final int LEAN_PRECISION = 8;

    /** Plans below one whose tasks fill the slots too unevenly that {@link #leanest} tries before it moves on. */
    static final int WAVE_STEPS = 2;

    /**
     * The least budget within which {@code plan} fits ({@link RechunkCosts#fits}): every stage's task, and its region
     * buffer times the copies.
     */
    private long budgetNeeded(RechunkPlan plan) {
        long need = 0;
        for (RechunkStage s : plan.stages()) {
            need = Math.max(need, s.taskBytes());
            need = Math.max(need, RechunkStage.saturatedMultiply(s.regionBufferBytes(), copies()));
        }
        return need;
    }

    /** The smallest memory per task in bytes (beyond {@code reservedMem}) for which {@link #plan} succeeds. */
    public long minimumTaskBytes() {
        long hi = fallbackTaskBytes();
        long lo = 0;
        // Bisection on the budget: tryPlan(hi) succeeds (see fallbackTaskBytes), tryPlan(lo) does not.
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

    /**
     * A budget with which {@link #tryPlan} surely finds a plan: the single stage's needs (its task, and its region
     * buffer times the copies), or, with two stages allowed, the two stages through the greatest common divisor of the
     * source and target chunks if less. Neither of those two stages needs a region buffer: the first cuts each source
     * chunk into pieces, the second assembles each target chunk from them; the two-stage search tries that chain.
     */
    private long fallbackTaskBytes() {
        RechunkStage single = new RechunkStage(shape, itemsize, rawSource, target, copies);
        long need = single.taskBytes();
        if (single.regionBuffered()) {
            need = Math.max(need, RechunkStage.saturatedMultiply(single.regionBytes(), copies()));
        }
        if (maxStages >= 2) {
            long viaGcd = 0;
            RechunkCosts costs = costs();
            for (RechunkStage s : costs.stages(costs.dedupe(List.of(rawSource, gcdChunks(), target)))) {
                viaGcd = Math.max(viaGcd, s.taskBytes());
            }
            need = Math.min(need, viaGcd);
        }
        return need;
    }

    private int[] gcdChunks() {
        int[] g = new int[shape.length];
        for (int i = 0; i < g.length; i++) {
            g[i] = (int) RechunkStage.gcd(source[i], target[i]);
        }
        return g;
    }

    private RechunkPlan tryPlan(long budget) {
        boolean empty = false;
        for (long s : shape) {
            empty |= s == 0;
        }
        if (empty || Arrays.equals(source, target)) {
            return new RechunkPlan(shape, itemsize, source, target, List.of(), RechunkPlan.Outcome.NOTHING_TO_DO);
        }
        RechunkCosts costs = costs();
        RechunkChainShapes shapes = new RechunkChainShapes(shape, itemsize, rawSource, source, target, costs);
        RechunkChainSearch search = new RechunkChainSearch(shape, rawSource, source, target, costs, shapes);
        long cap = budget / copies();
        long minMem = minMemBytes >= 0 ? minMemBytes : Math.min(cap / MIN_MEM_DIVISOR, nbytes());
        int nd = shape.length;
        int[] readLimit = new int[nd];
        for (int i = 0; i < nd; i++) {
            readLimit[i] = target[i] > source[i] ? target[i] : 0;
        }
        int[] read = shapes.consolidate(source, readLimit, cap);
        List<RechunkStage> best = null;
        long bestCost = Long.MAX_VALUE;
        int bestK = 0;
        int lastK = 0;
        List<int[]> shorter = null;
        for (int k = 1; k <= maxStages; k++) {
            List<int[]> chain = search.bestChain(k, read, budget, shorter);
            if (chain == null) {
                continue;
            }
            shorter = chain;
            lastK = k;
            List<RechunkStage> stages = costs.stages(chain);
            // The number of stages follows the I/O: a stage is a barrier (on Spark a job) the cost does not count, so
            // the executor's slots choose the chunks of a chain, not how many stages it has.
            long cost = RechunkCosts.ioCost(stages);
            if (best == null || cost < bestCost) {
                best = stages;
                bestCost = cost;
                bestK = k;
            } else if (k - bestK >= PATIENCE) {
                return new RechunkPlan(shape, itemsize, source, target, best, RechunkPlan.Outcome.IO_INCREASED);
            }
            long smallest = Long.MAX_VALUE;
            for (RechunkStage s : stages) {
                smallest = Math.min(smallest, s.pieceBytes());
            }
            if (smallest >= minMem) {
                RechunkPlan.Outcome why =
                        best == stages ? RechunkPlan.Outcome.MIN_MEM_REACHED : RechunkPlan.Outcome.IO_INCREASED;
                return new RechunkPlan(shape, itemsize, source, target, best, why);
            }
        }
        if (best == null) {
            return null;
        }
        RechunkPlan.Outcome why = bestK == lastK ? RechunkPlan.Outcome.MAX_STAGES : RechunkPlan.Outcome.IO_INCREASED;
        return new RechunkPlan(shape, itemsize, source, target, best, why);
    }

    /** The search for more stages stops after this many stage counts in a row that did not lower the cost. */
    static final int PATIENCE = 2;

    /**
     * The I/O cost of a stage in bytes: bytes read and written plus {@value #REQUEST_COST_BYTES} per chunk read or
     * written.
     */
    public static long cost(RechunkStage s) {
        return RechunkCosts.cost(s);
    }

    /** The cost model with this planner's settings (buffer copies and parallelism as they are now). */
    private RechunkCosts costs() {
        return new RechunkCosts(shape, itemsize, copies, parallelism);
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
