package io.cubed.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import org.junit.jupiter.api.Test;

class ChunkGridTest {
    @Test
    void edgeChunksAreClipped() {
        ChunkGrid g = ChunkGrid.of(new long[] {10, 7}, new int[] {4, 3});
        assertThat(g.chunksPerAxis()).containsExactly(3, 3);
        assertThat(g.numChunks()).isEqualTo(9);
        assertThat(g.chunkShapeAt(0, 0)).containsExactly(4, 3);
        assertThat(g.chunkShapeAt(2, 2)).containsExactly(2, 1);
        assertThat(g.chunkOffset(2, 1)).containsExactly(8, 3);
        assertThat(g.size()).isEqualTo(70);
    }

    @Test
    void zeroDimensionalAndZeroLength() {
        ChunkGrid scalar = ChunkGrid.of(new long[0], new int[0]);
        assertThat(scalar.numChunks()).isEqualTo(1);
        assertThat(scalar.size()).isEqualTo(1);
        assertThat(scalar.chunkShapeAt()).isEmpty();
        ChunkGrid empty = ChunkGrid.of(new long[] {0, 5}, new int[] {2, 5});
        assertThat(empty.numChunks()).isZero();
        assertThat(empty.chunksPerAxis()).containsExactly(0, 1);
    }

    @Test
    void chunkCoordsOfWalksCOrder() {
        ChunkGrid g = ChunkGrid.of(new long[] {5, 5, 5}, new int[] {2, 3, 5});
        assertThat(g.chunkCoordsOf(0)).containsExactly(0, 0, 0);
        assertThat(g.chunkCoordsOf(1)).containsExactly(0, 1, 0);
        assertThat(g.chunkCoordsOf(2)).containsExactly(1, 0, 0);
        assertThat(g.chunkCoordsOf(5)).containsExactly(2, 1, 0);
    }

    @Test
    void badArgumentsNameTheValues() {
        assertThatThrownBy(() -> ChunkGrid.of(new long[] {4}, new int[] {2, 2}))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("[2, 2]")
                .hasMessageContaining("rank");
        assertThatThrownBy(() -> ChunkGrid.of(new long[] {4}, new int[] {0}))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("at least 1");
        ChunkGrid g = ChunkGrid.of(new long[] {4}, new int[] {2});
        assertThatThrownBy(() -> g.chunkShapeAt(2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("[2]");
    }

    @Test
    void equalityIsByValue() {
        assertThat(ChunkGrid.of(new long[] {4, 4}, new int[] {2, 2}))
                .isEqualTo(ChunkGrid.of(new long[] {4, 4}, new int[] {2, 2}))
                .hasSameHashCodeAs(ChunkGrid.of(new long[] {4, 4}, new int[] {2, 2}))
                .isNotEqualTo(ChunkGrid.of(new long[] {4, 4}, new int[] {2, 1}));
    }

    @Test
    void aShapeOfMoreElementsThanALongHoldsIsRefused() {
        assertThatThrownBy(() -> ChunkGrid.of(new long[] {Long.MAX_VALUE, 2}, new int[] {10, 1}))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("shape [9223372036854775807, 2] has more elements than an array can hold");
        assertThatThrownBy(() -> ChunkGrid.of(new long[] {1L << 32, 1L << 31}, new int[] {1, 1}))
                .isInstanceOf(InvalidArgumentException.class);
        // At the limit, and with a zero-length axis, the grid is made.
        assertThat(ChunkGrid.of(new long[] {Long.MAX_VALUE, 1}, new int[] {1 << 30, 1})
                        .size())
                .isEqualTo(Long.MAX_VALUE);
        assertThat(ChunkGrid.of(new long[] {Long.MAX_VALUE, 0, 7}, new int[] {1, 1, 1})
                        .size())
                .isZero();
    }
}
