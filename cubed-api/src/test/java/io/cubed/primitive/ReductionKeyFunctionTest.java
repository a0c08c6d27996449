package io.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.ReduceFunction;
import io.cubed.chunk.ReduceLayout;
import io.cubed.chunk.Reducer;
import io.cubed.dtype.DType;
import io.cubed.grid.ChunkGrid;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

class ReductionKeyFunctionTest {
    @Test
    void aRoundReadsSplitChunksAlongReducedAxesAndTheSameChunkElsewhere() {
        // 10 x 3 chunks, axis 0 reduced 4 at a time: output chunk (2, 1) reads chunks 8 and 9 of axis 0.
        ReductionKeyFunction f = new ReductionKeyFunction(
                new long[] {10, 3}, new int[] {4, 1}, new int[] {0, 1}, new int[][] {null, null});
        long[][][] keys = f.inputKeys(new long[] {2, 1});
        assertThat(keys[0]).isDeepEqualTo(new long[][] {{8, 1}, {9, 1}});
        assertThat(keys[1]).isSameAs(keys[0]);
        assertThat(f.inputKeys(new long[] {0, 0})[0].length).isEqualTo(4);
    }

    @Test
    void theLastRoundWithoutKeepdimsAndAGroupLabelInput() {
        // 3 x 2 chunks, both axes reduced 2 at a time... last round: output has no axes left.
        ReductionKeyFunction f = new ReductionKeyFunction(
                new long[] {2, 2}, new int[] {2, 2}, new int[] {-1, -1}, new int[][] {null, {1}});
        long[][][] keys = f.inputKeys(new long[0]);
        assertThat(keys[0]).isDeepEqualTo(new long[][] {{0, 0}, {0, 1}, {1, 0}, {1, 1}});
        assertThat(keys[1]).isDeepEqualTo(new long[][] {{0}, {1}, {0}, {1}});
    }

    @Test
    void anEmptyReducedAxisReadsNothing() {
        ReductionKeyFunction f =
                new ReductionKeyFunction(new long[] {0, 3}, new int[] {4, 1}, new int[] {0, 1}, new int[][] {null});
        assertThat(f.inputKeys(new long[] {0, 2})[0]).isEmpty();
    }

    @Test
    void taskBodiesSurviveSerialization() throws Exception {
        for (ReduceFunction fn : ReduceFunction.values()) {
            DType t = fn == ReduceFunction.ALL ? DType.BOOL : DType.FLOAT64;
            Reducer r = Reducer.of(fn, t, null, 1, "array-001");
            PartialReduceFunction p = new PartialReduceFunction(
                    r,
                    ChunkGrid.of(new long[] {4}, new int[] {2}),
                    new boolean[] {true},
                    true,
                    true,
                    false,
                    fn.isArg() ? ReduceLayout.FLAT_INDEX : ReduceLayout.NO_INDEX,
                    new long[] {4},
                    -1,
                    0);
            Object copy = roundTrip(p);
            assertThat(copy).isInstanceOf(PartialReduceFunction.class);
            Reducer rc = (Reducer) roundTrip(r);
            assertThat(rc.function()).isEqualTo(fn);
            assertThat(rc.resultType()).isEqualTo(r.resultType());
            Chunk[] s = rc.identity(new int[] {1});
            rc.accumulate(
                    s,
                    Chunk.allocate(t, 2),
                    ReduceLayout.of(new boolean[] {true}, new long[] {0}, new long[] {2}, ReduceLayout.FLAT_INDEX));
            assertThat(rc.aggregate(s).dtype()).isEqualTo(r.resultType());
        }
        assertThat(roundTrip(
                        new ReductionKeyFunction(new long[] {3}, new int[] {2}, new int[] {0}, new int[][] {null})))
                .isInstanceOf(ReductionKeyFunction.class);
    }

    private static Object roundTrip(Object o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }
}
