package io.cubed.primitive;

import io.cubed.chunk.Broadcast;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import java.util.Arrays;

/**
 * The shape of a fused elementwise chain as its tiles would evaluate it, and the one rule that says whether they do.
 * The tasks build it over the chunk stores they read ({@link ElementwiseTiles}) and the plan over its operations
 * ({@code io.cubed.plan.TiledChains}), each through its own {@link View} of an operation; which inputs join the chain
 * and whether the chain runs tile by tile are decided here only, so the plan cannot project one way while the tasks run
 * another.
 *
 * <p>An input of an operation is a child (an operation of the chain) when the view names a fused elementwise operation
 * computing it ({@link View#fusedElementwise}) and its array has the chain's regular chunk shape (the broadcast of the
 * root's inputs' regular chunk shapes); every other input is a leaf, a chunk read whole. The chain runs tile by tile
 * when its leaves take no more bytes than computing it chunk by chunk holds: each operation's input chunks, plus the
 * most that computing one child holds besides its output. Every figure is taken on the arrays' regular chunk shapes,
 * not on a task's (edge) chunk, so every task of an operation decides alike, and as the plan does.
 *
 * @param <T> how the view names an operation
 */
public final class TileChain<T> {
    /** What the chain needs to know of an operation. */
    public interface View<T> {
        /** The number of inputs of {@code op}. */
        int inputs(T op);

        /** The regular chunk shape of the array input {@code j} of {@code op} reads. */
        int[] inputChunkShape(T op, int j);

        /** The data type of the array input {@code j} of {@code op} reads. */
        DType inputDType(T op, int j);

        /** Whether a task of {@code op} reads one chunk of each of its inputs, as an elementwise task does. */
        boolean readsOneChunkEach(T op);

        /**
         * The operation that computes input {@code j} of {@code op} inside the task, when it is an elementwise one with
         * a single output that can be evaluated on the same tiles as {@code op}; else null. Whether it joins the chain
         * is decided by its chunk shape and whether it reads one chunk of each input, here.
         */
        T fusedElementwise(T op, int j);
    }

    private final T op;
    private final TileChain<T>[] children;
    /** Bytes of a regular chunk of each input's array. */
    private final long[] inputBytes;

    private final long leafBytes;
    private final long chunkwiseBytes;

    private TileChain(T op, TileChain<T>[] children, long[] inputBytes) {
        this.op = op;
        this.children = children;
        this.inputBytes = inputBytes;
        long leaves = 0;
        long inputs = 0;
        long peak = 0;
        for (int j = 0; j < children.length; j++) {
            inputs = Math.addExact(inputs, inputBytes[j]);
            if (children[j] != null) {
                leaves = Math.addExact(leaves, children[j].leafBytes);
                peak = Math.max(peak, children[j].chunkwiseBytes);
            } else {
                leaves = Math.addExact(leaves, inputBytes[j]);
            }
        }
        this.leafBytes = leaves;
        this.chunkwiseBytes = Math.addExact(inputs, peak);
    }

    /**
     * The chain ending in {@code root}, or null when a task of {@code root} would not evaluate one: it reads several
     * chunks of an input, or its inputs' regular chunk shapes do not broadcast together.
     */
    public static <T> TileChain<T> of(T root, View<T> view) {
        if (!view.readsOneChunkEach(root)) {
            return null;
        }
        int[] regular = new int[0];
        for (int j = 0; j < view.inputs(root) && regular != null; j++) {
            regular = Broadcast.shapeOrNull(regular, view.inputChunkShape(root, j));
        }
        return regular == null ? null : build(root, view, regular);
    }

    private static <T> TileChain<T> build(T op, View<T> view, int[] regular) {
        int n = view.inputs(op);
        @SuppressWarnings("unchecked")
        TileChain<T>[] children = new TileChain[n];
        long[] bytes = new long[n];
        for (int j = 0; j < n; j++) {
            int[] chunk = view.inputChunkShape(op, j);
            bytes[j] = Math.multiplyExact(
                    (long) Chunk.elementCount(chunk), view.inputDType(op, j).itemSizeBytes());
            T p = Arrays.equals(chunk, regular) ? view.fusedElementwise(op, j) : null;
            if (p != null && view.readsOneChunkEach(p)) {
                children[j] = build(p, view, regular);
            }
        }
        return new TileChain<>(op, children, bytes);
    }

    /** Whether the chain runs tile by tile: its leaves take no more than computing it chunk by chunk holds. */
    public boolean runsInTiles() {
        return leafBytes <= chunkwiseBytes;
    }

    /** The operation at this point of the chain. */
    public T op() {
        return op;
    }

    /** The number of inputs of {@link #op()}. */
    public int inputs() {
        return children.length;
    }

    /** The operation of the chain that computes input {@code j}, or null when that input is a leaf. */
    public TileChain<T> child(int j) {
        return children[j];
    }

    /** Whether any input of {@link #op()} is an operation of the chain. */
    public boolean hasChild() {
        for (TileChain<T> c : children) {
            if (c != null) {
                return true;
            }
        }
        return false;
    }

    /** Bytes of every leaf chunk below this point, on regular chunks. */
    public long leafBytes() {
        return leafBytes;
    }

    /**
     * What computing this point of the chain chunk by chunk holds, on regular chunks, without its own output and
     * without kernel scratch: its input chunks, plus the most that computing one child holds besides its output.
     */
    public long chunkwiseBytes() {
        return chunkwiseBytes;
    }

    /** Bytes of a regular chunk of the array input {@code j} reads (for a child, its output). */
    public long inputBytes(int j) {
        return inputBytes[j];
    }
}
