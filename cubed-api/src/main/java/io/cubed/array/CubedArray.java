package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
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

    private CubedArray(ArrayNode node, Spec spec) {
        this.node = node;
        this.spec = spec;
    }

    /** The array of plan node {@code node}, computed with {@code spec}. */
    public static CubedArray of(ArrayNode node, Spec spec) {
        return new CubedArray(node, spec);
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
        Execution.store(List.of(this), List.of(url), options, List.of(callbacks));
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
                + Arrays.toString(chunkShape()) + "}";
    }
}
