package io.cubed.plan;

import io.cubed.memory.BufferCopies;
import io.cubed.memory.ProjectedMemory;
import io.cubed.primitive.StreamingChunkFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sibling operations that run as one stage and read their shared input once (see {@code docs/fusion.md}): operations
 * that run (are not fused into others) and
 *
 * <ul>
 *   <li>read one and the same array, with nothing fused into them, one chunk at a time;
 *   <li>stream it ({@link StreamingChunkFunction}: the first rounds of reductions, say {@code sum(u)} and {@code mean(u,
 *       axis=0)});
 *   <li>have outputs with the same number of chunks per axis, one output chunk per task, and read the same input
 *       chunks in the same order for every output chunk;
 *   <li>fit together in {@code allowedMem}: one input chunk with its read buffers, plus every operation's extra memory
 *       and output chunks, plus the data their task functions carry ({@link Plan#carriedBytes}), each carrier once:
 *       siblings reading one {@code asarray} array hold it once, as one task function does.
 * </ul>
 *
 * Operations are grouped greedily in plan order. The first operation of a group leads it: the stage has its id.
 */
final class SiblingReads {
    private static final Logger LOG = LoggerFactory.getLogger(SiblingReads.class);
    /** The most input keys compared when checking that two operations read the same chunks. */
    private static final long MAX_KEY_CHECKS = 2_000_000;

    private final Map<OpNode, List<OpNode>> groups = new LinkedHashMap<>();
    private final Map<OpNode, OpNode> leaderOf = new HashMap<>();
    private final Map<OpNode, Long> projected = new HashMap<>();
    private final List<String> decisions = new ArrayList<>();

    /**
     * Groups the running operations of {@code plan}; {@code fusion} says which run, {@code projected} gives their
     * projected memory, {@code copiesOf} the buffer copies of an array.
     */
    SiblingReads(
            Plan plan,
            Fusion fusion,
            boolean enabled,
            long reserved,
            long allowed,
            Map<OpNode, Long> projectedPerOp,
            Function<ArrayNode, BufferCopies> copiesOf) {
        if (!enabled) {
            return;
        }
        Map<ArrayNode, List<List<OpNode>>> open = new HashMap<>();
        // A group's task without the data its operations carry, which is added once per distinct carrier.
        Map<List<OpNode>, Long> memory = new HashMap<>();
        for (OpNode op : plan.ops()) {
            if (!candidate(op, fusion)) {
                continue;
            }
            ArrayNode in = op.inputs().get(0);
            long inputTerm = inputTerm(in, copiesOf);
            long working = projectedPerOp.get(op) - fusion.carriedBytes(op);
            long own = working - reserved - inputTerm;
            List<List<OpNode>> forInput = open.computeIfAbsent(in, k -> new ArrayList<>());
            boolean placed = false;
            for (List<OpNode> g : forInput) {
                OpNode first = g.get(0);
                if (!sameReads(first, op)) {
                    continue;
                }
                List<OpNode> together = new ArrayList<>(g);
                together.add(op);
                long groupWorking = memory.get(g) + own;
                long merged = groupWorking + Plan.carriedBytes(together);
                if (merged > allowed) {
                    decide("kept " + op.id() + " " + op.name() + " apart from " + first.id() + ": reading " + in.name()
                            + " once for both would need " + merged + " bytes, over allowedMem " + allowed);
                    continue;
                }
                g.add(op);
                memory.put(g, groupWorking);
                placed = true;
                decide("runs " + op.id() + " " + op.name() + " with " + first.id() + " " + first.name() + ", reading "
                        + in.name() + " once");
                break;
            }
            if (!placed) {
                List<OpNode> g = new ArrayList<>();
                g.add(op);
                forInput.add(g);
                memory.put(g, working);
            }
        }
        for (List<List<OpNode>> forInput : open.values()) {
            for (List<OpNode> g : forInput) {
                if (g.size() > 1) {
                    groups.put(g.get(0), List.copyOf(g));
                    projected.put(g.get(0), memory.get(g) + Plan.carriedBytes(g));
                    for (OpNode op : g) {
                        leaderOf.put(op, g.get(0));
                    }
                }
            }
        }
    }

    /** Whether {@code op} may share its reads: one streamed input, nothing fused into it, one chunk per task. */
    private static boolean candidate(OpNode op, Fusion fusion) {
        if (fusion.isFused(op)
                || !fusion.predecessors(op).isEmpty()
                || op.inputs().size() != 1) {
            return false;
        }
        if (op.chunksHeld(0) != 1 || Arrays.stream(op.chunksPerTask()).anyMatch(n -> n != 1)) {
            return false;
        }
        return op.function() instanceof StreamingChunkFunction s && s.streamsOneInput();
    }

    /** One chunk of {@code in} held by a task, with its read buffers. */
    private static long inputTerm(ArrayNode in, Function<ArrayNode, BufferCopies> copiesOf) {
        return ProjectedMemory.blockwise(0, new long[] {in.chunkBytes()}, 0, 0, copiesOf.apply(in));
    }

    /** Whether {@code a} and {@code b} have the same output chunk grid and read the same chunks for each output chunk. */
    private static boolean sameReads(OpNode a, OpNode b) {
        long[] perAxis = a.outputs().get(0).grid().chunksPerAxis();
        if (!Arrays.equals(perAxis, b.outputs().get(0).grid().chunksPerAxis())) {
            return false;
        }
        long checks = 0;
        long n = a.numTasks();
        long[] coords = new long[perAxis.length];
        for (long t = 0; t < n; t++) {
            long rest = t;
            for (int d = perAxis.length - 1; d >= 0; d--) {
                coords[d] = rest % perAxis[d];
                rest /= perAxis[d];
            }
            long[][] ka = a.keyFunction().inputKeys(coords)[0];
            long[][] kb = b.keyFunction().inputKeys(coords)[0];
            if (!Arrays.deepEquals(ka, kb)) {
                return false;
            }
            checks += ka.length;
            if (checks > MAX_KEY_CHECKS) {
                return false;
            }
        }
        return true;
    }

    private void decide(String line) {
        decisions.add(line);
        LOG.debug(line);
    }

    /** The operations run with {@code leader} (itself first), or an empty list when it leads no group. */
    List<OpNode> group(OpNode leader) {
        return groups.getOrDefault(leader, List.of());
    }

    /** The operation whose stage runs {@code op}: its group's leader, or itself. */
    OpNode stageOf(OpNode op) {
        return leaderOf.getOrDefault(op, op);
    }

    /** Whether {@code op} runs in the stage of another operation. */
    boolean isFollower(OpNode op) {
        OpNode l = leaderOf.get(op);
        return l != null && l != op;
    }

    /** Projected memory of a group's task, by leader. */
    long projected(OpNode leader) {
        return projected.get(leader);
    }

    List<String> decisions() {
        return List.copyOf(decisions);
    }
}
