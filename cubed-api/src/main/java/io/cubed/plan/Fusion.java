package io.cubed.plan;

import io.cubed.memory.BufferCopies;
import io.cubed.primitive.IndexKeyFunction;
import io.cubed.primitive.RechunkChunkFunction;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The optimizer's decisions for one plan: which blockwise operations run inside the tasks of their consumer instead of
 * writing their output (see {@code docs/fusion.md}). An operation P is fused into its consumer C when
 *
 * <ul>
 *   <li>P and C are ordinary blockwise operations (not rechunk copy stages) and P has one output;
 *   <li>P's output is not an array the caller asked for, is read by C alone and through one input, and is not in
 *       {@link FusionOptions#neverFuse};
 *   <li>C's tasks read each chunk of P's output at most once (so nothing is computed twice), unless the array is in
 *       {@link FusionOptions#alwaysFuse};
 *   <li>when C has fewer tasks than P, P's output is at least half the size of its inputs: fusing an elementwise chain
 *       into the first round of a reduction saves writing a large array, while folding a reduction round (a small
 *       output) into the next saves little and runs its work in fewer tasks;
 *   <li>the fused task reads at most {@link FusionOptions#maxSourceArrays} stored or virtual arrays (or no more than C
 *       alone), and about {@link FusionOptions#maxInputBlocks} of their chunks, unless {@code alwaysFuse}: fusing a
 *       predecessor with many tasks into a consumer with few would run its work in fewer, longer tasks;
 *   <li>the fused task's projected memory is within {@code allowedMem}: C's own figure, with P's output chunks held in
 *       memory instead of read from storage, plus the peak of computing one chunk of P (P's inputs, extra memory and
 *       its own fused predecessors), which happens one chunk at a time.
 * </ul>
 *
 * Operations are visited in dependency order, so chains fuse from their start: in {@code a → b → c}, b fuses into c
 * after a fused into b.
 */
final class Fusion {
    private static final Logger LOG = LoggerFactory.getLogger(Fusion.class);
    /** The most key evaluations spent checking that a consumer reads each chunk once, for key functions in general. */
    private static final long MAX_KEY_CHECKS = 2_000_000;

    private final Set<OpNode> fused = new HashSet<>();
    private final Map<OpNode, List<OpNode>> predecessors = new HashMap<>();
    private final Map<OpNode, Long> projected = new HashMap<>();
    /** Projected memory per task without the data its task function carries ({@link Plan#carriedBytes}). */
    private final Map<OpNode, Long> working = new HashMap<>();

    private final Map<OpNode, Long> unfusedProjected = new HashMap<>();
    /** Estimated chunks of stored or virtual arrays one task reads, through its fused predecessors. */
    private final Map<OpNode, Long> blocks = new HashMap<>();

    private final List<String> decisions = new ArrayList<>();

    /**
     * Decides fusion for {@code plan}; {@code copiesOf} gives the buffer copies of a stored array, {@code targets} the
     * arrays that must be stored.
     */
    Fusion(
            Plan plan,
            Set<ArrayNode> targets,
            FusionOptions options,
            long reserved,
            long allowed,
            Function<ArrayNode, BufferCopies> copiesOf) {
        Map<ArrayNode, Integer> reads = new HashMap<>();
        Map<ArrayNode, OpNode> reader = new HashMap<>();
        for (OpNode op : plan.ops()) {
            for (ArrayNode in : op.inputs()) {
                reads.merge(in, 1, Integer::sum);
                reader.put(in, op);
            }
        }
        Map<OpNode, Set<ArrayNode>> sources = new HashMap<>();
        for (OpNode c : plan.ops()) {
            unfusedProjected.put(c, Plan.projectedMemBytes(c, reserved, copiesOf) + Plan.carriedBytes(c));
            List<OpNode> accepted = new ArrayList<>();
            Set<ArrayNode> src = new LinkedHashSet<>(c.inputs());
            long work = memory(c, accepted, reserved, copiesOf);
            long mem = work + carried(c, accepted);
            for (int j = 0; j < c.inputs().size(); j++) {
                ArrayNode a = c.inputs().get(j);
                OpNode p = a.op();
                if (p == null || !options.enabled()) {
                    continue;
                }
                String refusal = refusal(c, j, a, p, targets, options, reads, reader);
                if (refusal == null) {
                    List<OpNode> trial = new ArrayList<>(accepted);
                    trial.add(p);
                    Set<ArrayNode> trialSrc = new LinkedHashSet<>(src);
                    trialSrc.remove(a);
                    trialSrc.addAll(sources.getOrDefault(p, Set.copyOf(p.inputs())));
                    long trialWork = memory(c, trial, reserved, copiesOf);
                    long trialMem = trialWork + carried(c, trial);
                    boolean always = options.alwaysFuse().contains(a);
                    long trialBlocks = inputBlocks(c, trial);
                    if (trialMem > allowed) {
                        refusal = "the fused task would need " + trialMem + " bytes, over allowedMem " + allowed;
                    } else if (!always && trialSrc.size() > Math.max(options.maxSourceArrays(), src.size())) {
                        refusal = "the fused task would read " + trialSrc.size() + " source arrays, over the limit of "
                                + options.maxSourceArrays();
                    } else if (!always && trialBlocks > Math.max(options.maxInputBlocks(), inputBlocks(c, accepted))) {
                        refusal = "a fused task would read about " + trialBlocks + " input chunks, over the limit of "
                                + options.maxInputBlocks() + " (it would run the predecessor's work in fewer tasks)";
                    } else {
                        accepted = trial;
                        src = trialSrc;
                        work = trialWork;
                        mem = trialMem;
                        fused.add(p);
                        decide("fused " + describe(p) + " into " + describe(c));
                        continue;
                    }
                }
                decide("kept " + a.name() + " (" + describe(p) + " -> " + describe(c) + "): " + refusal);
            }
            predecessors.put(c, accepted);
            sources.put(c, src);
            projected.put(c, mem);
            working.put(c, work);
            blocks.put(c, inputBlocks(c, accepted));
        }
    }

    /** Why {@code p} cannot be fused into {@code c} through input {@code j} (array {@code a}), or null. */
    private static String refusal(
            OpNode c,
            int j,
            ArrayNode a,
            OpNode p,
            Set<ArrayNode> targets,
            FusionOptions options,
            Map<ArrayNode, Integer> reads,
            Map<ArrayNode, OpNode> reader) {
        if (options.neverFuse().contains(a)) {
            return "neverFuse";
        }
        if (targets.contains(a)) {
            return "it is an array to compute or store";
        }
        if (isRechunk(p) || isRechunk(c)) {
            return "fusion never crosses a rechunk, nor an operation whose tasks compute several chunks";
        }
        if (p.outputs().size() != 1) {
            return "its operation has " + p.outputs().size() + " outputs";
        }
        if (reads.getOrDefault(a, 0) != 1 || reader.get(a) != c) {
            return "it has " + reads.getOrDefault(a, 0) + " readers";
        }
        if (!options.alwaysFuse().contains(a) && !readsEachChunkOnce(c, j)) {
            return "the consumer's tasks read some of its chunks more than once";
        }
        if (!options.alwaysFuse().contains(a) && p.numTasks() > c.numTasks() && 2 * a.nbytes() < inputBytes(p)) {
            return "it is much smaller than what it reads (a reduction): storing it costs little, and fusing would run "
                    + p.numTasks() + " tasks' work in " + c.numTasks();
        }
        return null;
    }

    /** Rechunk copy stages, and any operation whose tasks compute several output chunks. */
    private static boolean isRechunk(OpNode op) {
        if (op.function() instanceof RechunkChunkFunction) {
            return true;
        }
        int[] perTask = op.chunksPerTask();
        if (perTask != null) {
            for (int n : perTask) {
                if (n != 1) {
                    return true;
                }
            }
        }
        return false;
    }

    private static long inputBytes(OpNode op) {
        long total = 0;
        for (ArrayNode in : op.inputs()) {
            total += in.nbytes();
        }
        return total;
    }

    /** True when no two tasks of {@code c} read the same chunk of its input {@code j}. */
    static boolean readsEachChunkOnce(OpNode c, int j) {
        if (c.keyFunction() instanceof IndexKeyFunction ikf) {
            return ikf.readsEachChunkOnce(j);
        }
        ArrayNode in = c.inputs().get(j);
        long tasks = c.numTasks();
        if (in.grid().numChunks() > Integer.MAX_VALUE) {
            return false;
        }
        BitSet seen = new BitSet((int) in.grid().numChunks());
        long checks = 0;
        for (long t = 0; t < tasks; t++) {
            long[] coords = c.outputs().get(0).grid().chunkCoordsOf(t);
            for (long[] key : c.keyFunction().inputKeys(coords)[j]) {
                if (++checks > MAX_KEY_CHECKS) {
                    return false;
                }
                int index = (int) linear(in, key);
                if (seen.get(index)) {
                    return false;
                }
                seen.set(index);
            }
        }
        return true;
    }

    private static long linear(ArrayNode a, long[] coords) {
        long[] per = a.grid().chunksPerAxis();
        long index = 0;
        for (int i = 0; i < per.length; i++) {
            index = index * per[i] + coords[i];
        }
        return index;
    }

    /**
     * About how many chunks of stored or virtual arrays one task of {@code c} reads when {@code fusedPreds} run inside
     * it: for a stored input, its chunks shared out over {@code c}'s tasks (at least one); for a fused predecessor,
     * its own figure times the number of its tasks each of {@code c}'s tasks takes over.
     */
    private long inputBlocks(OpNode c, List<OpNode> fusedPreds) {
        long tasks = Math.max(1, c.numTasks());
        long total = 0;
        for (ArrayNode a : c.inputs()) {
            OpNode p = a.op();
            if (p != null && fusedPreds.contains(p)) {
                long perTask = (Math.max(1, p.numTasks()) + tasks - 1) / tasks;
                total += perTask * blocks.getOrDefault(p, 1L);
            } else {
                total += Math.max(1, (a.grid().numChunks() + tasks - 1) / tasks);
            }
        }
        return total;
    }

    /**
     * Projected memory of one task of {@code c} with {@code fusedPreds} computed inside it. Where the task computes them
     * chunk by chunk: {@code c}'s own figure with their outputs held in memory (no buffer copies), plus the largest
     * working set of computing one of their chunks (the predecessor's projected memory without the reserve and without
     * its own output chunk). Where an elementwise chain runs tile by tile ({@link TiledChains}): what the tiles hold,
     * for a chain ending in {@code c}, or, for a chain whose tiles {@code c} takes box by box (a reduction's first
     * round), {@code c}'s own figure with the chain's tiles in place of its output chunk. Without the data the task
     * function carries ({@link #carried}), which is held for the whole task and added once.
     */
    private long memory(OpNode c, List<OpNode> fusedPreds, long reserved, Function<ArrayNode, BufferCopies> copiesOf) {
        long tiled = TiledChains.elementwiseRoot(c, fusedPreds, this::predecessors, working, reserved, copiesOf);
        if (tiled >= 0) {
            return tiled;
        }
        Set<OpNode> inTask = new HashSet<>(fusedPreds);
        long base = Plan.projectedMemBytes(
                c,
                reserved,
                a -> a.op() != null && inTask.contains(a.op()) ? new BufferCopies(0, 0) : copiesOf.apply(a));
        long transientPeak = 0;
        for (OpNode p : fusedPreds) {
            if (c.inputs().get(0).op() == p && c.function().readsInBoxes(0)) {
                long boxed = TiledChains.boxedInput(p, this::predecessors, working, reserved, copiesOf);
                if (boxed >= 0) {
                    // The chain's output chunk is never assembled: its tiles go to c as they are computed. The chunk
                    // c's extra memory counts as read before and not yet freed is, likewise, the chain's leaves.
                    int stale = c.function().inputChunksInExtra(0);
                    base -= c.inputs().get(0).chunkBytes() * (c.chunksHeld(0) + stale);
                    base += stale * TiledChains.boxedLeafBytes(p, this::predecessors);
                    transientPeak = Math.max(transientPeak, boxed);
                    continue;
                }
            }
            long own = working.get(p) - reserved;
            for (ArrayNode out : p.outputs()) {
                own -= out.chunkBytes() * (1 + copiesOf.apply(out).write());
            }
            transientPeak = Math.max(transientPeak, own);
        }
        return base + transientPeak;
    }

    /**
     * Bytes of data carried by the task function of {@code c} with {@code fusedPreds} (and theirs) inside it, each
     * carrier once: they are all held while the task runs, not one after another as fused chunks are computed.
     */
    private long carried(OpNode c, List<OpNode> fusedPreds) {
        List<OpNode> inTask = new ArrayList<>();
        inTask.add(c);
        List<OpNode> todo = new ArrayList<>(fusedPreds);
        while (!todo.isEmpty()) {
            OpNode p = todo.remove(todo.size() - 1);
            inTask.add(p);
            todo.addAll(predecessors(p));
        }
        return Plan.carriedBytes(inTask);
    }

    private void decide(String decision) {
        decisions.add(decision);
        LOG.debug("fusion: {}", decision);
    }

    private static String describe(OpNode op) {
        return op.id() + " " + op.name();
    }

    /** True when {@code op} runs inside its consumer's tasks. */
    boolean isFused(OpNode op) {
        return fused.contains(op);
    }

    /** The operations fused directly into {@code op} (each may have its own). */
    List<OpNode> predecessors(OpNode op) {
        return predecessors.getOrDefault(op, List.of());
    }

    /** Projected memory per task of each operation, fused figures for the operations that run. */
    Map<OpNode, Long> projected() {
        return projected;
    }

    /**
     * Bytes of data the task function of {@code op} carries, with the operations fused into it ({@link
     * Plan#carriedBytes}); part of {@link #projected()}.
     */
    long carriedBytes(OpNode op) {
        return projected.get(op) - working.get(op);
    }

    /** Projected memory per task of each operation as if nothing were fused. */
    Map<OpNode, Long> unfusedProjected() {
        return unfusedProjected;
    }

    /** Every decision taken, in order, for logs and tests. */
    List<String> decisions() {
        return decisions;
    }
}
