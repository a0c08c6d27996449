package io.cubed.plan;

import io.cubed.memory.BufferCopies;
import io.cubed.memory.MemorySize;
import io.cubed.memory.ProjectedMemory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The operations that compute a set of arrays, in an order where each comes after the operations producing its
 * inputs, with per-operation figures: tasks, projected memory per task, and bytes written.
 */
public final class Plan {
    private final List<ArrayNode> targets;
    private final List<OpNode> ops;

    private Plan(List<ArrayNode> targets, List<OpNode> ops) {
        this.targets = List.copyOf(targets);
        this.ops = List.copyOf(ops);
    }

    /** The plan computing {@code targets}: every operation they depend on, in dependency order. */
    public static Plan of(Collection<ArrayNode> targets) {
        LinkedHashSet<OpNode> order = new LinkedHashSet<>();
        Set<OpNode> visiting = new HashSet<>();
        for (ArrayNode t : targets) {
            visit(t, order, visiting);
        }
        return new Plan(new ArrayList<>(targets), new ArrayList<>(order));
    }

    private static void visit(ArrayNode a, LinkedHashSet<OpNode> order, Set<OpNode> visiting) {
        OpNode op = a.op();
        if (op == null || order.contains(op)) {
            return;
        }
        if (!visiting.add(op)) {
            throw new IllegalStateException("cycle through " + op);
        }
        for (ArrayNode in : op.inputs()) {
            visit(in, order, visiting);
        }
        order.add(op);
    }

    public List<ArrayNode> targets() {
        return targets;
    }

    /** The operations in dependency order. */
    public List<OpNode> ops() {
        return ops;
    }

    /** Total number of tasks. */
    public long numTasks() {
        long n = 0;
        for (OpNode op : ops) {
            n += op.numTasks();
        }
        return n;
    }

    /**
     * Projected memory in bytes of one task of {@code op}: {@code reserved + Σ input chunk · held · (1 + read copies)
     * + extra + Σ output chunk · (1 + write copies)}, with each array's copies given by {@code copiesOf}. An input the
     * function reads into chunks it holds anyway ({@link io.cubed.primitive.ChunkFunction#readsInputInto}), from an
     * array whose reads into other chunks decode no chunk ({@link BufferCopies#readsInto}), counts its read copies
     * only.
     */
    public static long projectedMemBytes(OpNode op, long reservedBytes, Function<ArrayNode, BufferCopies> copiesOf) {
        long total = reservedBytes + op.extraMemBytes();
        for (int j = 0; j < op.inputs().size(); j++) {
            ArrayNode in = op.inputs().get(j);
            long held = in.chunkBytes() * op.chunksHeld(j);
            BufferCopies copies = copiesOf.apply(in);
            long perInput = op.function().readsInputInto(j)
                    ? Math.multiplyExact(held, copies.readIntoCopies())
                    : ProjectedMemory.blockwise(0, new long[] {held}, 0, 0, copies);
            total = Math.addExact(total, perInput);
        }
        for (ArrayNode out : op.outputs()) {
            total = Math.addExact(
                    total, ProjectedMemory.blockwise(0, new long[0], 0, out.chunkBytes(), copiesOf.apply(out)));
        }
        return total;
    }

    /**
     * Bytes of data the task function of {@code op} carries: take's index lists (in its key or chunk function) and the
     * data of the {@code asarray} arrays it reads. Every JVM running a task of {@code op} holds them whole while it
     * runs, so they belong in the task's projected memory beside the chunks.
     */
    public static long carriedBytes(OpNode op) {
        return carriedBytes(List.of(op));
    }

    /**
     * As {@link #carriedBytes(OpNode)} for operations that run in one task (an operation and those fused into it),
     * each carrier (function or array) counted once, as one task function holds it once.
     */
    static long carriedBytes(Collection<OpNode> ops) {
        Set<Object> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        long total = 0;
        for (OpNode op : ops) {
            for (Object f : new Object[] {op.keyFunction(), op.function()}) {
                if (f instanceof io.cubed.primitive.CarriedData d && seen.add(f)) {
                    total = Math.addExact(total, d.carriedBytes());
                }
            }
            for (ArrayNode in : op.inputs()) {
                if (in.source() != null && seen.add(in.source())) {
                    total = Math.addExact(total, in.source().carriedBytes());
                }
            }
        }
        return total;
    }

    /**
     * A table of the operations: id, name, tasks, projected memory per task, bytes written, and the output arrays;
     * {@code projected} gives each operation's projected memory.
     */
    public String explain(Map<OpNode, Long> projected, MemorySize allowed) {
        return explain(projected, allowed, op -> false, op -> List.of());
    }

    /**
     * As {@link #explain(Map, MemorySize)} for a fused plan: operations for which {@code fused} is true run inside
     * others and are listed under the operation that runs them ({@code predecessors}), not as rows of their own.
     */
    public String explain(
            Map<OpNode, Long> projected,
            MemorySize allowed,
            java.util.function.Predicate<OpNode> fused,
            Function<OpNode, List<OpNode>> predecessors) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "%-8s %-22s %8s %14s %12s  %s%n",
                "op",
                "name",
                "tasks",
                "memory/task",
                "writes",
                "output"));
        long maxMem = 0;
        long totalWrite = 0;
        int running = 0;
        long tasks = 0;
        for (OpNode op : ops) {
            if (fused.test(op)) {
                continue;
            }
            running++;
            tasks += op.numTasks();
            long mem = projected.getOrDefault(op, 0L);
            maxMem = Math.max(maxMem, mem);
            long write = 0;
            StringBuilder outs = new StringBuilder();
            for (ArrayNode o : op.outputs()) {
                write += o.nbytes();
                if (outs.length() > 0) {
                    outs.append(", ");
                }
                outs.append(o.name())
                        .append(' ')
                        .append(o.dtype())
                        .append(' ')
                        .append(Arrays.toString(o.grid().shape()))
                        .append(" chunks ")
                        .append(Arrays.toString(o.grid().chunkShape()));
            }
            totalWrite += write;
            sb.append(String.format(
                    Locale.ROOT,
                    "%-8s %-22s %8d %14s %12s  %s%s%n",
                    op.id(),
                    op.name(),
                    op.numTasks(),
                    MemorySize.format(mem),
                    MemorySize.format(write),
                    outs,
                    mem > allowed.bytes() ? "  EXCEEDS allowedMem" : ""));
            if (op.detail() != null) {
                sb.append(String.format(Locale.ROOT, "%-8s %s%n", "", op.detail()));
            }
            List<String> inside = new ArrayList<>();
            collectFused(op, predecessors, inside);
            if (!inside.isEmpty()) {
                sb.append(String.format(Locale.ROOT, "%-8s fuses %s%n", "", String.join(", ", inside)));
            }
        }
        sb.append(String.format(
                Locale.ROOT,
                "%d operations%s, %d tasks, max memory/task %s of allowedMem %s, writes %s%n",
                running,
                running == ops.size() ? "" : " (" + (ops.size() - running) + " more fused into them)",
                tasks,
                MemorySize.format(maxMem),
                allowed,
                MemorySize.format(totalWrite)));
        return sb.toString();
    }

    private static void collectFused(OpNode op, Function<OpNode, List<OpNode>> predecessors, List<String> out) {
        for (OpNode p : predecessors.apply(op)) {
            collectFused(p, predecessors, out);
            out.add(p.id() + " " + p.name());
        }
    }
}
