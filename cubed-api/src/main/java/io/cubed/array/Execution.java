package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.PlanException;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.Computation;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.IndexKeyFunction;
import io.cubed.runtime.Callback;
import io.cubed.runtime.ProgressBar;
import io.cubed.runtime.ProgressLog;
import io.cubed.storage.fs.StoreLocation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Runs computations for arrays: the shared path of compute, toZarr, {@code Cubed.store} and explain. */
public final class Execution {
    private Execution() {}

    /** The one spec of {@code arrays}; arrays built with different specs cannot be computed together. */
    static Spec commonSpec(List<CubedArray> arrays) {
        Spec spec = arrays.get(0).spec();
        for (CubedArray a : arrays) {
            if (!a.spec().equals(spec)) {
                throw new PlanException("arrays " + arrays.get(0).name() + " and " + a.name()
                        + " have different specs (" + spec + " vs " + a.spec() + "); build all arrays of one "
                        + "computation with the same Spec");
            }
        }
        return spec;
    }

    /** Computes {@code arrays} in one computation and reads each whole into memory. */
    public static List<Chunk> compute(List<CubedArray> arrays, List<Callback> callbacks) {
        return compute(arrays, ComputeOptions.defaults(), callbacks);
    }

    /** As {@link #compute(List, List)}, with per-computation options. */
    public static List<Chunk> compute(List<CubedArray> arrays, ComputeOptions options, List<Callback> callbacks) {
        Spec spec = commonSpec(arrays);
        requireSeparate(arrays, List.of(), spec);
        List<ArrayNode> nodes = new ArrayList<>();
        for (CubedArray a : arrays) {
            nodes.add(a.node());
        }
        Computation c = Computation.prepare(spec, nodes, Map.of(), options.fusion(spec), options.resumeId())
                .deleteIntermediatesEarly(options.deleteIntermediatesEarly());
        boolean ok = false;
        try {
            c.run(withProgress(callbacks));
            List<Chunk> out = new ArrayList<>();
            for (ArrayNode n : nodes) {
                out.add(c.store(n)
                        .readRegion(new long[n.grid().ndim()], toInts(n.grid().shape())));
            }
            ok = true;
            return out;
        } finally {
            c.cleanup(ok);
        }
    }

    /** Computes {@code arrays} into new Zarr arrays at {@code urls}, in one computation. */
    public static void store(List<CubedArray> arrays, List<String> urls, List<Callback> callbacks) {
        store(arrays, urls, ComputeOptions.defaults(), callbacks);
    }

    /** As {@link #store(List, List, List)}, with per-computation options. */
    public static void store(
            List<CubedArray> arrays, List<String> urls, ComputeOptions options, List<Callback> callbacks) {
        if (arrays.size() != urls.size()) {
            throw new PlanException(
                    "store needs one URL per array: " + arrays.size() + " arrays, " + urls.size() + " URLs");
        }
        for (String url : urls) {
            io.cubed.storage.fs.Stores.requireLocation(url);
        }
        Spec spec = commonSpec(arrays);
        requireSeparate(arrays, urls, spec);
        List<ArrayNode> nodes = new ArrayList<>();
        Map<ArrayNode, String> targets = new HashMap<>();
        for (int i = 0; i < arrays.size(); i++) {
            ArrayNode n = arrays.get(i).node();
            if (n.op() == null || targets.containsKey(n)) {
                // A source (or an array stored twice) is copied by an operation of its own.
                n = copyOf(n);
            }
            nodes.add(n);
            targets.put(n, urls.get(i));
        }
        // Dimension names go to the stored targets (_ARRAY_DIMENSIONS on v2, dimension_names on v3).
        Map<ArrayNode, List<String>> dims = new HashMap<>();
        for (int i = 0; i < arrays.size(); i++) {
            List<String> d = arrays.get(i).dims().orElse(null);
            if (d != null) {
                dims.put(nodes.get(i), d);
            }
        }
        Computation c = Computation.prepare(
                        spec, nodes, targets, options.fusion(spec), options.resumeId(), options.zarrFormat())
                .deleteIntermediatesEarly(options.deleteIntermediatesEarly())
                .writtenBy(options.writer(), options.resumeHint())
                .dimensionNames(dims)
                .setUpTargets(options.targetSetUp());
        boolean ok = false;
        try {
            c.run(withProgress(callbacks));
            ok = true;
        } finally {
            c.cleanup(ok);
        }
    }

