package io.cubed.plan;

import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.MemorySize;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

/** Renders a plan as a Graphviz DOT graph, and the graph as SVG and PNG with the {@code dot} program when present. */
final class PlanGraph {
    private PlanGraph() {}

    static String dot(
            Plan plan,
            Predicate<OpNode> fused,
            Function<OpNode, List<OpNode>> predecessors,
            Map<OpNode, Long> projected,
            long allowed) {
        StringBuilder sb = new StringBuilder("digraph plan {\n");
        sb.append("  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n");
        Set<ArrayNode> targets = new HashSet<>(plan.targets());
        Set<ArrayNode> drawn = new HashSet<>();
        for (OpNode op : plan.ops()) {
            if (fused.test(op)) {
                continue;
            }
            long mem = projected.getOrDefault(op, 0L);
            List<String> inside = new ArrayList<>();
            collect(op, predecessors, inside);
            StringBuilder label = new StringBuilder(op.id() + " " + op.name());
            if (!inside.isEmpty()) {
                label.append("\\nfuses ").append(String.join(", ", inside));
            }
            label.append("\\n")
                    .append(op.numTasks())
                    .append(" tasks, ")
                    .append(MemorySize.format(mem))
                    .append(" per task");
            boolean over = mem > allowed;
            sb.append("  \"")
                    .append(op.id())
                    .append("\" [shape=box, style=\"rounded,filled\", fillcolor=\"")
                    .append(over ? "#f4b6b6" : "#dce9f7")
                    .append("\", color=\"")
                    .append(over ? "red" : "#3a6ea5")
                    .append("\", label=\"")
                    .append(escape(label.toString()))
                    .append("\"];\n");
            for (ArrayNode in : runningInputs(op, fused)) {
                array(sb, in, targets, drawn);
                sb.append("  \"")
                        .append(in.name())
                        .append("\" -> \"")
                        .append(op.id())
                        .append("\";\n");
            }
            for (ArrayNode out : op.outputs()) {
                array(sb, out, targets, drawn);
                sb.append("  \"")
                        .append(op.id())
                        .append("\" -> \"")
                        .append(out.name())
                        .append("\";\n");
            }
        }
        return sb.append("}\n").toString();
    }

    /** The arrays a running operation's tasks read: its inputs, through the operations fused into it. */
    private static List<ArrayNode> runningInputs(OpNode op, Predicate<OpNode> fused) {
        List<ArrayNode> out = new ArrayList<>();
        for (ArrayNode a : op.inputs()) {
            if (a.op() != null && fused.test(a.op())) {
                for (ArrayNode b : runningInputs(a.op(), fused)) {
                    if (!out.contains(b)) {
                        out.add(b);
                    }
                }
            } else if (!out.contains(a)) {
                out.add(a);
            }
        }
        return out;
    }

    private static void array(StringBuilder sb, ArrayNode a, Set<ArrayNode> targets, Set<ArrayNode> drawn) {
        if (!drawn.add(a)) {
            return;
        }
        boolean virtual = a.source() != null && a.source().isVirtual();
        boolean stored = a.source() != null && !virtual;
        String kind = virtual ? "virtual" : stored ? "stored" : targets.contains(a) ? "result" : "intermediate";
        String label = a.name() + " (" + kind + ")\\n" + a.dtype() + " "
                + Arrays.toString(a.grid().shape()) + "\\nchunks "
                + Arrays.toString(a.grid().chunkShape()) + ", " + MemorySize.format(a.nbytes());
        String style;
        switch (kind) {
            case "virtual":
                style = "style=dashed";
                break;
            case "intermediate":
                style = "style=filled, fillcolor=\"#e6e6e6\"";
                break;
            case "result":
                style = "penwidth=2.5";
                break;
            default:
                style = "style=solid";
        }
        sb.append("  \"")
                .append(a.name())
                .append("\" [shape=ellipse, ")
                .append(style)
                .append(", label=\"")
                .append(escape(label))
                .append("\"];\n");
    }

    private static void collect(OpNode op, Function<OpNode, List<OpNode>> predecessors, List<String> out) {
        for (OpNode p : predecessors.apply(op)) {
            collect(p, predecessors, out);
            out.add(p.id() + " " + p.name());
        }
    }

    private static String escape(String s) {
        return s.replace("\"", "\\\"");
    }

    /** Writes {@code base.dot}, then {@code base.svg} and {@code base.png} when {@code dot} runs. */
    static List<Path> write(String dot, Path base) {
        String name = base.getFileName().toString();
        if (name.endsWith(".dot")) {
            base = base.resolveSibling(name.substring(0, name.length() - 4));
        }
        Path dotFile = base.resolveSibling(base.getFileName() + ".dot");
        List<Path> written = new ArrayList<>();
        try {
            Path parent = dotFile.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(dotFile, dot, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidArgumentException("visualize: cannot write " + dotFile + ": " + e.getMessage(), e);
        }
        written.add(dotFile);
        if (!dotAvailable()) {
            return written;
        }
        for (String format : List.of("svg", "png")) {
            Path out = base.resolveSibling(base.getFileName() + "." + format);
            render(dotFile, out, format);
            written.add(out);
        }
        return written;
    }

    /** True when Graphviz's {@code dot} can be started. */
    static boolean dotAvailable() {
        try {
            Process p =
                    new ProcessBuilder("dot", "-V").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void render(Path dotFile, Path out, String format) {
        try {
            Process p = new ProcessBuilder("dot", "-T" + format, "-o", out.toString(), dotFile.toString())
                    .redirectErrorStream(true)
                    .start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new CubedException("visualize: dot -T" + format + " failed for " + dotFile + ": " + log);
            }
        } catch (IOException e) {
            throw new CubedException("visualize: cannot run dot for " + dotFile + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CubedException("visualize: interrupted while rendering " + dotFile, e);
        }
    }
}
