package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.TileArrays;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.ChunkStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs an elementwise operation and the elementwise operations fused into it tile by tile: the chunks of the arrays the
 * fused expression reads (its leaves) are read whole, then each operation is applied to a tile of a few thousand
 * elements at a time, from the leaves up, and each finished tile is copied into the output chunk. Every temporary is
 * tile-sized and stays in the processor's cache, where computing the expression a chunk at a time made one
 * chunk-sized temporary per operation and went through main memory for each (W5's fused {@code (u - mean(u, 0))² +
 * (v - mean(v, 0))²}: four 8 MiB temporaries per pair of chunks). Where the output chunk goes to a consumer that takes
 * it box by box (a reduction's first round: {@code mean((u - mean(u, 0))², 0)}), the tiles go straight to it and the
 * output chunk is never allocated ({@link #applyInBoxes}).
 *
 * <p>Which operations join the expression: inputs computed by a fused {@link ElementwiseChunkFunction} whose chunk has
 * the output chunk's shape (an input broadcast along some axis, such as {@code mean(u, 0) * 2}, is computed whole and
 * read as a leaf), recursively. Tiles are whole along the trailing axes: they are contiguous slices of the output
 * chunk, and of every leaf that is not broadcast along the tiled axes (those are passed whole to every tile).
 *
 * <p>Memory: the expression holds all its leaves at once, where computing chunk by chunk holds the chunks along one
 * path of the expression. The tiles run only when the leaves take no more than computing the expression chunk by chunk
 * would hold (each fused operation's inputs and output, without the kernels' scratch); a wide expression (many leaves,
 * few levels) is computed chunk by chunk. The expression and the rule are {@link TileChain}'s, decided on the arrays'
 * regular chunk shapes, not on the shapes of the task's (edge) chunk, so every task of an operation decides alike; the
 * plan ({@code io.cubed.plan.TiledChains}) builds the same {@link TileChain} over its operations and projects what the
 * tiles hold: the leaves, the output chunk and each operation's {@link ElementwiseChunkFunction#tileWorkingBytes}.
 */
final class ElementwiseTiles {
    /**
     * Elements per tile ({@code -Dcubed.elementwise.tileElements}): with the few tiles an expression holds at once, a
     * tile of float64 stays within a core's level-2 cache. Measured on W5 (docs/benchmarks.md).
     */
    static final int TILE_ELEMENTS = Math.max(1, Integer.getInteger("cubed.elementwise.tileElements", 8192));

    private static final LongAdder TILED_CHUNKS = new LongAdder();
    private static final LongAdder BOXED_CHUNKS = new LongAdder();

    private ElementwiseTiles() {}

    /** Output chunks computed tile by tile in this JVM since it started (for tests and diagnostics). */
    static long tiledChunks() {
        return TILED_CHUNKS.sum();
    }

    /** Chunks handed over tile by tile ({@link #applyInBoxes}) in this JVM since it started (for tests). */
    static long boxedChunks() {
        return BOXED_CHUNKS.sum();
    }

    /** {@code f} applied to the chunks of {@code args}, with the elementwise operations fused into it. */
    static Chunk apply(ElementwiseChunkFunction f, ChunkArgs args) {
        int[] shape = outputShape(args);
        TileChain<Op> chain = shape == null ? null : chain(f, args, shape, null, null);
        if (chain == null || !chain.runsInTiles() || Chunk.elementCount(shape) == 0) {
            return f.applyElementwise(args.singleChunks());
        }
        Node root = new Node(chain, shape);
        boolean streams = root.openStreams();
        if (!chain.hasChild() && !streams) {
            // One operation on whole chunks: tiles would gain nothing.
            return f.applyElementwise(args.singleChunks());
        }
        root.readLeaves();
        Chunk out = new Tiling(shape).assemble(root);
        args.addBytesRead(root.nestedBytesRead());
        TILED_CHUNKS.increment();
        return out;
    }

    /**
     * Hands the output chunk of {@code f} on {@code args} to {@code sink} tile by tile, never holding it whole: for a
     * consumer that takes a chunk box by box (the first round of a reduction), each tile goes to it while in cache.
     * {@code shape}, {@code name} and {@code dtype} are those the caller expects of the chunk; every tile is checked
     * against them. Returns false, having read nothing, when the chunk is not computed in tiles (an input with several
     * chunks, inputs that do not broadcast to {@code shape}, a zero-dimensional or empty chunk, or leaves taking more
     * memory than computing chunk by chunk would): the caller then computes it whole.
     */
    static boolean applyInBoxes(
            ElementwiseChunkFunction f,
            ChunkArgs args,
            int[] shape,
            String name,
            DType dtype,
            ChunkStore.BoxSink sink) {
        if (shape.length == 0 || Chunk.elementCount(shape) == 0 || !Arrays.equals(outputShape(args), shape)) {
            return false;
        }
        TileChain<Op> chain = chain(f, args, shape, name, dtype);
        if (chain == null || !chain.runsInTiles()) {
            return false;
        }
        Node root = new Node(chain, shape);
        root.openStreams();
        root.readLeaves();
        new Tiling(shape).forEachTile(root, (offset, start, tile) -> sink.accept(offset, tile));
        args.addBytesRead(root.nestedBytesRead());
        BOXED_CHUNKS.increment();
        return true;
    }

    /** The broadcast shape of the single chunks {@code args} names, or null if an input has several or they clash. */
    private static int[] outputShape(ChunkArgs args) {
        int[] out = new int[0];
        for (int j = 0; j < args.size(); j++) {
            if (args.count(j) != 1) {
                return null;
            }
            // On a clash, null: the function itself reports it.
            out = io.cubed.chunk.Broadcast.shapeOrNull(out, args.input(j).grid().chunkShapeAt(args.key(j, 0)));
            if (out == null) {
                return null;
            }
        }
        return out;
    }

    /**
     * The chain of {@code f} on {@code args} with output chunk {@code shape} ({@link TileChain}, the rule the plan
     * shares), or null when the inputs' regular chunk shapes clash; {@code name} and {@code dtype} are those of a fused
     * operation (null for the root of a task), checked against what its tiles return.
     */
    private static TileChain<Op> chain(
            ElementwiseChunkFunction f, ChunkArgs args, int[] shape, String name, DType dtype) {
        return TileChain.of(new Op(f, args, name, dtype), new TaskView(shape));
    }

    /**
     * An operation of the chain as a task sees it: its function on the chunks {@code args} names; {@code name} and
     * {@code dtype} are those of a fused operation (null for the root), checked against what its tiles return.
     */
    private record Op(ElementwiseChunkFunction f, ChunkArgs args, String name, DType dtype) {}

    /**
     * The operations of a task computing an output chunk of {@code shape}: an input joins the chain when it is a fused
     * elementwise operation ({@link ComputedChunkStore}) whose chunk for this task has that shape.
     */
    private record TaskView(int[] shape) implements TileChain.View<Op> {
        @Override
        public int inputs(Op op) {
            return op.args().size();
        }

        @Override
        public int[] inputChunkShape(Op op, int j) {
            return op.args().input(j).grid().chunkShape();
        }

        @Override
        public DType inputDType(Op op, int j) {
            return op.args().input(j).dtype();
        }

        @Override
        public boolean readsOneChunkEach(Op op) {
            for (int j = 0; j < op.args().size(); j++) {
                if (op.args().count(j) != 1) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public Op fusedElementwise(Op op, int j) {
            long[] key = op.args().key(j, 0);
            if (op.args().input(j) instanceof ComputedChunkStore c
                    && c.function() instanceof ElementwiseChunkFunction cf
                    && c.outputIndex() == 0
                    && Arrays.equals(c.grid().chunkShapeAt(key), shape)) {
                long[][][] keys = c.keyFunction().inputKeys(key);
                if (keys.length == c.inputs().length) {
                    return new Op(cf, new ChunkArgs(c.inputs(), keys), c.name(), c.dtype());
                }
            }
            return null;
        }
    }

    /** One operation of the expression: its inputs are child operations or leaves (chunks read whole). */
    private static final class Node {
        final ElementwiseChunkFunction f;
        final ChunkArgs args;
        final int[] shape;
        final String name;
        final DType dtype;
        final Node[] children;
        final int[][] leafShapes;
        final Leaf[] leaves;

        /** The node of {@code chain} for an output chunk of {@code shape}, with its children's. */
        Node(TileChain<Op> chain, int[] shape) {
            Op op = chain.op();
            this.f = op.f();
            this.args = op.args();
            this.shape = shape;
            this.name = op.name();
            this.dtype = op.dtype();
            this.children = new Node[args.size()];
            this.leafShapes = new int[args.size()][];
            this.leaves = new Leaf[args.size()];
            for (int j = 0; j < children.length; j++) {
                if (chain.child(j) != null) {
                    children[j] = new Node(chain.child(j), shape);
                } else {
                    leafShapes[j] = args.input(j).grid().chunkShapeAt(args.key(j, 0));
                }
            }
        }

        /**
         * Opens a stream ({@link ChunkArgs#stream}) for each leaf of the output chunk's shape whose store decodes it
         * block by block (its tiles are then taken from the stream in order, and the chunk is never held whole, if
         * its blocks and the leaf's tile buffer take no more than the chunk would); true when any leaf of the
         * expression streams.
         */
        boolean openStreams() {
            boolean any = false;
            for (int j = 0; j < children.length; j++) {
                if (children[j] != null) {
                    any |= children[j].openStreams();
                } else if (shape.length > 0 && Arrays.equals(leafShapes[j], shape)) {
                    // The stream's decoded blocks and the leaf's tile buffer take the place of the decoded chunk.
                    DType t = args.input(j).dtype();
                    long chunkBytes = (long) Chunk.elementCount(shape) * t.itemSizeBytes();
                    long tileBytes = (long) Math.min(TILE_ELEMENTS, Chunk.elementCount(shape)) * t.itemSizeBytes();
                    ChunkStore.ChunkStream stream = args.stream(j, 0, chunkBytes - tileBytes);
                    if (stream != null) {
                        leaves[j] = new Leaf(null, stream, args.input(j).dtype());
                        any = true;
                    }
                }
            }
            return any;
        }

        /** Reads the leaves that do not stream, whole. */
        void readLeaves() {
            for (int j = 0; j < children.length; j++) {
                if (children[j] != null) {
                    children[j].readLeaves();
                } else if (leaves[j] == null) {
                    Chunk c = args.chunk(j);
                    leaves[j] = new Leaf(c, null, c.dtype());
                }
            }
        }

        /** Bytes the fused operations below this node read (this node's own reads are counted in its args). */
        long nestedBytesRead() {
            long total = 0;
            for (Node c : children) {
                if (c != null) {
                    total += c.args.bytesRead() + c.nestedBytesRead();
                }
            }
            return total;
        }

        String describe() {
            return name == null ? "elementwise operation" : name + " (fused)";
        }
    }

    /**
     * A leaf: its chunk read whole, or the stream its tiles are taken from in order; and the buffer its tiles are
     * copied into, reused from tile to tile.
     */
    private static final class Leaf {
        final Chunk chunk;
        final ChunkStore.ChunkStream stream;
        final DType dtype;
        Object buffer;
        /** Elements taken from the stream so far. */
        long streamed;

        Leaf(Chunk chunk, ChunkStore.ChunkStream stream, DType dtype) {
            this.chunk = chunk;
            this.stream = stream;
            this.dtype = dtype;
        }
    }

    /**
     * The tiles of an output chunk of shape {@code shape}: axis {@code k} is the first whose trailing axes hold at most
     * {@link #TILE_ELEMENTS} elements; a tile is one index on each axis before {@code k}, {@code rows} indices on
     * {@code k} (fewer at its end) and the whole of every axis after it, so it is contiguous in C order.
     */
    private static final class Tiling {
        final int[] shape;
        final int k;
        final int inner;
        final int rows;
        final int[] index;
        /** The current tile's indices on axis {@code k}, from {@code index[k]}. */
        int count;
        /** The current tile's shape. */
        int[] tileShape;

        Tiling(int[] shape) {
            this.shape = shape;
            int nd = shape.length;
            int axis = nd == 0 ? 0 : nd - 1;
            long trailing = 1;
            for (int a = nd - 1; a > 0; a--) {
                long next = trailing * shape[a];
                if (next > TILE_ELEMENTS) {
                    break;
                }
                trailing = next;
                axis = a - 1;
            }
            this.k = axis;
            this.inner = (int) trailing;
            this.rows = nd == 0 ? 1 : (int) Math.max(1, TILE_ELEMENTS / trailing);
            this.index = new int[nd];
        }

        /** Takes each tile of an output chunk: its offset in the chunk, its first element's index in C order. */
        interface TileSink {
            void accept(int[] offset, int start, Chunk tile);
        }

        /**
         * The output chunk of {@code root}, its tiles copied into it. The tiles cover it exactly once, so it may be an
         * array an earlier chunk of the task's operation used ({@link Chunk#allocateForTaskToOverwrite}): a chunk per
         * chunk written was most of what an elementwise task allocated.
         */
        Chunk assemble(Node root) {
            if (shape.length == 0 || Chunk.elementCount(shape) == 0) {
                return evaluate(root, shape);
            }
            Chunk[] out = new Chunk[1];
            forEachTile(root, (offset, start, t) -> {
                if (out[0] == null) {
                    out[0] = Chunk.allocateForTaskToOverwrite(t.dtype(), shape);
                } else if (t.dtype() != out[0].dtype()) {
                    throw new InvalidArgumentException(
                            root.describe() + " returned a " + t.dtype() + " tile after a " + out[0].dtype() + " one");
                }
                int slots = t.dtype().slotsPerElement();
                System.arraycopy(t.data(), 0, out[0].data(), start * slots, t.size() * slots);
            });
            return out[0];
        }

        /**
         * Evaluates {@code root} tile by tile, in C order, handing each tile to {@code sink}, whose arrays are reused
         * for the next tile once it returns. The chunk has at least one dimension and one element.
         */
        void forEachTile(Node root, TileSink sink) {
            int total = Chunk.elementCount(shape);
            int outer = total / (inner * shape[k]);
            List<int[]> shapes = new ArrayList<>(2);
            try (TileArrays.Scope scope = TileArrays.open()) {
                for (int o = 0; o < outer; o++) {
                    int rest = o;
                    for (int a = k - 1; a >= 0; a--) {
                        index[a] = rest % shape[a];
                        rest /= shape[a];
                    }
                    for (int r0 = 0; r0 < shape[k]; r0 += rows) {
                        int r = Math.min(rows, shape[k] - r0);
                        index[k] = r0;
                        count = r;
                        tileShape = tileShape(shapes, r);
                        Chunk t = evaluate(root, tileShape);
                        sink.accept(index.clone(), (o * shape[k] + r0) * inner, t);
                        scope.nextTile();
                    }
                }
            }
        }

        /** The shape of a tile of {@code r} indices on axis {@code k}; the two sizes that occur are kept. */
        private int[] tileShape(List<int[]> shapes, int r) {
            for (int[] s : shapes) {
                if (s[k] == r) {
                    return s;
                }
            }
            int[] s = shape.clone();
            for (int a = 0; a < k; a++) {
                s[a] = 1;
            }
            s[k] = r;
            shapes.add(s);
            return s;
        }

        /** {@code node} on the current tile, of shape {@code tileShape}; checks fused operations' results. */
        private Chunk evaluate(Node node, int[] tileShape) {
            Chunk[] blocks = new Chunk[node.children.length];
            for (int j = 0; j < blocks.length; j++) {
                blocks[j] = node.children[j] != null ? evaluate(node.children[j], tileShape) : slice(node.leaves[j]);
            }
            Chunk r = node.f.applyElementwise(blocks);
            if (r == null || !Arrays.equals(r.shape(), tileShape) || (node.dtype != null && r.dtype() != node.dtype)) {
                throw new InvalidArgumentException(node.describe() + " returned "
                        + (r == null ? "no chunk" : r.dtype() + " " + Arrays.toString(r.shape()))
                        + " for a tile of shape " + Arrays.toString(tileShape) + ", expected "
                        + (node.dtype == null ? "" : "a " + node.dtype + " ") + "chunk of that shape");
            }
            return r;
        }

        /**
         * The part of {@code leaf} that lines up with the current tile: the leaf itself when it is broadcast along
         * every axis up to {@code k}, else a copy of its contiguous slice.
         */
        private Chunk slice(Leaf leaf) {
            if (leaf.stream != null) {
                return next(leaf);
            }
            Chunk c = leaf.chunk;
            int[] s = c.shape();
            int nd = shape.length;
            int pad = nd - s.length;
            if (nd == 0 || Chunk.elementCount(shape) == 0) {
                return c;
            }
            int[] strides = Chunk.strides(s);
            int offset = 0;
            boolean broadcast = true;
            int[] ts = s.clone();
            for (int a = Math.max(0, pad); a <= k; a++) {
                int i = a - pad;
                if (s[i] == 1) {
                    continue;
                }
                broadcast = false;
                offset += index[a] * strides[i];
                ts[i] = a == k ? count : 1;
            }
            if (broadcast) {
                return c;
            }
            int n = Chunk.elementCount(ts);
            int slots = c.dtype().slotsPerElement();
            Object buffer = leaf.buffer;
            if (buffer == null || java.lang.reflect.Array.getLength(buffer) != n * slots) {
                buffer = c.dtype().newArray(n);
                if (count == rows) {
                    leaf.buffer = buffer; // the full-size tile; the last one along k may be shorter
                }
            }
            System.arraycopy(c.data(), offset * slots, buffer, 0, n * slots);
            return Chunk.wrap(c.dtype(), ts, buffer);
        }

        /**
         * The current tile of a leaf of the output chunk's shape that streams: the stream's next elements, as tiles
         * are contiguous and come in C order.
         */
        private Chunk next(Leaf leaf) {
            int[] ts = tileShape;
            int n = Chunk.elementCount(ts);
            long offset = 0;
            for (int a = 0; a <= k; a++) {
                offset = offset * shape[a] + index[a];
            }
            offset *= inner;
            if (offset != leaf.streamed) {
                throw new IllegalStateException(
                        "tile at element " + offset + " asked of a stream at element " + leaf.streamed);
            }
            Object buffer = leaf.buffer;
            if (buffer == null || java.lang.reflect.Array.getLength(buffer) != n * leaf.dtype.slotsPerElement()) {
                buffer = leaf.dtype.newArray(n);
                if (count == rows) {
                    leaf.buffer = buffer; // the full-size tile; the last one along k may be shorter
                }
            }
            leaf.stream.next(buffer, 0, n);
            leaf.streamed += n;
            return Chunk.wrap(leaf.dtype, ts, buffer);
        }
    }
}
