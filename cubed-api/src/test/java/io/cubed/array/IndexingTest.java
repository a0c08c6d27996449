package io.cubed.array;

import static io.cubed.array.Index.all;
import static io.cubed.array.Index.at;
import static io.cubed.array.Index.ellipsis;
import static io.cubed.array.Index.from;
import static io.cubed.array.Index.newAxis;
import static io.cubed.array.Index.slice;
import static io.cubed.array.Index.take;
import static io.cubed.array.Index.to;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Indexing against hand-computed results, with chunkings that split the indexed axes unevenly. */
class IndexingTest {
    @TempDir
    Path tmp;

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /** A (4, 5, 6) int64 array with element (i, j, k) = 100 i + 10 j + k, chunks (3, 2, 4). */
    private CubedArray cube(Spec spec) {
        Chunk c = Chunk.allocate(DType.INT64, 4, 5, 6);
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 5; j++) {
                for (int k = 0; k < 6; k++) {
                    c.longs()[(i * 5 + j) * 6 + k] = 100L * i + 10L * j + k;
                }
            }
        }
        return Cubed.asarray(c, spec, 3, 2, 4);
    }

    @Test
    void steppedSliceKeepsTheInputChunkLengthAsCubed() {
        CubedArray x = Creation.arange(0, 20, 1, 4, DType.INT64, spec());
        CubedArray y = x.get(slice(3L, 14L, 2));
        assertThat(y.shape()).containsExactly(6);
        assertThat(y.chunkShape()).containsExactly(4);
        assertThat(y.numChunks()).isEqualTo(2);
        assertThat(y.compute().toLongArray()).containsExactly(3, 5, 7, 9, 11, 13);
    }

    @Test
    void negativeStepsAndBoundsFollowPython() {
        CubedArray x = Creation.arange(0, 10, 1, 3, DType.INT64, spec());
        assertThat(x.get(slice(null, null, -1)).compute().toLongArray()).containsExactly(9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
        assertThat(x.get(slice(8L, 1L, -3)).compute().toLongArray()).containsExactly(8, 5, 2);
        assertThat(x.get(slice(-2L, null)).compute().toLongArray()).containsExactly(8, 9);
        assertThat(x.get(slice(-100L, 3L)).compute().toLongArray()).containsExactly(0, 1, 2);
        assertThat(x.get(to(-7)).compute().toLongArray()).containsExactly(0, 1, 2);
        assertThat(x.get(slice(null, -11L, -4)).compute().toLongArray()).containsExactly(9, 5, 1);
        assertThat(x.get(slice(5L, 5L)).shape()).containsExactly(0);
        assertThat(x.get(slice(5L, 5L)).compute().toLongArray()).isEmpty();
    }

    @Test
    void integersDropAxesNewAxesAndEllipsisAddAndExpand() {
        Spec spec = spec();
        CubedArray x = cube(spec);
        CubedArray y = x.get(at(-1), newAxis(), from(1), slice(null, null, 2));
        assertThat(y.shape()).containsExactly(1, 4, 3);
        assertThat(y.chunkShape()).containsExactly(1, 2, 3);
        long[] got = y.compute().toLongArray();
        int n = 0;
        for (int j = 1; j < 5; j++) {
            for (int k = 0; k < 6; k += 2) {
                assertThat(got[n++]).isEqualTo(300 + 10 * j + k);
            }
        }
        CubedArray z = x.get(ellipsis(), at(4));
        assertThat(z.shape()).containsExactly(4, 5);
        long[] zv = z.compute().toLongArray();
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 5; j++) {
                assertThat(zv[i * 5 + j]).isEqualTo(100 * i + 10 * j + 4);
            }
        }
        CubedArray point = x.get(at(2), at(3), at(5));
        assertThat(point.ndim()).isZero();
        assertThat(point.compute().get().longValue()).isEqualTo(235);
        CubedArray trailing = x.get(at(1), ellipsis(), newAxis());
        assertThat(trailing.shape()).containsExactly(5, 6, 1);
        assertThat(trailing.compute().get(4, 5, 0).longValue()).isEqualTo(145);
    }

    @Test
    void anIntegerArrayAlongOneAxisReadsChunksOneAtATime() {
        Spec spec = spec();
        CubedArray x = cube(spec);
        CubedArray y = x.get(all(), at(1), take(5, 0, 5, -6, 3));
        assertThat(y.shape()).containsExactly(4, 5);
        assertThat(y.chunkShape()).containsExactly(3, 4);
        long[] v = y.compute().toLongArray();
        long[] cols = {5, 0, 5, 0, 3};
        for (int i = 0; i < 4; i++) {
            for (int c = 0; c < 5; c++) {
                assertThat(v[i * 5 + c]).isEqualTo(100 * i + 10 + cols[c]);
            }
        }
        CubedArray t = Indexing.take(x, new long[] {3, 0}, -1);
        assertThat(t.shape()).containsExactly(4, 5, 2);
        assertThat(t.compute().get(3, 4, 0).longValue()).isEqualTo(343);
        assertThat(t.compute().get(3, 4, 1).longValue()).isEqualTo(340);
    }

    @Test
    void tasksHoldOneInputChunk() {
        Spec spec = spec();
        CubedArray x = Creation.arange(0, 100, 1, 10, DType.FLOAT64, spec);
        // x[::9] has chunks of 9 (Cubed's rule): output chunk 0 spans elements 0..72, eight input chunks of length 10,
        // read one at a time.
        CubedArray y = x.get(slice(null, null, 9));
        assertThat(y.shape()).containsExactly(12);
        assertThat(y.node().op().chunksHeld(0)).isEqualTo(1);
        AtomicLong read = new AtomicLong();
        io.cubed.runtime.Callback bytes = new io.cubed.runtime.Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                read.addAndGet(event.result().bytesRead());
            }
        };
        assertThat(y.compute(bytes).toDoubleArray()).containsExactly(0, 9, 18, 27, 36, 45, 54, 63, 72, 81, 90, 99);
        // Chunk 0 reads input chunks 0..7, chunk 1 reads chunks 8 and 9: every input chunk once, 100 float64 values.
        assertThat(read.get()).isEqualTo(800);
    }

    @Test
    void aWholeSelectionReturnsTheSameArray() {
        CubedArray x = cube(spec());
        assertThat(x.get()).isSameAs(x);
        assertThat(x.get(ellipsis())).isSameAs(x);
        assertThat(x.get(all(), slice(0L, 5L), slice(-6L, null, 1))).isSameAs(x);
        assertThat(x.get(slice(null, null, -1))).isNotSameAs(x);
    }

    @Test
    void blocksSelectsChunks() {
        Spec spec = spec();
        CubedArray x = Creation.arange(0, 10, 1, 3, DType.INT64, spec); // chunks [0..2] [3..5] [6..8] [9]
        assertThat(x.blocks(at(1)).compute().toLongArray()).containsExactly(3, 4, 5);
        assertThat(x.blocks(slice(1L, null)).compute().toLongArray()).containsExactly(3, 4, 5, 6, 7, 8, 9);
        CubedArray picked = x.blocks(take(2, 0, 3));
        assertThat(picked.chunkShape()).containsExactly(3);
        assertThat(picked.compute().toLongArray()).containsExactly(6, 7, 8, 0, 1, 2, 9);
        assertThat(x.blocks(slice(2L, null, -2)).compute().toLongArray()).containsExactly(6, 7, 8, 0, 1, 2);
        assertThatThrownBy(() -> x.blocks(slice(null, null, -1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("partial edge chunk 3");
        CubedArray c = cube(spec);
        CubedArray b = c.blocks(at(1), ellipsis(), at(-1));
        assertThat(b.shape()).containsExactly(1, 5, 2);
        assertThat(b.compute().get(0, 4, 1).longValue()).isEqualTo(345);
    }

    @Test
    void badKeysAreClearErrors() {
        CubedArray x = cube(spec());
        assertThatThrownBy(() -> x.get(at(4)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("index 4 is out of bounds for axis 0")
                .hasMessageContaining("'" + x.name() + "'")
                .hasMessageContaining("length 4");
        assertThatThrownBy(() -> x.get(take(0), take(1))).hasMessageContaining("only one axis");
        assertThatThrownBy(() -> x.get(all(), slice(null, null, 0))).hasMessageContaining("step 0");
        assertThatThrownBy(() -> x.get(at(0), at(0), at(0), at(0))).hasMessageContaining("indexes 4 axes");
        assertThatThrownBy(() -> x.get(ellipsis(), ellipsis())).hasMessageContaining("more than one ellipsis");
        assertThatThrownBy(() -> x.get(all(), take(1, 7))).hasMessageContaining("index 7 is out of bounds for axis 1");
        assertThatThrownBy(() -> Indexing.take(x, new long[] {0}, 3)).hasMessageContaining("axis 3 is out of range");
    }

    @Test
    void indexingComposesWithOtherOperations() {
        Spec spec = spec();
        CubedArray x = cube(spec);
        CubedArray y = Elementwise.add(x.get(at(0)), x.get(at(3)));
        assertThat(y.compute().get(4, 5).longValue()).isEqualTo(45 + 345);
        assertThat(Cubed.compute(List.of(x.get(at(1), at(1)))).get(0).toLongArray())
                .containsExactly(110, 111, 112, 113, 114, 115);
    }
}
