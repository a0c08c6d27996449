package io.cubed.primitive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.runtime.TaskIo;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Tasks covering several output chunks: the tiling, the copy stage's three paths, and the checks on writes. */
class BlockwiseTaskTest {
    @Test
    void regionsTileTheGridInCOrder() {
        // 5 x 3 chunks in boxes of 2 x 2: tasks per axis ceil(5 / 2) = 3 and ceil(3 / 2) = 2.
        long[] perAxis = {5, 3};
        int[] perTask = {2, 2};
        assertThat(TaskRegion.numTasks(perAxis, perTask)).isEqualTo(3 * 2);
        List<String> seen = new ArrayList<>();
        for (long t = 0; t < 6; t++) {
            TaskRegion r = TaskRegion.of(perAxis, perTask, t);
            for (long k = 0; k < r.numChunks(); k++) {
                long[] c = r.chunk(k);
                assertThat(r.indexOf(c)).isEqualTo(k);
                seen.add(c[0] + "," + c[1]);
            }
        }
        // Every chunk exactly once.
        assertThat(seen).hasSize(15).doesNotHaveDuplicates();
        TaskRegion last = TaskRegion.of(perAxis, perTask, 5);
        assertThat(last.first()).containsExactly(4, 2);
        assertThat(last.counts()).containsExactly(1, 1);
        TaskRegion second = TaskRegion.of(perAxis, perTask, 1);
        assertThat(second.first()).containsExactly(0, 2);
        assertThat(second.counts()).containsExactly(2, 1);
        assertThat(second.indexOf(new long[] {2, 2})).isEqualTo(-1);
        assertThatThrownBy(() -> TaskRegion.of(perAxis, perTask, 6)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> TaskRegion.numTasks(perAxis, new int[] {0, 1}))
                .isInstanceOf(InvalidArgumentException.class);
    }

    private static ZarrArray zarr(long[] shape, int[] chunks) {
        return ZarrArray.create(
                "memory://blockwise-task-" + UUID.randomUUID() + "/a.zarr",
                ZarrCreateOptions.builder(shape, chunks, DType.INT32).build());
    }

    /** A (9, 10) int32 array with value 100 i + j, in chunks of {@code chunks}. */
    private static ZarrArray source(int[] chunks) {
        ZarrArray z = zarr(new long[] {9, 10}, chunks);
        ChunkGrid g = z.grid();
        for (long i = 0; i < g.numChunks(); i++) {
            long[] c = g.chunkCoordsOf(i);
            long[] off = g.chunkOffset(c);
            int[] s = g.chunkShapeAt(c);
            Chunk chunk = Chunk.allocate(DType.INT32, s);
            for (int r = 0; r < s[0]; r++) {
                for (int k = 0; k < s[1]; k++) {
                    chunk.ints()[r * s[1] + k] = (int) (100 * (off[0] + r) + off[1] + k);
                }
            }
            z.writeChunk(chunk, c);
        }
        return z;
    }

    private static void assertValues(ZarrArray z) {
        Chunk all = z.readRegion(new long[] {0, 0}, new int[] {9, 10});
        for (int i = 0; i < 9; i++) {
            for (int j = 0; j < 10; j++) {
                assertThat(all.ints()[i * 10 + j]).as("(%d, %d)", i, j).isEqualTo(100 * i + j);
            }
        }
    }

    /** Runs one rechunk stage from {@code in} to {@code out} chunks, each task a region of {@code perTask} chunks. */
    private static long[] copy(int[] in, int[] out, int[] perTask) {
        ZarrArray src = source(in);
        ZarrArray dst = zarr(new long[] {9, 10}, out);
        BlockwiseTask task = copyTask(src, dst, perTask);
        long read = 0;
        long written = 0;
        for (long t = 0; t < task.numTasks(); t++) {
            TaskIo io = task.run(t);
            read += io.bytesRead();
            written += io.bytesWritten();
        }
        assertValues(dst);
        return new long[] {task.numTasks(), read, written};
    }

    @Test
    void copyTasksReadEveryChunkOnceOnAllThreePaths() {
        long nbytes = 9 * 10 * 4;
        // Region buffer: (3, 2) -> (2, 5), region lcm (6, 10) holds 2 x 5 inputs and 3 x 2 outputs; tasks 2 x 1.
        assertThat(copy(new int[] {3, 2}, new int[] {2, 5}, new int[] {3, 2})).containsExactly(2, nbytes, nbytes);
        // Cut from one input chunk: (6, 10) -> (2, 5), region = the input chunk, 3 x 2 outputs per task.
        assertThat(copy(new int[] {6, 10}, new int[] {2, 5}, new int[] {3, 2})).containsExactly(2, nbytes, nbytes);
        // Assembled into one output chunk: (2, 5) -> (6, 10), one output per task.
        assertThat(copy(new int[] {2, 5}, new int[] {6, 10}, new int[] {1, 1})).containsExactly(2, nbytes, nbytes);
    }

