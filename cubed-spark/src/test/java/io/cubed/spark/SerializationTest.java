package io.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.BlockMatMul;
import io.cubed.array.Blockwise;
import io.cubed.array.CubedArray;
import io.cubed.array.Manipulation;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.ExecutionPlan;
import io.cubed.runtime.Executor;
import io.cubed.runtime.FileRecordingTask;
import io.cubed.runtime.Stage;
import io.cubed.runtime.TaskFunction;
import io.cubed.runtime.TaskResult;
import io.cubed.spark.internal.PartitionResults;
import io.cubed.spark.internal.StagePartitionFunction;
import io.cubed.spark.internal.TaskIndexFailure;
import io.cubed.spark.internal.TaskRange;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every class that travels to Spark executors survives Java serialization and still works afterwards. */
class SerializationTest {
    @TempDir
    Path tmp;

    @SuppressWarnings("unchecked")
    static <T extends Serializable> T roundTrip(T value) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test
    void partitionFunctionRunsItsRangesAfterARoundTrip() throws Exception {
        StagePartitionFunction f = roundTrip(new StagePartitionFunction("op-002", FileRecordingTask.recording(tmp)));
        assertThat(f.stageId()).isEqualTo("op-002");
        Iterator<TaskResult> it =
                f.call(List.of(new TaskRange(3, 5), new TaskRange(8, 9)).iterator());
        List<TaskResult> results = new ArrayList<>();
        it.forEachRemaining(results::add);
        assertThat(results).extracting(TaskResult::taskIndex).containsExactly(3L, 4L, 8L);
        assertThat(results).extracting(TaskResult::bytesWritten).containsExactly(6L, 8L, 16L);
        assertThat(results).allSatisfy(r -> {
            assertThat(r.stageId()).isEqualTo("op-002");
            assertThat(r.attempts())
                    .as("no TaskContext outside Spark: first attempt")
                    .isEqualTo(1);
        });
        assertThat(FileRecordingTask.attempts(tmp)).containsOnlyKeys(3L, 4L, 8L);
    }

    @Test
    void partitionResultsGathersAPartitionAfterARoundTrip() throws Exception {
        TaskResult a = new TaskResult("op-001", 3, 1, 10, 20, 30, 40, 50, -1);
        TaskResult b = new TaskResult("op-001", 4, 1, 11, 21, 31, 41, 51, -1);
        TaskResult[] got = roundTrip(new PartitionResults())
                .apply(
                        null,
                        scala.collection.JavaConverters.asScalaIterator(
                                List.of(a, b).iterator()));
        assertThat(got).containsExactly(a, b);
    }

    @Test
    void rangesFailuresAndResultsRoundTrip() throws Exception {
        assertThat(roundTrip(new TaskRange(7, 70))).isEqualTo(new TaskRange(7, 70));
        TaskIndexFailure f = roundTrip(new TaskIndexFailure("op-001", 4, new IllegalStateException("boom")));
        assertThat(f.taskIndex()).isEqualTo(4);
        assertThat(f).hasMessage("op-001 task 4: boom").hasCauseInstanceOf(IllegalStateException.class);
        TaskResult r = new TaskResult("op-001", 3, 2, 10, 20, 30, 40, 50, -1);
        assertThat(roundTrip(r)).isEqualTo(r);
    }

    @Test
    void testFunctionsRoundTrip() throws Exception {
        Chunk in = Chunk.wrap(DType.FLOAT64, new int[] {3}, new double[] {1, 2, 3});
        assertThat(roundTrip(new TestFunctions.Times(2))
                        .apply(new Chunk[] {in}, new long[] {0})
                        .doubles())
                .containsExactly(2, 4, 6);
        assertThat(roundTrip(new TestFunctions.Sum())
                        .apply(new Chunk[] {in, in}, new long[] {0})
                        .doubles())
                .containsExactly(2, 4, 6);
        assertThat(roundTrip(new BlockMatMul())).isEqualTo(new BlockMatMul());
        RendezvousTask t = new RendezvousTask(tmp.toString(), "a", "b", 5);
        assertThat(roundTrip(t)).isEqualTo(t);
    }

    /**
     * Runs every stage in order, each task with a copy of the stage's task function that went through Java
     * serialization, as Spark ships it; remembers the classes of the task functions it copied.
     */
    static final class RoundTripExecutor implements Executor {
        final Set<String> taskClasses = new ConcurrentSkipListSet<>();

        @Override
        public String name() {
            return "round-trip";
        }

        @Override
        public void execute(ExecutionPlan plan, List<Callback> callbacks) {
            for (Stage stage : plan.stages()) {
                TaskFunction copy;
                try {
                    copy = roundTrip(stage.task());
                } catch (IOException | ClassNotFoundException e) {
                    throw new AssertionError(stage.id() + " " + stage.description() + " does not serialize", e);
                }
                taskClasses.add(copy.getClass().getSimpleName());
                for (long i = 0; i < stage.numTasks(); i++) {
                    copy.run(i);
                }
            }
        }
    }

    @Test
    void theTaskFunctionsOfBlockwiseAndRechunkPlansWorkAfterARoundTrip() {
        RoundTripExecutor executor = new RoundTripExecutor();
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem(3000)
                .reservedMem(0)
                .executor(executor)
                .build();
        // (64, 64) float64 in rows, element (i, j) = 64 i + j: 2 x + 1 elementwise, then to columns in stages.
        Chunk xs = Chunk.allocate(DType.FLOAT64, 64, 64);
        for (int i = 0; i < xs.size(); i++) {
            xs.doubles()[i] = i;
        }
        // 32 kB of data is more than an in-task array may carry within this 3 kB budget: written to the work dir.
        CubedArray x = Cubed.fromArray(xs, spec, 1, 64);
        String in = tmp.resolve("x.zarr").toString();
        x.toZarr(in);
        CubedArray y = Manipulation.rechunk(
                Blockwise.mapBlocks(new TestFunctions.Affine(2, 1), DType.FLOAT64, Cubed.fromZarr(in, spec)), 64, 1);
        assertThat(y.explain()).contains("rechunk (stage 2/");
        Chunk got = y.compute();
        for (int i = 0; i < 64 * 64; i++) {
            assertThat(got.doubles()[i]).isEqualTo(2.0 * i + 1);
        }
        assertThat(executor.taskClasses).contains("BlockwiseTask");
    }
}
