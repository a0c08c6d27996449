package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.storage.zarr.DimensionNames;
import java.util.Arrays;
import java.util.List;

/**
 * A lazy N-dimensional array: a node of a plan, never data. Building arrays from others runs nothing; {@link
 * #compute}, {@link #toZarr} and {@link io.cubed.Cubed#store} run the plan with the array's {@link Spec}, every task
 * within {@code allowedMem}. Immutable.
 */
public final class CubedArray {
    private final ArrayNode node;
    private final Spec spec;
    private final List<String> dims;

    private CubedArray(ArrayNode node, Spec spec, List<String> dims) {
        this.node = node;
        this.spec = spec;
        this.dims = dims;
    }

    /**
     * The array of plan node {@code node}, computed with {@code spec}. An array read from Zarr takes its dimension
     * names from the metadata ({@code dimension_names}, or xarray's {@code _ARRAY_DIMENSIONS}).
     */
    public static CubedArray of(ArrayNode node, Spec spec) {
        List<String> names = node.source() == null ? null : DimensionNames.read(node.source());
        return new CubedArray(node, spec, names);
    }

    /**
     * The names of the dimensions, one per axis (xarray's {@code dims}), when the array has them: read from Zarr, set
     * with {@link #withDims}, or kept through copies, rechunks and elementwise operations whose inputs agree on them.
     * {@link #toZarr} writes them back.
     */
    public java.util.Optional<List<String>> dims() {
        return java.util.Optional.ofNullable(dims);
    }

    /** This array with its dimensions named {@code names} (one per axis, distinct, not empty). */
    public CubedArray withDims(String... names) {
        return withDims(Arrays.asList(names));
    }

    /** This array with its dimensions named {@code names}; null removes the names. */
    public CubedArray withDims(List<String> names) {
        if (names == null) {
            return new CubedArray(node, spec, null);
        }
        return new CubedArray(node, spec, DimensionNames.check(names, "withDims on " + name(), ndim()));
    }

    /**
     * This array (the result of an elementwise operation on {@code inputs}, broadcast from their trailing axes) named as
     * its inputs name the dimensions when that is unambiguous: every axis named by some input, and no axis named two
     * ways. Otherwise unnamed.
     */
    CubedArray withDimsOf(CubedArray... inputs) {
        int nd = ndim();
        String[] names = new String[nd];
        for (CubedArray in : inputs) {
            if (in == null || in.dims == null) {
                continue;
            }
            int shift = nd - in.ndim();
            if (shift < 0) {
                return withDims((List<String>) null);
            }
            for (int a = 0; a < in.ndim(); a++) {
                String n = in.dims.get(a);
                if (names[shift + a] != null && !names[shift + a].equals(n)) {
                    return withDims((List<String>) null);
                }
                names[shift + a] = n;
            }
        }
        for (String n : names) {
            if (n == null) {
                return withDims((List<String>) null);
            }
        }
        // Axis 0 is named only by an input of the result's rank, whose names are distinct and which every other
        // input agreed with: the names are distinct.
        return new CubedArray(node, spec, List.of(names));
    }

    /** The plan node (name, source or operation). */
    public ArrayNode node() {
        return node;
    }

    public Spec spec() {
        return spec;
    }

    /** The name in plans, e.g. {@code array-007}. */
    public String name() {
        return node.name();
    }

    /** The shape in elements (a copy). */
    public long[] shape() {
        return node.grid().shape();
    }

    public DType dtype() {
        return node.dtype();
    }

    /** The chunk grid: shape and chunk shape. */
    public ChunkGrid chunks() {
        return node.grid();
    }

    /** The shape of a full chunk in elements (a copy). */
    public int[] chunkShape() {
        return node.grid().chunkShape();
    }

    public int ndim() {
        return node.grid().ndim();
    }

    /** Number of elements. */
    public long size() {
        return node.grid().size();
    }

    /** Size in bytes. */
    public long nbytes() {
        return node.nbytes();
    }

    public long numChunks() {
        return node.grid().numChunks();
    }

    /**
     * Computes the array and returns it in memory as one {@link Chunk} of the array's shape (use {@link #toZarr} for
     * arrays larger than memory); {@code callbacks} receive the computation's events.
     */
    public Chunk compute(Callback... callbacks) {
        return compute(ComputeOptions.defaults(), callbacks);
    }

    /** As {@link #compute(Callback...)}, with per-computation options (e.g. no fusion). */
    public Chunk compute(ComputeOptions options, Callback... callbacks) {
        if (size() > Integer.MAX_VALUE - 8) {
            throw new InvalidArgumentException(name() + " of shape " + Arrays.toString(shape()) + " has more elements "
                    + "than one Java array holds; write it with toZarr instead of compute");
        }
        return Execution.compute(List.of(this), options, List.of(callbacks)).get(0);
    }

    /** Computes the array into a new Zarr array at {@code url} (a path or URI), without bringing data here. */
    public void toZarr(String url, Callback... callbacks) {
        toZarr(url, ComputeOptions.defaults(), callbacks);
    }

    /** As {@link #toZarr(String, Callback...)}, with per-computation options. */
    public void toZarr(String url, ComputeOptions options, Callback... callbacks) {
        Execution.store(
                List.of(this), List.of(io.cubed.storage.fs.Stores.requireLocation(url)), options, List.of(callbacks));
    }

    /** {@code this[key...]}, lazily; see {@link Indexing#index} and {@link Index} for the items. */
    public CubedArray get(Index... key) {
        return Indexing.index(this, key);
    }

    /** The array of the chunks {@code key} selects, by chunk index; see {@link Indexing#blocks}. */
    public CubedArray blocks(Index... key) {
        return Indexing.blocks(this, key);
    }

    /** The operations that compute this array, with tasks and projected memory per task. */
    public String explain() {
        return explain(ComputeOptions.defaults());
    }

    /** The plan {@link #compute(ComputeOptions, Callback...)} would run with {@code options}. */
    public String explain(ComputeOptions options) {
        return Execution.explain(List.of(this), options);
    }

    /**
     * The plan's figures with fusion ({@code [0]}) and without ({@code [1]}): operations, tasks, memory, bytes read,
     * written and written to intermediates.
     */
    public io.cubed.plan.PlanStatistics[] planStatistics(ComputeOptions options) {
        io.cubed.plan.Computation c = Execution.prepare(List.of(this), options);
        return new io.cubed.plan.PlanStatistics[] {c.statistics(), c.unoptimizedStatistics()};
    }

    /**
     * Writes the plan computing this array as a Graphviz graph to {@code base.dot}, and as {@code base.svg} and
     * {@code base.png} when Graphviz's {@code dot} is installed; returns the files written.
     */
    public List<java.nio.file.Path> visualize(java.nio.file.Path base) {
        return visualize(base, ComputeOptions.defaults());
    }

    /** As {@link #visualize(java.nio.file.Path)}, for the plan {@code options} give. */
    public List<java.nio.file.Path> visualize(java.nio.file.Path base, ComputeOptions options) {
        return Execution.prepare(List.of(this), options).visualize(base);
    }

    @Override
    public String toString() {
        return "CubedArray{" + name() + ", shape=" + Arrays.toString(shape()) + ", dtype=" + dtype() + ", chunks="
                + Arrays.toString(chunkShape()) + (dims == null ? "" : ", dims=" + dims) + "}";
    }
}
