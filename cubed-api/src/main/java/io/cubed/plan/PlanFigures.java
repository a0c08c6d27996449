package io.cubed.plan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The figures of a prepared plan: its {@link PlanStatistics} with or without fusion and sibling reads, and the lines
 * of {@link Computation#explain} that name each group of sibling operations run as one stage.
 */
final class PlanFigures {
    private PlanFigures() {}

    /**
     * The figures with operations for which {@code fused} is true run inside others, and, when {@code shared} is not
     * null, sibling operations run in their leader's stage: one stage, one set of tasks and one read of the input
     * for the group, the group's memory, every sibling's outputs.
     */
    static PlanStatistics statistics(
            Plan plan, java.util.function.Predicate<OpNode> fused, Map<OpNode, Long> mem, SiblingReads shared) {
        int running = 0;
        long tasks = 0;
        long maxMem = 0;
        long read = 0;
        long written = 0;
        long intermediate = 0;
        Set<ArrayNode> targets = new HashSet<>(plan.targets());
        for (OpNode op : plan.ops()) {
            if (fused.test(op)) {
                continue;
            }
            if (shared == null || !shared.isFollower(op)) {
                running++;
                tasks += op.numTasks();
                long m =
                        shared != null && !shared.group(op).isEmpty() ? shared.projected(op) : mem.getOrDefault(op, 0L);
                maxMem = Math.max(maxMem, m);
                read += storedBytesRead(op, fused, new HashSet<>());
            }
            for (ArrayNode out : op.outputs()) {
                written += out.nbytes();
                if (!targets.contains(out)) {
                    intermediate += out.nbytes();
                }
            }
        }
        return new PlanStatistics(running, plan.ops().size() - running, tasks, maxMem, read, written, intermediate);
    }

    /** Bytes of the stored arrays {@code op}'s tasks read, looking through fused operations; each array once. */
    private static long storedBytesRead(OpNode op, java.util.function.Predicate<OpNode> fused, Set<ArrayNode> seen) {
        long total = 0;
        for (ArrayNode a : op.inputs()) {
            if (!seen.add(a)) {
                continue;
            }
            if (a.source() != null) {
                total += a.source().isVirtual() ? 0 : a.nbytes();
            } else if (fused.test(a.op())) {
                total += storedBytesRead(a.op(), fused, seen);
            } else {
                total += a.nbytes();
            }
        }
        return total;
    }

    /** One line per group of sibling operations of {@code plan} that run as one stage reading their input once. */
    static void appendSiblingGroups(StringBuilder sb, Plan plan, SiblingReads siblings) {
        for (OpNode op : plan.ops()) {
            List<OpNode> group = siblings.group(op);
            if (group.isEmpty()) {
                continue;
            }
            List<String> names = new ArrayList<>();
            for (OpNode g : group) {
                names.add(g.id() + " " + g.name());
            }
            sb.append(String.format(
                    java.util.Locale.ROOT,
                    "%s run as one stage of %d tasks reading %s once, %s per task%n",
                    String.join(" and ", names),
                    op.numTasks(),
                    op.inputs().get(0).name(),
                    io.cubed.memory.MemorySize.format(siblings.projected(op))));
        }
    }
}