    @Test
    void aFunctionThatSkipsOrRepeatsAChunkFailsTheTask() {
        ZarrArray src = source(new int[] {3, 10});
        ZarrArray dst = zarr(new long[] {9, 10}, new int[] {3, 5});
        ChunkFunction firstOnly = new ChunkFunction() {
            @Override
            public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void applyRegion(ChunkArgs args, TaskRegion region, ChunkSink sink) {
                sink.write(0, region.first(), Chunk.allocate(DType.INT32, 3, 5));
            }
        };
        BlockwiseTask skips = new BlockwiseTask(
                "skips",
                new ChunkStore[] {src},
                new ChunkStore[] {dst},
                new RechunkKeyFunction(src.grid(), dst.grid()),
                firstOnly,
                new int[] {1, 2});
        assertThatThrownBy(() -> skips.run(0))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("skips: the chunk function did not write chunk [0, 1]");
        ChunkFunction twice = new ChunkFunction() {
            @Override
            public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void applyRegion(ChunkArgs args, TaskRegion region, ChunkSink sink) {
                sink.write(0, region.first(), Chunk.allocate(DType.INT32, 3, 5));
                sink.write(0, region.first(), Chunk.allocate(DType.INT32, 3, 5));
            }
        };
        BlockwiseTask repeats = new BlockwiseTask(
                "repeats",
                new ChunkStore[] {src},
                new ChunkStore[] {dst},
                new RechunkKeyFunction(src.grid(), dst.grid()),
                twice,
                new int[] {1, 2});
        assertThatThrownBy(() -> repeats.run(0))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("written twice");
        // A plain one-chunk function refuses a task of several chunks.
        BlockwiseTask plain = new BlockwiseTask(
                "plain",
                new ChunkStore[] {src},
                new ChunkStore[] {dst},
                new RechunkKeyFunction(src.grid(), dst.grid()),
                (args, coords) -> new Chunk[] {Chunk.allocate(DType.INT32, 3, 5)},
                new int[] {1, 2});
        assertThatThrownBy(() -> plain.run(0))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("plain: ")
                .hasMessageContaining("computes one output chunk per task");
    }

    @Test
    void theDefaultKeyFunctionOfARegionIsTheUnionOfItsChunks() {
        KeyFunction rows = coords -> new long[][][] {{{coords[0] / 2, 0}}};
        long[][][] keys = rows.inputKeys(TaskRegion.of(new long[] {4, 1}, new int[] {4, 1}, 0));
        // Output chunks 0..3 read input chunks 0, 0, 1, 1: the union, each once, in order.
        assertThat(keys[0]).hasDimensions(2, 2);
        assertThat(keys[0][0]).containsExactly(0, 0);
        assertThat(keys[0][1]).containsExactly(1, 0);
    }

    /** A task copying {@code src} to {@code dst}, one rechunk stage, {@code perTask} output chunks per task. */
    private static BlockwiseTask copyTask(ZarrArray src, ZarrArray dst, int[] perTask) {
        return new BlockwiseTask(
                "copy",
                new ChunkStore[] {src},
                new ChunkStore[] {dst},
                new RechunkKeyFunction(src.grid(), dst.grid()),
                new RechunkChunkFunction(DType.INT32, src.grid(), dst.grid(), true),
                perTask);
    }

    /** {@code task} after Java serialization, as Spark ships it to executors. */
    private static BlockwiseTask shipped(BlockwiseTask task) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(task);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (BlockwiseTask) in.readObject();
        }
    }

    @Test
    void aRegionTaskSurvivesSerialization() throws Exception {
        ZarrArray src = source(new int[] {3, 2});
        ZarrArray dst = zarr(new long[] {9, 10}, new int[] {2, 5});
        BlockwiseTask copy = shipped(copyTask(src, dst, new int[] {3, 2}));
        assertThat(copy.numTasks()).isEqualTo(2);
        for (long t = 0; t < copy.numTasks(); t++) {
            assertThat(copy.run(t)).isEqualTo(new TaskIo(6 * 10 * 4 / (t == 0 ? 1 : 2), 6 * 10 * 4 / (t == 0 ? 1 : 2)));
        }
        assertValues(dst);
    }

    @Test
    void aReleasedInputChunkIsDeletedWhenNoUnreleasedTaskReadsIt() throws Exception {
        // (9, 10) in chunks of (3, 4) copied to chunks of (2, 5), one output chunk per task: input rows 0-2 feed output
        // rows 0-1 and 2-3, input columns 4-7 feed output columns 0-4 and 5-9.
        ZarrArray src = source(new int[] {3, 4});
        ZarrArray dst = zarr(new long[] {9, 10}, new int[] {2, 5});
        BlockwiseTask task = copyTask(src, dst, null).deletingInputChunks(0);
        assertThat(task.releasesInputs()).isTrue();
        assertThat(copyTask(src, dst, null).releasesInputs()).isFalse();
        // A copy shipped elsewhere (Spark) deletes nothing.
        BlockwiseTask shipped = shipped(task);
        assertThat(shipped.releasesInputs()).isFalse();
        int tasks = (int) task.numTasks();
        for (long t = 0; t < tasks; t++) {
            task.run(t);
            shipped.release(t);
        }
        assertThat(src.writtenChunkCount()).isEqualTo(3 * 3);
        // Released in a scrambled order; after each, an input chunk is stored iff a task not yet released reads it.
        List<Long> order = new ArrayList<>();
        for (long t = 0; t < tasks; t++) {
            order.add((t * 7) % tasks);
        }
        assertThat(order).doesNotHaveDuplicates();
        java.util.Set<Long> pending = new java.util.HashSet<>(order);
        for (long t : order) {
            task.release(t);
            pending.remove(t);
            for (long a = 0; a < 3; a++) {
                for (long b = 0; b < 3; b++) {
                    boolean read = false;
                    for (long p : pending) {
                        // Output chunk p covers rows [2i, 2i + 2) and columns [5j, 5j + 5) of a 5 x 2 grid.
                        long i = p / 2;
                        long j = p % 2;
                        boolean rows = 2 * i < 3 * a + 3 && 3 * a < Math.min(9, 2 * i + 2);
                        boolean cols = 5 * j < 4 * b + 4 && 4 * b < 5 * j + 5;
                        read |= rows && cols;
                    }
                    assertThat(src.chunkExists(a, b))
                            .as("input chunk (%d, %d) after releasing %s", a, b, t)
                            .isEqualTo(read);
                }
            }
        }
        assertThat(src.writtenChunkCount()).isZero();
        assertValues(dst);
    }
}