    /**
     * Refuses, before anything is created or deleted, a target URL that is, lies inside or contains a stored array the
     * computation reads or another target, and a work directory inside an array it reads: writing there would
     * overwrite or corrupt that array, whatever the spelling of the URLs (relative, absolute, links, {@code file:}).
     */
    private static void requireSeparate(List<CubedArray> arrays, List<String> urls, Spec spec) {
        Map<String, String> sources = new java.util.LinkedHashMap<>();
        java.util.Set<ArrayNode> seen = new java.util.HashSet<>();
        java.util.ArrayDeque<ArrayNode> todo = new java.util.ArrayDeque<>();
        for (CubedArray a : arrays) {
            todo.add(a.node());
        }
        while (!todo.isEmpty()) {
            ArrayNode n = todo.pop();
            if (!seen.add(n)) {
                continue;
            }
            if (n.source() != null) {
                n.source().storedAt().ifPresent(u -> sources.putIfAbsent(u, n.name()));
            } else if (n.op() != null) {
                todo.addAll(n.op().inputs());
            }
        }
        for (int i = 0; i < urls.size(); i++) {
            String what = "writing " + arrays.get(i).name() + " to " + urls.get(i);
            for (String source : sources.keySet()) {
                StoreLocation.requireApart(what, source, urls.get(i));
            }
            for (int j = 0; j < i; j++) {
                StoreLocation a = StoreLocation.of(urls.get(j));
                StoreLocation b = StoreLocation.of(urls.get(i));
                if (a.overlaps(b)) {
                    throw new InvalidArgumentException(what + ": it overlaps " + urls.get(j) + ", where "
                            + arrays.get(j).name() + " is written in the same computation; give each array a"
                            + " location of its own");
                }
            }
        }
        StoreLocation work = StoreLocation.of(spec.workDir());
        for (String source : sources.keySet()) {
            if (work.relationTo(StoreLocation.of(source)) != StoreLocation.Relation.APART
                    && work.relationTo(StoreLocation.of(source)) != StoreLocation.Relation.CONTAINS) {
                throw new InvalidArgumentException("the work directory " + spec.workDir() + " is or lies inside "
                        + source + ", which this computation reads; intermediate arrays would be written into it:"
                        + " choose a work directory outside it");
            }
        }
    }

    static String explain(List<CubedArray> arrays, ComputeOptions options) {
        Spec spec = commonSpec(arrays);
        List<ArrayNode> nodes = new ArrayList<>();
        for (CubedArray a : arrays) {
            nodes.add(a.node());
        }
        return Computation.prepare(spec, nodes, Map.of(), options.fusion(spec)).explain();
    }

    /** The computation of {@code arrays} prepared for inspection (statistics, pictures), even over the budget. */
    static Computation prepare(List<CubedArray> arrays, ComputeOptions options) {
        Spec spec = commonSpec(arrays);
        List<ArrayNode> nodes = new ArrayList<>();
        for (CubedArray a : arrays) {
            nodes.add(a.node());
        }
        return Computation.inspect(spec, nodes, options.fusion(spec));
    }

    private static ArrayNode copyOf(ArrayNode n) {
        String ind = Blockwise.letters(n.grid().ndim());
        OpNode op = OpNode.blockwise(
                "copy",
                List.of(n),
                new IndexKeyFunction(
                        ind, new String[] {ind}, new long[][] {n.grid().chunksPerAxis()}),
                (ChunkFunction) (args, coords) -> new Chunk[] {args.chunk(0)},
                new int[] {1},
                0,
                List.of(n.dtype()),
                List.of(n.grid()));
        return op.outputs().get(0);
    }

    /** The callbacks and progress: a bar on a terminal, otherwise log lines (when io.cubed.progress logs INFO). */
    private static List<Callback> withProgress(List<Callback> callbacks) {
        Callback progress = ProgressBar.forConsole();
        if (progress == null) {
            progress = ProgressLog.ifEnabled();
        }
        if (progress == null) {
            return callbacks;
        }
        List<Callback> all = new ArrayList<>(callbacks);
        all.add(progress);
        return all;
    }

    static int[] toInts(long[] shape) {
        int[] s = new int[shape.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = Math.toIntExact(shape[i]);
        }
        return s;
    }
}
