package io.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Boxes of keys against brute force, and the rechunk key function's boxes against the chunks each region overlaps. */
class TaskKeysTest {
    @Test
    void aBoxListsItsChunksInCOrder() {
        TaskKeys box = TaskKeys.box(new long[] {2, 0, 5}, new long[] {3, 2, 5});
        assertThat(box.inputs()).isEqualTo(1);
        assertThat(box.count(0)).isEqualTo(2 * 3 * 1);
        List<long[]> expected = new ArrayList<>();
        for (long i = 2; i <= 3; i++) {
            for (long j = 0; j <= 2; j++) {
                expected.add(new long[] {i, j, 5});
            }
        }
        for (int k = 0; k < expected.size(); k++) {
            assertThat(box.keyAt(0, k)).containsExactly(expected.get(k));
        }
        assertThatThrownBy(() -> box.keyAt(0, 6)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> box.count(1)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> TaskKeys.box(new long[] {1}, new long[] {0}))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("last >= first");
        // A box's memory does not depend on how many keys it holds.
        assertThat(TaskKeys.boxBytes(3)).isEqualTo((16 + 8) + (16 + 2 * 3 * 8) + (16 + 3 * 8));
    }

    @Test
    void rechunkTasksReadExactlyTheInputChunksTheirRegionOverlaps() {
        Random r = new Random(20);
        for (int trial = 0; trial < 300; trial++) {
            int nd = 1 + r.nextInt(3);
            long[] shape = new long[nd];
            int[] p = new int[nd];
            int[] q = new int[nd];
            int[] perTask = new int[nd];
            for (int i = 0; i < nd; i++) {
                shape[i] = 1 + r.nextInt(30);
                p[i] = 1 + r.nextInt(8);
                q[i] = 1 + r.nextInt(8);
                perTask[i] = 1 + r.nextInt(3);
            }
            ChunkGrid in = ChunkGrid.of(shape, p);
            ChunkGrid out = ChunkGrid.of(shape, q);
            RechunkKeyFunction f = new RechunkKeyFunction(in, out);
            long tasks = TaskRegion.numTasks(out.chunksPerAxis(), perTask);
            for (long t = 0; t < tasks; t++) {
                TaskRegion region = TaskRegion.of(out.chunksPerAxis(), perTask, t);
                TaskKeys keys = f.taskKeys(region);
                List<long[]> expected = bruteForce(in, out, region);
                assertThat(keys.count(0)).isEqualTo(expected.size());
                long[][] listed = f.inputKeys(region)[0];
                for (int k = 0; k < expected.size(); k++) {
                    assertThat(keys.keyAt(0, k)).containsExactly(expected.get(k));
                    assertThat(listed[k]).containsExactly(expected.get(k));
                }
            }
        }
    }

    /** Every input chunk, in C order, that shares an element with one of the region's output chunks. */
    private static List<long[]> bruteForce(ChunkGrid in, ChunkGrid out, TaskRegion region) {
        List<long[]> found = new ArrayList<>();
        long[] counts = in.chunksPerAxis();
        int nd = counts.length;
        long total = 1;
        for (long c : counts) {
            total *= c;
        }
        for (long flat = 0; flat < total; flat++) {
            long[] coords = new long[nd];
            long rest = flat;
            for (int i = nd - 1; i >= 0; i--) {
                coords[i] = rest % counts[i];
                rest /= counts[i];
            }
            long[] lo = in.chunkOffset(coords);
            int[] size = in.chunkShapeAt(coords);
            boolean overlaps = false;
            for (long k = 0; k < region.numChunks() && !overlaps; k++) {
                long[] oc = region.chunk(k);
                long[] olo = out.chunkOffset(oc);
                int[] osize = out.chunkShapeAt(oc);
                boolean all = true;
                for (int i = 0; i < nd; i++) {
                    all &= lo[i] < olo[i] + osize[i] && olo[i] < lo[i] + size[i];
                }
                overlaps = all;
            }
            if (overlaps) {
                found.add(coords);
            }
        }
        return found;
    }
}
