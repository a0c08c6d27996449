package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.ReduceLayout;
import io.cubed.chunk.Reducer;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import java.util.Iterator;

/**
 * The chunk function of one round of a tree reduction. The first round reads input chunks one at a time and
 * accumulates each into a state; later rounds read states (one chunk per field, one group at a time) and combine them.
 * Every round but the last writes the state (one output per field); the last writes the aggregated result, without
 * the reduced axes unless {@code keepdims}. Memory: one input chunk (per field) and two states at a time.
 */
public final class PartialReduceFunction implements StreamingChunkFunction {
    private static final long serialVersionUID = 1L;

    private final Reducer reducer;
    private final ChunkGrid inputGrid;
    private final boolean[] reduced;
    private final int[] stateLength;
    private final boolean first;
    private final boolean last;
    private final boolean keepdims;
    private final int argAxis;
    private final long[] arrayShape;
    private final int groupAxis;
    private final int numGroups;

    /**
     * A round reading {@code inputGrid}-chunked inputs (the array in the first round, states after), reducing the axes
     * where {@code reduced} is true to {@code stateLength[a]} elements per chunk (1, or the number of groups on the
     * group axis); {@code argAxis} and {@code arrayShape} give arg reductions their indexes; {@code groupAxis} is -1
     * or the axis whose elements a second input labels with groups {@code [0, numGroups)}.
     */
    public PartialReduceFunction(
            Reducer reducer,
            ChunkGrid inputGrid,
            boolean[] reduced,
            boolean first,
            boolean last,
            boolean keepdims,
            int argAxis,
            long[] arrayShape,
            int groupAxis,
            int numGroups) {
        this.reducer = reducer;
        this.inputGrid = inputGrid;
        this.reduced = reduced.clone();
        this.first = first;
        this.last = last;
        this.keepdims = keepdims;
        this.argAxis = argAxis;
        this.arrayShape = arrayShape.clone();
        this.groupAxis = groupAxis;
        this.numGroups = numGroups;
        this.stateLength = new int[reduced.length];
        for (int a = 0; a < reduced.length; a++) {
            stateLength[a] = a == groupAxis ? numGroups : 1;
        }
    }

    @Override
    public boolean streamsOneInput() {
        return first && groupAxis < 0;
    }

    /** A first round without groups whose reducer takes boxes reads its input box by box ({@link #apply}). */
    @Override
    public boolean readsInBoxes(int input) {
        return input == 0 && streamsOneInput() && reducer.acceptsBoxes();
    }

    /** One: every round's extra memory counts one more chunk of each input ({@code Reduction}). */
    @Override
    public int inputChunksInExtra(int input) {
        return 1;
    }

    @Override
    public Fold start(long[] outputCoords) {
        if (!streamsOneInput()) {
            throw new IllegalStateException("only a first round without groups streams its input");
        }
        int[] stateShape = stateShape(outputCoords);
        Chunk[] state = reducer.identity(stateShape);
        return new Fold() {
            @Override
            public void accept(long[] inputKey, Chunk chunk) {
                reducer.accumulate(
                        state, chunk, ReduceLayout.of(reduced, inputGrid.chunkOffset(inputKey), arrayShape, argAxis));
            }

            @Override
            public boolean acceptsBoxes() {
                return reducer.acceptsBoxes();
            }

            @Override
            public void acceptBox(long[] inputKey, int[] chunkShape, int[] boxOffset, Chunk box) {
                reducer.accumulate(
                        state,
                        box,
                        ReduceLayout.of(reduced, inputGrid.chunkOffset(inputKey), arrayShape, argAxis)
                                .inBox(boxOffset, chunkShape));
            }

            @Override
            public Chunk[] finish() {
                return result(state, stateShape);
            }
        };
    }

    @Override
    public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
        int n = args.count(0);
        if (streamsOneInput()) {
            Fold fold = start(outputCoords);
            if (fold.acceptsBoxes()) {
                for (int k = 0; k < n; k++) {
                    long[] key = args.key(0, k);
                    int[] shape = inputGrid.chunkShapeAt(key);
                    args.readInBoxes(0, k, (offset, box) -> fold.acceptBox(key, shape, offset, box));
                }
                return fold.finish();
            }
            Iterator<Chunk> chunks = args.iterator(0);
            for (int k = 0; k < n; k++) {
                Chunk x = chunks.next();
                fold.accept(args.key(0, k), x);
            }
            return fold.finish();
        }
        int nd = reduced.length;
        int[] stateShape = stateShape(outputCoords);
        Chunk[] state = reducer.identity(stateShape);
        if (first) {
            Iterator<Chunk> chunks = args.iterator(0);
            Iterator<Chunk> labels = args.iterator(1);
            for (int k = 0; k < n; k++) {
                Chunk x = chunks.next();
                long[] offset = inputGrid.chunkOffset(args.key(0, k));
                ReduceLayout layout;
                try {
                    layout = ReduceLayout.groups(nd, groupAxis, labelsOf(labels.next()), numGroups, offset[groupAxis]);
                } catch (InvalidArgumentException e) {
                    throw new InvalidArgumentException(
                            "groupby_" + reducer.function().pythonName() + ": " + e.getMessage(), e);
                }
                reducer.accumulate(state, x, layout);
            }
        } else {
            int fields = args.size();
            @SuppressWarnings("unchecked")
            Iterator<Chunk>[] its = new Iterator[fields];
            for (int j = 0; j < fields; j++) {
                its[j] = args.iterator(j);
            }
            for (int k = 0; k < n; k++) {
                Chunk[] other = new Chunk[fields];
                for (int j = 0; j < fields; j++) {
                    other[j] = its[j].next();
                }
                reducer.combine(state, other);
            }
        }
        return result(state, stateShape);
    }

    /** The shape of the state of output chunk {@code outputCoords}. */
    private int[] stateShape(long[] outputCoords) {
        int nd = reduced.length;
        int[] stateShape = new int[nd];
        int o = 0;
        for (int a = 0; a < nd; a++) {
            boolean dropped = last && !keepdims && reduced[a] && a != groupAxis;
            long c = dropped ? 0 : outputCoords[o++];
            if (reduced[a]) {
                stateShape[a] = stateLength[a];
            } else {
                long len = inputGrid.shape(a) - c * inputGrid.chunkShape(a);
                stateShape[a] = (int) Math.min(inputGrid.chunkShape(a), len);
            }
        }
        return stateShape;
    }

    /** What a task writes from its final state: the state itself, or in the last round the aggregated result. */
    private Chunk[] result(Chunk[] state, int[] stateShape) {
        if (!last) {
            return state;
        }
        Chunk result = reducer.aggregate(state);
        if (!keepdims) {
            int nd = reduced.length;
            int kept = 0;
            for (int a = 0; a < nd; a++) {
                kept += !reduced[a] || a == groupAxis ? 1 : 0;
            }
            int[] squeezed = new int[kept];
            int s = 0;
            for (int a = 0; a < nd; a++) {
                if (!reduced[a] || a == groupAxis) {
                    squeezed[s++] = stateShape[a];
                }
            }
            result = Chunk.wrap(result.dtype(), squeezed, result.data());
        }
        return new Chunk[] {result};
    }

    /** The group labels of a chunk of an integer label array, as ints. */
    private static int[] labelsOf(Chunk c) {
        int[] out = new int[c.size()];
        for (int i = 0; i < out.length; i++) {
            long v = c.getLong(i);
            out[i] = v < Integer.MIN_VALUE || v > Integer.MAX_VALUE ? Integer.MIN_VALUE : (int) v;
        }
        return out;
    }
}
