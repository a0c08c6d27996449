package io.cubed.primitive;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.memory.BufferCopies;
import io.cubed.memory.MemorySize;
import io.cubed.memory.ProjectedMemory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

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
 * I/O cost weighted by how evenly its tasks fill them ({@link #parallelism}, {@link #time}).
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
    private int parallelism = 1;

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
     * of stages are compared by the time of their slowest slot ({@link #time}), so that their tasks fill whole waves
     * of this many.
     */
    public RechunkPlanner parallelism(int tasksAtOnce) {
        if (tasksAtOnce < 1) {
            throw new InvalidArgumentException("rechunk: parallelism must be at least 1, got " + tasksAtOnce);
        }
        this.parallelism = tasksAtOnce;
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
                + MemorySize.format(maxTaskBytes) + " (" + maxTaskBytes + " bytes) is available: a task holds at "
                + "least one source chunk or one target chunk with its buffers; raise allowedMem or use smaller "
                + "chunks");
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
            for (RechunkStage s : stages(dedupe(List.of(rawSource, gcdChunks(), target)))) {
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
        long cap = budget / copies();
        long minMem = minMemBytes >= 0 ? minMemBytes : Math.min(cap / MIN_MEM_DIVISOR, nbytes());
        int nd = shape.length;
        int[] readLimit = new int[nd];
        for (int i = 0; i < nd; i++) {
            readLimit[i] = target[i] > source[i] ? target[i] : 0;
        }
        int[] read = consolidate(source, readLimit, cap);
        List<RechunkStage> best = null;
        long bestCost = Long.MAX_VALUE;
        int bestK = 0;
        int lastK = 0;
        List<int[]> shorter = null;
        for (int k = 1; k <= maxStages; k++) {
            List<int[]> chain = bestChain(k, read, budget, shorter);
            if (chain == null) {
                continue;
            }
            shorter = chain;
            lastK = k;
            List<RechunkStage> stages = stages(chain);
            // The number of stages follows the I/O: a stage is a barrier (on Spark a job) the cost does not count, so
            // the executor's slots choose the chunks of a chain, not how many stages it has.
            long cost = ioCost(stages);
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

    /**
     * The cheapest chain of chunk shapes (source, intermediates, target) found for {@code k} stages within {@code
     * budget}, or {@code null}. One stage is the direct copy. For more, three starting points: the geometric chain
     * from {@code read} and the {@link #capChain} fitted to the budget ({@link #fit}), and {@code shorter} (the chain found for {@code k − 1} stages)
     * with one more intermediate inserted where it lowers the cost most. From each, every intermediate in turn is
     * replaced by the best one of an exhaustive search between its two neighbours ({@link #searchBetween}) until a
     * sweep improves nothing; the cheaper result wins.
     */
    private List<int[]> bestChain(int k, int[] read, long budget, List<int[]> shorter) {
        if (k == 1) {
            List<int[]> single = dedupe(List.of(rawSource, target));
            return allFit(stages(single), budget) ? single : null;
        }
        List<int[]> chain = new ArrayList<>();
        chain.add(rawSource);
        chain.addAll(interior(read, target, k));
        chain.add(target);
        List<int[]> best = sweep(fit(chain, budget), budget);
        List<int[]> capped = sweep(fit(capChain(k, budget), budget), budget);
        if (best == null || (capped != null && time(stages(capped)) < time(stages(best)))) {
            best = capped;
        }
        List<int[]> from = shorter != null ? shorter : List.of(rawSource, target);
        List<int[]> inserted = null;
        for (int idx = 1; idx < from.size(); idx++) {
            int[] hint = idx == 1 && from.size() == 2 ? chain.get(1) : from.get(idx);
            int[] w = searchBetween(from.get(idx - 1), from.get(idx), hint, budget, false);
            if (w == null) {
                continue;
            }
            List<int[]> next = new ArrayList<>(from);
            next.add(idx, w);
            next = dedupe(next);
            if (allFit(stages(next), budget) && (inserted == null || time(stages(next)) < time(stages(inserted)))) {
                inserted = next;
            }
        }
        inserted = sweep(inserted, budget);
        if (best == null || (inserted != null && time(stages(inserted)) < time(stages(best)))) {
            best = inserted;
        }
        return best;
    }

    /**
     * A chain of {@code k} stages whose regions use the region cap ({@code budget / copies}): a region spans the
     * output chunk along the axes that grow and the input chunk along the axes that shrink, so the shrinking axes go
     * first. They shrink by the same factor in stages 1 … k−1 — just enough for the last stage's region (target
     * lengths on the growing axes) to fit — and each stage grows the growing axes by whole multiples (last axis
     * first) while its region stays within the cap. Intermediate chunks are then about {@code cap / (shrink per
     * stage)}, the largest the cap allows, which keeps the chunk reads and writes few.
     */
    List<int[]> capChain(int k, long budget) {
        int nd = shape.length;
        long capElements = Math.max(1, budget / copies() / itemsize);
        double totalShrink = 0;
        double finalRegion = 0;
        for (int i = 0; i < nd; i++) {
            if (target[i] < source[i]) {
                totalShrink += Math.log((double) source[i] / target[i]);
                finalRegion += Math.log(target[i]);
            } else {
                finalRegion += Math.log(target[i]);
            }
        }
        // Shrink left for the last stage at most: its region, target lengths times the remaining shrink, fits the cap.
        double lastShrink = Math.max(0, Math.log(capElements) - finalRegion);
        double perStage = Math.max(totalShrink / k, (totalShrink - lastShrink) / (k - 1));
        List<int[]> chain = new ArrayList<>();
        chain.add(rawSource);
        int[] prev = source.clone();
        for (int st = 1; st < k; st++) {
            double fraction = totalShrink == 0 ? 1 : Math.min(1, st * perStage / totalShrink);
            int[] c = prev.clone();
            for (int i = 0; i < nd; i++) {
                if (target[i] < source[i]) {
                    double v = source[i] * Math.pow((double) target[i] / source[i], fraction);
                    long m = Math.max(1, (long) Math.floor(v / target[i] + 1e-9));
                    c[i] = (int) Math.min(prev[i], m * target[i]);
                }
            }
            // The region of this stage: the previous chunk along shrinking axes, the grown chunk along growing ones.
            int[] limits = new int[nd];
            for (int i = 0; i < nd; i++) {
                limits[i] = target[i] > source[i] ? target[i] : 0;
            }
            int[] grown = consolidate(prev, limits, capElements * itemsize);
            for (int i = 0; i < nd; i++) {
                if (target[i] > source[i]) {
                    c[i] = grown[i];
                }
            }
            chain.add(c);
            prev = c;
        }
        chain.add(target);
        return chain;
    }

    /** {@code chain} with its intermediates improved one at a time by {@link #searchBetween}; null stays null. */
    private List<int[]> sweep(List<int[]> chain, long budget) {
        if (chain == null) {
            return null;
        }
        List<int[]> c = chain;
        for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
            boolean improved = false;
            for (int idx = 1; idx < c.size() - 1; idx++) {
                int[] w = searchBetween(c.get(idx - 1), c.get(idx + 1), c.get(idx), budget, true);
                if (w == null) {
                    continue;
                }
                List<int[]> next = new ArrayList<>(c);
                next.set(idx, w);
                next = dedupe(next);
                // Merging equal neighbours can join stages the search did not check: check the whole chain.
                if (allFit(stages(next), budget) && time(stages(next)) < time(stages(c))) {
                    c = next;
                    improved = true;
                }
            }
            if (!improved) {
                break;
            }
        }
        return c;
    }

    /** The search for more stages stops after this many stage counts in a row that did not lower the cost. */
    static final int PATIENCE = 2;

    /** Most sweeps of {@link #sweep} over the intermediates. */
    static final int MAX_SWEEPS = 3;

    /** The I/O cost of a list of stages in bytes: the sum of {@link #cost(RechunkStage)}. */
    static long ioCost(List<RechunkStage> stages) {
        long cost = 0;
        for (RechunkStage s : stages) {
            cost = RechunkStage.saturatedAdd(cost, cost(s));
        }
        return cost;
    }

    /**
     * What the planner minimises among chains of the same number of stages, in bytes: the sum over the stages of
     * {@link #time(RechunkStage)}, which is their I/O cost when one task runs at a time.
     */
    long time(List<RechunkStage> stages) {
        long time = 0;
        for (RechunkStage s : stages) {
            time = RechunkStage.saturatedAdd(time, time(s));
        }
        return time;
    }

    /**
     * A stage's I/O cost as its slowest task slot sees it, in bytes: with {@code P} tasks at once ({@link
     * #parallelism}), the stage's {@code T} tasks run in {@code ceil(T / P)} waves, each task costing about {@code
     * cost / T}, so {@code cost · ceil(T / P) / T}. One slot gives the cost itself; with more, a stage whose tasks
     * fill whole waves (16 tasks on 2 threads rather than 13, which leave one thread idle for the last task) or
     * occupy every slot is preferred to one that moves a little less data with fewer tasks.
     */
    long time(RechunkStage s) {
        long c = cost(s);
        long tasks = Math.max(1, s.tasks());
        if (parallelism == 1 || c == Long.MAX_VALUE) {
            return c;
        }
        long waves = (tasks + parallelism - 1) / parallelism;
        return (long) Math.min(Long.MAX_VALUE, (double) c * waves / tasks);
    }

    /** Whether a stage fits: its task within {@code budget}, its region buffer (if any) within a copy's share. */
    private boolean fits(RechunkStage s, long budget) {
        return s.taskBytes() <= budget && s.regionBufferBytes() <= budget / copies();
    }

    private boolean allFit(List<RechunkStage> stages, long budget) {
        for (RechunkStage s : stages) {
            if (!fits(s, budget)) {
                return false;
            }
        }
        return true;
    }

    /** How far a stage is over the budget: the larger of its task's and its region buffer's ratio to their limits. */
    private double excess(RechunkStage s, long budget) {
        double task = (double) s.taskBytes() / Math.max(1, budget);
        double region = (double) s.regionBufferBytes() / Math.max(1, budget / copies());
        return Math.max(task, region);
    }

    /** Largest number of intermediate chunk shapes one {@link #searchBetween} evaluates. */
    static final int MAX_CANDIDATES = 20_000;

    /**
     * The intermediate chunk shape between {@code left} and {@code right} whose two stages fit {@code budget} at the
     * least {@link #time}, searched over every combination of per-axis candidates; {@code null} when none fits. The
     * candidates on an axis are the divisors of both neighbours' lengths (a stage that cuts or assembles whole chunks
     * needs no large region), their multiples by powers of two, {@code hint}'s length and the whole axis. The divisors
     * include the greatest common divisor: between the source and target chunks, the chain that needs no region
     * buffer at all is among the candidates. An intermediate equal to a neighbour merges the two stages into one;
     * only when {@code mayMerge}.
     */
    private int[] searchBetween(int[] left, int[] right, int[] hint, long budget, boolean mayMerge) {
        int nd = shape.length;
        int[] l = normalize(shape, left, "left");
        int[] r = normalize(shape, right, "right");
        long[][] candidates = new long[nd][];
        for (int i = 0; i < nd; i++) {
            candidates[i] = axisCandidates(i, l[i], r[i], hint[i]);
        }
        while (combinations(candidates) > MAX_CANDIDATES) {
            int widest = 0;
            for (int i = 1; i < nd; i++) {
                if (candidates[i].length > candidates[widest].length) {
                    widest = i;
                }
            }
            candidates[widest] = thin(candidates[widest], l[widest], r[widest], hint[widest]);
        }
        int[] best = null;
        long bestCost = Long.MAX_VALUE;
        int[] index = new int[nd];
        int[] w = new int[nd];
        while (true) {
            for (int i = 0; i < nd; i++) {
                w[i] = (int) candidates[i][index[i]];
            }
            List<RechunkStage> stages = stages(dedupe(List.of(left, w, right)));
            if ((mayMerge || stages.size() == 2) && allFit(stages, budget)) {
                long cost = time(stages);
                if (cost < bestCost) {
                    bestCost = cost;
                    best = w.clone();
                }
            }
            int axis = nd - 1;
            while (axis >= 0 && ++index[axis] == candidates[axis].length) {
                index[axis] = 0;
                axis--;
            }
            if (axis < 0) {
                return best;
            }
        }
    }

    private long[] axisCandidates(int axis, long s, long t, int hint) {
        long n = Math.max(1, Math.min(shape[axis], Integer.MAX_VALUE - 8));
        TreeSet<Long> c = new TreeSet<>();
        addDivisors(c, s);
        addDivisors(c, t);
        for (long base : new long[] {s, t}) {
            for (long m = base; m <= n; m *= 2) {
                c.add(m);
            }
        }
        c.add(Math.min(n, Math.max(1, hint)));
        c.add(n);
        c.removeIf(v -> v < 1 || v > n);
        return c.stream().mapToLong(Long::longValue).toArray();
    }

    private static void addDivisors(TreeSet<Long> c, long v) {
        for (long d = 1; d * d <= v; d++) {
            if (v % d == 0) {
                c.add(d);
                c.add(v / d);
            }
        }
    }

    private static long combinations(long[][] candidates) {
        long n = 1;
        for (long[] c : candidates) {
            n = RechunkStage.saturatedMultiply(n, c.length);
        }
        return n;
    }

    /** Every other candidate, keeping the smallest and largest, both neighbours' lengths, their gcd and the hint. */
    private static long[] thin(long[] values, long s, long t, long hint) {
        TreeSet<Long> kept = new TreeSet<>();
        for (int i = 0; i < values.length; i += 2) {
            kept.add(values[i]);
        }
        kept.add(values[values.length - 1]);
        long g = RechunkStage.gcd(s, t);
        for (long v : values) {
            if (v == s || v == t || v == g || v == hint) {
                kept.add(v);
            }
        }
        return kept.stream().mapToLong(Long::longValue).toArray();
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

    private List<RechunkStage> stages(List<int[]> chain) {
        List<RechunkStage> stages = new ArrayList<>();
        for (int s = 0; s + 1 < chain.size(); s++) {
            stages.add(stage(chain.get(s), chain.get(s + 1)));
        }
        return stages;
    }

    /**
     * The chunk shapes of {@code chain} fitted to {@code budget}: while a stage does not fit, one axis of an intermediate
     * chunk shape next to it shrinks — to three quarters or to its largest proper divisor, counted in units of the
     * smaller of the source and target chunk on that axis (so that neighbours stay multiples of each other) — choosing
     * the move that brings the two stages around that intermediate closest to fitting; {@code null} when no move
     * helps.
     */
    private List<int[]> fit(List<int[]> chain, long budget) {
        List<int[]> c = new ArrayList<>();
        for (int[] x : chain) {
            c.add(x.clone());
        }
        while (true) {
            // Chunk shapes that became equal to a neighbour merge first, so every stage checked is a stage run.
            c = dedupe(c);
            int over = -1;
            for (int s = 0; s + 1 < c.size(); s++) {
                if (!fits(stage(c.get(s), c.get(s + 1)), budget)) {
                    over = s;
                    break;
                }
            }
            if (over < 0) {
                return c;
            }
            int bestIndex = -1;
            int bestAxis = -1;
            int bestValue = -1;
            double bestScore = excess(stage(c.get(over), c.get(over + 1)), budget);
            for (int idx = over; idx <= over + 1; idx++) {
                if (idx < 1 || idx > c.size() - 2) {
                    continue;
                }
                int[] mid = c.get(idx);
                for (int axis = 0; axis < mid.length; axis++) {
                    for (int value : shrinkCandidates(mid[axis], Math.min(source[axis], target[axis]))) {
                        int old = mid[axis];
                        mid[axis] = value;
                        double score = Math.max(
                                excess(stage(c.get(idx - 1), mid), budget), excess(stage(mid, c.get(idx + 1)), budget));
                        mid[axis] = old;
                        if (score < bestScore) {
                            bestScore = score;
                            bestIndex = idx;
                            bestAxis = axis;
                            bestValue = value;
                        }
                    }
                }
            }
            if (bestIndex < 0) {
                return null;
            }
            c.get(bestIndex)[bestAxis] = bestValue;
        }
    }

    /** Smaller lengths to try for an intermediate chunk length {@code v}, in multiples of {@code unit} when above it. */
    static int[] shrinkCandidates(int v, int unit) {
        if (v <= 1) {
            return new int[0];
        }
        long u = v > unit ? unit : 1;
        long m = v / u;
        long threeQuarters = Math.max(1, Math.min(m - 1, m * 3 / 4));
        long divisor = m / smallestPrimeFactor(m);
        long a = threeQuarters * u;
        long b = divisor * u;
        return a == b ? new int[] {(int) a} : new int[] {(int) a, (int) b};
    }

    private static long smallestPrimeFactor(long m) {
        for (long p = 2; p * p <= m; p++) {
            if (m % p == 0) {
                return p;
            }
        }
        return m;
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
