package io.cubed.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.array.ReductionOptions;
import io.cubed.array.Statistical;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.memory.BufferCopies;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.ComputedChunkStore;
import io.cubed.primitive.ElementwiseChunkFunction;
import io.cubed.primitive.TileChain;
import io.cubed.primitive.TileCounts;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.VirtualArray;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan and the tasks decide alike whether a fused elementwise chain runs tile by tile. For random expressions
 * (data types changed by {@code astype}, leaves broadcast along some axes, reductions broadcast back as leaves, chunk
 * shapes with edge chunks, chains of one to seven operations, a subexpression read twice and so stored, and the chain
 * reduced once or by two sibling reductions), the plan is prepared, and every task of every operation that runs is
 * evaluated the way the executor evaluates it (over the chunk stores its fused operations compute,
 * {@link ComputedChunkStore}): the chunks the tasks computed tile by tile and handed over box by box ({@code
 * ElementwiseTiles}' counts) must be those the plan's figures were taken for ({@link TiledChains#elementwiseRoot},
 * {@link TiledChains#boxedInput}, and which operations the plan's chains inline).
 */
class TiledChainAgreementProperties {
    private static final DType[] TYPES = {
        DType.FLOAT64, DType.FLOAT32, DType.INT8, DType.INT16, DType.INT32, DType.INT64, DType.UINT8
    };

    @TempDir
    Path tmp;

    /** How often each outcome occurred over all tasks checked, so the test shows it exercised each. */
    private final Map<String, Long> seen = new HashMap<>();

    @Test
    void planAndTasksDecideAlikeForRandomChains() {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem("1GB")
                .reservedMem(0)
                .build();
        Random r = new Random(20261130L);
        for (int n = 0; n < 400; n++) {
            long seed = r.nextLong();
            List<CubedArray> targets = expression(new Random(seed), spec);
            Computation c = Computation.prepare(
                    spec, targets.stream().map(CubedArray::node).toList(), Map.of(), FusionOptions.defaults());
            check(c, "case " + n + " (seed " + seed + ")");
        }
        System.out.println("TiledChainAgreementProperties: " + seen);
        // Every outcome occurred, many times over: chains that run by tiles and chains that do not, both as a task's
        // operation and as a fused input; chains handed to a reduction box by box.
        assertThat(seen.getOrDefault("root tiles", 0L)).isGreaterThan(200);
        assertThat(seen.getOrDefault("root chunks", 0L)).isGreaterThan(200);
        assertThat(seen.getOrDefault("chain by chunks", 0L)).isGreaterThan(50);
        assertThat(seen.getOrDefault("boxes", 0L)).isGreaterThan(100);
        assertThat(seen.getOrDefault("input tiles", 0L)).isGreaterThan(20);
    }

    /** A random expression over in-memory arrays: the arrays to compute. */
    private static List<CubedArray> expression(Random r, Spec spec) {
        int nd = 1 + r.nextInt(3);
        long[] shape = new long[nd];
        int[] chunks = new int[nd];
        for (int a = 0; a < nd; a++) {
            shape[a] = 1 + r.nextInt(a == nd - 1 ? 30 : 12);
            chunks[a] = 1 + r.nextInt((int) shape[a]);
        }
        List<CubedArray> made = new ArrayList<>();
        CubedArray e = r.nextBoolean() ? chain(r, spec, shape, chunks, made) : tree(r, spec, shape, chunks, made, 3);
        return switch (r.nextInt(4)) {
            case 0 -> List.of(e);
            case 1 -> List.of(Statistical.sum(e, ReductionOptions.axis(0)));
            case 2 -> List.of(Statistical.mean(Elementwise.astype(e, DType.FLOAT64)));
            default -> List.of(
                    Statistical.sum(e, ReductionOptions.axis(e.ndim() - 1)),
                    Statistical.max(e, ReductionOptions.axis(0)));
        };
    }

    /** A chain of one to seven operations, each on the one before and, for a binary one, on another leaf. */
    private static CubedArray chain(Random r, Spec spec, long[] shape, int[] chunks, List<CubedArray> made) {
        CubedArray e = leaf(r, spec, shape, chunks, made);
        int ops = 1 + r.nextInt(7);
        for (int k = 0; k < ops; k++) {
            e = r.nextInt(2) == 0 ? unary(r, e) : binary(r, e, operand(r, spec, shape, chunks, made));
            made.add(e);
        }
        return e;
    }

    /**
     * An expression up to {@code depth} operations deep whose binary operations take two subexpressions: trees with
     * many leaves for their depth, which the rule sends chunk by chunk.
     */
    private static CubedArray tree(Random r, Spec spec, long[] shape, int[] chunks, List<CubedArray> made, int depth) {
        if (depth == 0) {
            return operand(r, spec, shape, chunks, made);
        }
        CubedArray e = r.nextInt(4) == 0
                ? unary(r, tree(r, spec, shape, chunks, made, depth - 1))
                : binary(
                        r,
                        tree(r, spec, shape, chunks, made, depth - 1),
                        tree(r, spec, shape, chunks, made, r.nextInt(depth)));
        made.add(e);
        return e;
    }

    /** A new leaf or, now and then, an array made before (which then has two readers and is stored). */
    private static CubedArray operand(Random r, Spec spec, long[] shape, int[] chunks, List<CubedArray> made) {
        return !made.isEmpty() && r.nextInt(8) == 0
                ? made.get(r.nextInt(made.size()))
                : leaf(r, spec, shape, chunks, made);
    }

    private static CubedArray unary(Random r, CubedArray e) {
        return switch (r.nextInt(3)) {
            case 0 -> Elementwise.negative(e);
            case 1 -> Elementwise.abs(e);
            default -> Elementwise.astype(e, TYPES[r.nextInt(TYPES.length)]);
        };
    }

    private static CubedArray binary(Random r, CubedArray a, CubedArray b) {
        if (b.dtype().kind() != a.dtype().kind()) {
            b = Elementwise.astype(b, a.dtype()); // the standard promotes within a kind only
        }
        if (r.nextBoolean()) {
            CubedArray t = a;
            a = b;
            b = t;
        }
        return switch (r.nextInt(3)) {
            case 0 -> Elementwise.add(a, b);
            case 1 -> Elementwise.subtract(a, b);
            default -> Elementwise.multiply(a, b);
        };
    }

    /**
     * An in-memory array of a random type with {@code shape}, or broadcast from it (length 1 on some axes, or fewer
     * leading axes), or the mean (of an integer array, the sum) of one along an axis kept as length 1.
     */
    private static CubedArray leaf(Random r, Spec spec, long[] shape, int[] chunks, List<CubedArray> made) {
        int nd = shape.length;
        int kind = r.nextInt(5);
        if (kind == 0 && nd > 1) {
            int drop = 1 + r.nextInt(nd - 1);
            return inMemory(r, spec, Arrays.copyOfRange(shape, drop, nd), Arrays.copyOfRange(chunks, drop, nd));
        }
        if (kind == 1) {
            long[] s = shape.clone();
            int[] c = chunks.clone();
            int a = r.nextInt(nd);
            s[a] = 1;
            c[a] = 1;
            return inMemory(r, spec, s, c);
        }
        if (kind == 2) {
            CubedArray x = inMemory(r, spec, shape, chunks);
            ReductionOptions along = ReductionOptions.axis(r.nextInt(nd)).keepdims(true);
            CubedArray m = x.dtype().isFloating() ? Statistical.mean(x, along) : Statistical.sum(x, along);
            made.add(m);
            return m;
        }
        return inMemory(r, spec, shape, chunks);
    }

    private static CubedArray inMemory(Random r, Spec spec, long[] shape, int[] chunks) {
        int[] s = Arrays.stream(shape).mapToInt(v -> (int) v).toArray();
        double[] d = new double[Chunk.elementCount(s)];
        for (int i = 0; i < d.length; i++) {
            d[i] = r.nextInt(9) + 1;
        }
        DType t = TYPES[r.nextInt(TYPES.length)];
        return Cubed.asarray(io.cubed.chunk.Elementwise.astype(Chunk.wrap(DType.FLOAT64, s, d), t), spec, chunks);
    }

    /** Evaluates every task of every operation {@code c} runs and compares its counts with the plan's. */
    private void check(Computation c, String what) {
        Fusion fusion = c.fusion();
        Map<ArrayNode, ChunkStore> stores = new HashMap<>();
        for (OpNode op : c.plan().ops()) {
            if (fusion.isFused(op)) {
                continue;
            }
            ArrayNode out = op.outputs().get(0);
            ChunkStore store = store(out, fusion, stores);
            for (long t = 0; t < out.grid().numChunks(); t++) {
                long[] coords = out.grid().chunkCoordsOf(t);
                long[] expected = new long[2];
                compute(op, coords, fusion, expected);
                long tiled = TileCounts.tiled();
                long boxed = TileCounts.boxed();
                store.readChunk(coords);
                String actual =
                        "in tiles " + (TileCounts.tiled() - tiled) + ", in boxes " + (TileCounts.boxed() - boxed);
                assertThat(actual)
                        .as(
                                "%s: chunks the task of %s %s at %s computed (tasks) against the plan's\n%s",
                                what, op.id(), op.name(), Arrays.toString(coords), c.explain())
                        .isEqualTo("in tiles " + expected[0] + ", in boxes " + expected[1]);
            }
        }
    }

    /**
     * The store a task reads {@code a} from, as the executor builds it: an in-memory array; for an array an operation
     * fused into the reader computes, a {@link ComputedChunkStore}; for a stored array (its values do not matter here),
     * zeros of its grid and type, which like any store of whole chunks is read whole. For an array the plan runs, the
     * store its own task computes.
     */
    private static ChunkStore store(ArrayNode a, Fusion fusion, Map<ArrayNode, ChunkStore> stored) {
        if (a.source() != null) {
            return a.source();
        }
        OpNode p = a.op();
        ChunkStore[] in = new ChunkStore[p.inputs().size()];
        for (int j = 0; j < in.length; j++) {
            ArrayNode x = p.inputs().get(j);
            in[j] = x.source() != null || fusion.isFused(x.op())
                    ? store(x, fusion, stored)
                    : stored.computeIfAbsent(x, TiledChainAgreementProperties::zeros);
        }
        return new ComputedChunkStore(
                p.id() + " " + p.name(), in, p.keyFunction(), p.function(), a.outputIndex(), a.dtype(), a.grid());
    }

    private static ChunkStore zeros(ArrayNode a) {
        int[] s = Arrays.stream(a.grid().shape()).mapToInt(v -> (int) v).toArray();
        return VirtualArray.inMemory(Chunk.allocate(a.dtype(), s), a.grid());
    }

    /** What the plan says computing the chunk of {@code op} at {@code coords} counts: {tiled, boxed}. */
    private void compute(OpNode op, long[] coords, Fusion fusion, long[] counts) {
        Function<OpNode, List<OpNode>> preds = fusion::predecessors;
        Function<ArrayNode, BufferCopies> none = a -> new BufferCopies(0, 0);
        long[][][] keys = op.keyFunction().inputKeys(coords);
        ChunkFunction f = op.function();
        if (f instanceof ElementwiseChunkFunction) {
            boolean tiles = TiledChains.elementwiseRoot(op, preds.apply(op), preds, fusion.projected(), 0, none) >= 0;
            if (tiles) {
                counts[0]++;
                count(fusion.isFused(op) ? "input tiles" : "root tiles");
                inlined(TiledChains.chain(op, preds.apply(op), preds), coords, fusion, counts);
                return;
            }
            TileChain<OpNode> chain = TiledChains.chain(op, preds.apply(op), preds);
            count(chain != null && chain.hasChild() ? "chain by chunks" : "root chunks");
        }
        for (int j = 0; j < keys.length; j++) {
            OpNode p = op.inputs().get(j).op();
            if (p == null || !fusion.isFused(p)) {
                continue;
            }
            for (long[] key : keys[j]) {
                if (j == 0
                        && !(f instanceof ElementwiseChunkFunction)
                        && f.readsInBoxes(0)
                        && TiledChains.boxedInput(p, preds, fusion.projected(), 0, none) >= 0) {
                    counts[1]++;
                    count("boxes");
                    inlined(TiledChains.chain(p, preds.apply(p), preds), key, fusion, counts);
                } else {
                    compute(p, key, fusion, counts);
                }
            }
        }
    }

    /** The fused operations computed whole while the chain at {@code node} runs in tiles for its chunk at {@code coords}. */
    private void inlined(TileChain<OpNode> node, long[] coords, Fusion fusion, long[] counts) {
        OpNode op = node.op();
        long[][][] keys = op.keyFunction().inputKeys(coords);
        for (int j = 0; j < node.inputs(); j++) {
            OpNode p = op.inputs().get(j).op();
            if (node.child(j) != null) {
                inlined(node.child(j), keys[j][0], fusion, counts);
            } else if (p != null && fusion.isFused(p)) {
                compute(p, keys[j][0], fusion, counts);
            }
        }
    }

    private void count(String outcome) {
        seen.merge(outcome, 1L, Long::sum);
    }
}
