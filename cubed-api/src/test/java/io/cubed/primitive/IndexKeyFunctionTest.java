package io.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import org.junit.jupiter.api.Test;

class IndexKeyFunctionTest {
    @Test
    void elementwiseReadsTheSameChunk() {
        IndexKeyFunction f = new IndexKeyFunction("ij", new String[] {"ij", "ij"}, new long[][] {{3, 2}, {3, 2}});
        long[][][] keys = f.inputKeys(new long[] {2, 1});
        assertThat(keys[0]).isDeepEqualTo(new long[][] {{2, 1}});
        assertThat(keys[1]).isDeepEqualTo(new long[][] {{2, 1}});
        assertThat(f.outputChunksPerAxis()).containsExactly(3, 2);
    }

    @Test
    void contractionListsEveryChunkAlongTheMissingIndex() {
        // matmul: (i, k) x (k, j) -> (i, j) with 3 chunks along k.
        IndexKeyFunction f = new IndexKeyFunction("ij", new String[] {"ik", "kj"}, new long[][] {{2, 3}, {3, 4}});
        long[][][] keys = f.inputKeys(new long[] {1, 2});
        assertThat(keys[0]).isDeepEqualTo(new long[][] {{1, 0}, {1, 1}, {1, 2}});
        assertThat(keys[1]).isDeepEqualTo(new long[][] {{0, 2}, {1, 2}, {2, 2}});
        assertThat(f.outputChunksPerAxis()).containsExactly(2, 4);
    }

    @Test
    void singleChunkInputsBroadcast() {
        IndexKeyFunction f = new IndexKeyFunction("ij", new String[] {"ij", "j"}, new long[][] {{4, 3}, {1}});
        long[][][] keys = f.inputKeys(new long[] {3, 2});
        assertThat(keys[0]).isDeepEqualTo(new long[][] {{3, 2}});
        assertThat(keys[1]).isDeepEqualTo(new long[][] {{0}});
    }

    @Test
    void mismatchedChunkCountsAreRefused() {
        assertThatThrownBy(() -> new IndexKeyFunction("ij", new String[] {"ij", "ij"}, new long[][] {{2, 3}, {2, 4}}))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("index 'j' has 3 chunks in one input and 4 in input 1");
    }
}
