package io.cubed.plan;

import io.cubed.dtype.DType;
import io.cubed.memory.BufferCopies;
import io.cubed.primitive.ElementwiseChunkFunction;
import io.cubed.primitive.TileChain;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The projected memory of a task whose fused elementwise chain runs tile by tile ({@code
 * io.cubed.primitive.ElementwiseTiles}, docs/fusion.md), in bytes. Such a task reads the chunks the chain starts from
 * (its leaves) and evaluates every operation on tiles of a few thousand elements, so it holds the leaves, the tiles'
 * working arrays and the output chunk, where a chain computed chunk by chunk holds each operation's inputs and output
 * ({@link Fusion}'s figure). The chain, and whether the tiles run, are the tasks' own ({@link TileChain}, built here
 * over the plan's operations): an input of an elementwise operation is a child when an elementwise operation fused
 * into it computes it with the chain's regular chunk shape, else a leaf (a stored or virtual array, or a fused
 * operation of another kind); the tiles run when the leaves take no more bytes than computing the chain chunk by chunk
 * holds. The plan projects a chain as its tiles hold it only when it also knows every operation's tile figure.
 */
final class TiledChains {
    private TiledChains() {}

    /**
     * The projection of a task of the elementwise operation {@code c} with {@code fusedPreds} fused into it, when its
     * chain runs tile by tile: {@code reserved + Σ leaf chunk·(1 + read copies) + Σ leaf tile buffers + Σ operations'
     * tile working bytes + the peak of computing one fused leaf of another kind + output chunk·(1 + write copies)};
     * −1 when the task computes chunk by chunk (no elementwise operation fused into it, leaves taking more than that,
     * or an operation whose tile memory is not known).
     */
    static long elementwiseRoot(
            OpNode c,
            Collection<OpNode> fusedPreds,
            Function<OpNode, List<OpNode>> predecessors,
            Map<OpNode, Long> projected,
            long reserved,
            Function<ArrayNode, BufferCopies> copiesOf) {
        if (!(c.function() instanceof ElementwiseChunkFunction) || c.outputs().size() != 1 || fusedPreds.isEmpty()) {
            return -1;
        }
        ArrayNode out = c.outputs().get(0);
        Tree t = tree(c, fusedPreds, predecessors);
        if (t == null || !t.chain.hasChild() || !t.runsInTiles() || out.grid().numChunks() == 0) {
            return -1;
        }
        long total = reserved + t.held(copiesOf) + t.fusedLeafPeak(projected, reserved, copiesOf);
        return Math.addExact(total, out.chunkBytes() * (1 + copiesOf.apply(out).write()));
    }

    /**
     * What a task of {@code c} holds for the chunks of its input 0, computed by the fused elementwise operation {@code
     * p}, when {@code c} takes them box by box ({@link io.cubed.primitive.ChunkFunction#readsInBoxes}) and {@code p}'s
     * chain hands over its tiles: the leaves, their tile buffers, the operations' tile working bytes and the peak of a
     * fused leaf of another kind, with no output chunk of {@code p}; −1 when the chain is not computed in tiles.
     */
    static long boxedInput(
            OpNode p,
            Function<OpNode, List<OpNode>> predecessors,
            Map<OpNode, Long> projected,
            long reserved,
            Function<ArrayNode, BufferCopies> copiesOf) {
        if (!(p.function() instanceof ElementwiseChunkFunction)
                || p.outputs().size() != 1
                || p.outputs().get(0).grid().ndim() == 0) {
            return -1;
        }
        Tree t = tree(p, predecessors.apply(p), predecessors);
        if (t == null || !t.runsInTiles()) {
            return -1;
        }
        return t.held(copiesOf) + t.fusedLeafPeak(projected, reserved, copiesOf);
    }

    /** The bytes of the leaf chunks of the chain ending in {@code p}, as {@link #boxedInput} reads them. */
    static long boxedLeafBytes(OpNode p, Function<OpNode, List<OpNode>> predecessors) {
        return tree(p, predecessors.apply(p), predecessors).chain.leafBytes();
    }

    /**
     * The chain its tasks evaluate for {@code op} with {@code inside} fused into it (and their own fused predecessors
     * below them), or null when they evaluate none.
     */
    static TileChain<OpNode> chain(OpNode op, Collection<OpNode> inside, Function<OpNode, List<OpNode>> predecessors) {
        Tree t = tree(op, inside, predecessors);
        return t == null ? null : t.chain;
    }

    /**
     * The tree of {@code op} with {@code inside} fused into it ({@link TileChain}, the rule the tasks share), or null
     * when its tasks would not build one.
     */
    private static Tree tree(OpNode op, Collection<OpNode> inside, Function<OpNode, List<OpNode>> predecessors) {
        PlanView view = new PlanView(op, inside, predecessors);
        TileChain<OpNode> chain = TileChain.of(op, view);
        return chain == null ? null : new Tree(chain, view);
    }

    /**
     * The operations of the plan as the chain sees them: an input joins the chain when an elementwise operation with one
     * output computes it inside the task ({@code inside} for the root, an operation's own fused predecessors below it).
     */
    private record PlanView(OpNode root, Collection<OpNode> inside, Function<OpNode, List<OpNode>> predecessors)
            implements TileChain.View<OpNode> {
        @Override
        public int inputs(OpNode op) {
            return op.inputs().size();
        }

        @Override
        public int[] inputChunkShape(OpNode op, int j) {
            return op.inputs().get(j).grid().chunkShape();
        }

        @Override
        public DType inputDType(OpNode op, int j) {
            return op.inputs().get(j).dtype();
        }

        /** Whether the first task of {@code op} reads one chunk of each input, as an elementwise task does. */
        @Override
        public boolean readsOneChunkEach(OpNode op) {
            ArrayNode out = op.outputs().get(0);
            if (out.grid().numChunks() == 0) {
                return true;
            }
            long[][][] keys = op.keyFunction().inputKeys(out.grid().chunkCoordsOf(0));
            if (keys.length != op.inputs().size()) {
                return false;
            }
            for (long[][] k : keys) {
                if (k.length != 1) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public OpNode fusedElementwise(OpNode op, int j) {
            OpNode p = op.inputs().get(j).op();
            boolean fused = p != null && (op == root ? inside : predecessors.apply(op)).contains(p);
            return fused
                            && p.function() instanceof ElementwiseChunkFunction
                            && p.outputs().size() == 1
                    ? p
                    : null;
        }

        /** Whether a fused operation of any kind computes input {@code j} of {@code op} inside the task. */
        boolean fused(OpNode op, int j) {
            OpNode p = op.inputs().get(j).op();
            return p != null && (op == root ? inside : predecessors.apply(op)).contains(p);
        }
    }

    /** One operation of the chain: its inputs are child operations or leaves. */
    private static final class Tree {
        final OpNode op;
        final Tree[] children;
        /** For a leaf input: whether a fused operation of another kind computes it inside the task. */
        final boolean[] fusedLeaf;

        final TileChain<OpNode> chain;

        Tree(TileChain<OpNode> chain, PlanView view) {
            this.chain = chain;
            this.op = chain.op();
            this.children = new Tree[chain.inputs()];
            this.fusedLeaf = new boolean[chain.inputs()];
            for (int j = 0; j < children.length; j++) {
                if (chain.child(j) != null) {
                    children[j] = new Tree(chain.child(j), view);
                } else {
                    fusedLeaf[j] = view.fused(op, j);
                }
            }
        }

        /**
         * Whether the plan projects the chain as its tiles hold it: when its tasks run it tile by tile ({@link
         * TileChain#runsInTiles}, their rule) and every operation's tile figure is known; a chain with an operation
         * whose tile figure is not known keeps the chunk-by-chunk figure.
         */
        boolean runsInTiles() {
            return chain.runsInTiles() && tileFiguresKnown();
        }

        private boolean tileFiguresKnown() {
            if (((ElementwiseChunkFunction) op.function()).tileWorkingBytes() < 0) {
                return false;
            }
            for (Tree c : children) {
                if (c != null && !c.tileFiguresKnown()) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Held at once while the tiles run: every leaf chunk with its read copies (a fused leaf's chunk has none), a
         * tile buffer per leaf (for both tile lengths when the output chunk has several tiles), and every operation's
         * tile working bytes.
         */
        long held(Function<ArrayNode, BufferCopies> copiesOf) {
            long total = ((ElementwiseChunkFunction) op.function()).tileWorkingBytes();
            long outElements = op.outputs().get(0).grid().chunkSize();
            for (int j = 0; j < children.length; j++) {
                if (children[j] != null) {
                    total = Math.addExact(total, children[j].held(copiesOf));
                    continue;
                }
                ArrayNode a = op.inputs().get(j);
                long copies = fusedLeaf[j] ? 0 : copiesOf.apply(a).read();
                int tileElements = ElementwiseChunkFunction.tileElements();
                long tile = Math.min(a.grid().chunkSize(), tileElements);
                long lengths = outElements > tileElements ? 2 : 1;
                total = Math.addExact(total, a.chunkBytes() * (1 + copies));
                total = Math.addExact(total, lengths * tile * a.dtype().itemSizeBytes());
            }
            return total;
        }

        /**
         * The most that computing one fused leaf of another kind holds besides its output chunk (its own projection
         * without the reserve and its output's chunk and write copies): the leaves are read one after another before
         * the tiles start.
         */
        long fusedLeafPeak(Map<OpNode, Long> projected, long reserved, Function<ArrayNode, BufferCopies> copiesOf) {
            long peak = 0;
            for (int j = 0; j < children.length; j++) {
                if (children[j] != null) {
                    peak = Math.max(peak, children[j].fusedLeafPeak(projected, reserved, copiesOf));
                } else if (fusedLeaf[j]) {
                    OpNode p = op.inputs().get(j).op();
                    long own = projected.get(p) - reserved;
                    for (ArrayNode o : p.outputs()) {
                        own -= o.chunkBytes() * (1 + copiesOf.apply(o).write());
                    }
                    peak = Math.max(peak, own);
                }
            }
            return peak;
        }
    }
}
