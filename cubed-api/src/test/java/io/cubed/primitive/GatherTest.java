package io.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

class GatherTest {
    @SuppressWarnings("unchecked")
    static <T> T roundTrip(T value) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test
    void flipOfAnUnevenAxisReadsTwoChunksPerOutputChunk() throws Exception {
        ChunkGrid grid = ChunkGrid.of(new long[] {7}, new int[] {3});
        Gather g = Gather.builder(DType.FLOAT64, grid)
                .input(grid, new int[] {0}, new AxisMap[] {AxisMap.affine(6, -1, 7)}, new long[1])
                .build();
        // Output chunk 0 holds elements 6, 5, 4 of the input: chunks 1 and 2.
        assertThat(g.inputKeys(new long[] {0})[0]).isEqualTo(new long[][] {{1}, {2}});
        assertThat(g.inputKeys(new long[] {2})[0]).isEqualTo(new long[][] {{0}});
        Gather copy = roundTrip(g);
        assertThat(copy.inputKeys(new long[] {1})[0]).isEqualTo(new long[][] {{0}, {1}});
    }

    @Test
    void concatSelectorSkipsInputsOutsideTheOutputChunk() throws Exception {
        ChunkGrid a = ChunkGrid.of(new long[] {4}, new int[] {2});
        ChunkGrid b = ChunkGrid.of(new long[] {3}, new int[] {3});
        ChunkGrid out = ChunkGrid.of(new long[] {7}, new int[] {3});
        Gather g = Gather.builder(DType.INT32, out)
                .selector(0, AxisMap.segments(new long[] {0, 4, 7}))
                .input(a, new int[] {0}, new AxisMap[] {AxisMap.affine(0, 1, 4)}, new long[1])
                .input(b, new int[] {0}, new AxisMap[] {AxisMap.affine(-4, 1, 3)}, new long[1])
                .fill(Scalar.zero())
                .build();
        long[][][] keys = roundTrip(g).inputKeys(new long[] {1});
        assertThat(keys[0]).isEqualTo(new long[][] {{1}});
        assertThat(keys[1]).isEqualTo(new long[][] {{0}});
        assertThat(g.inputKeys(new long[] {0})[1]).isEmpty();
        // Keys: 32 + keys·(24 + 8) per input, at most 2 chunks of a and the 1 chunk of b; index lists 12 bytes per
        // output position per input axis, 8 per output position.
        assertThat(g.extraMemBytes()).isEqualTo((32 + 2 * 32) + (32 + 32) + 2 * 12 * 3 + 8 * 3);
    }

    @Test
    void axisMapsFollowNumpy() throws Exception {
        AxisMap sym = roundTrip(AxisMap.symmetric(5, 3));
        long[] got = new long[12];
        for (int j = 0; j < 12; j++) {
            got[j] = sym.index(j);
        }
        // np.pad([0, 1, 2], (5, 4), "symmetric")
        assertThat(got).containsExactly(1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0);
        assertThat(AxisMap.cyclic(-2, 5).index(0)).isEqualTo(3);
        assertThat(AxisMap.repeat(3).index(7)).isEqualTo(2);
        assertThat(AxisMap.segments(new long[] {0, 2, 2, 5}).index(2)).isEqualTo(2);
        assertThat(AxisMap.affine(-1, 1, 3).index(0)).isEqualTo(-1);
    }
}
