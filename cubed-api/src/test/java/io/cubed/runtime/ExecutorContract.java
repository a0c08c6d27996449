package io.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.TaskFailedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link Executor} must do, run against each implementation by a subclass: stages in dependency order,
 * every task exactly once on success, retries, failure reporting, callbacks and task results. Task state lives in
 * files under a temporary directory, so the contract holds for executors whose tasks run in other JVMs (as long as
 * they see the directory).
 */
public abstract class ExecutorContract {
    @TempDir
    protected Path tmp;

    /** The executor under test. */
    protected abstract Executor executor();

    /** How many times the executor runs a task that keeps failing (at least 3 for these tests). */
    protected abstract int maxAttempts();

    protected Path dir(String name) {
        try {
            return Files.createDirectories(tmp.resolve(name));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Records every event it gets. */
    public static final class Recorder implements Callback {
        public final List<String> events = Collections.synchronizedList(new ArrayList<>());
        public final List<TaskResult> results = Collections.synchronizedList(new ArrayList<>());
        public final List<OperationEnd> operationEnds = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void onComputeStart(ComputeStart e) {
            events.add("start " + e.computeId() + " " + e.stages().size());
        }

        @Override
        public void onComputeEnd(ComputeEnd e) {
            events.add("end " + (e.failure() == null ? "ok" : "failed"));
        }

        @Override
        public void onOperationStart(OperationStart e) {
            events.add("op-start " + e.stage().id());
        }

        @Override
        public void onOperationEnd(OperationEnd e) {
            events.add("op-end " + e.stage().id());
            operationEnds.add(e);
        }

        @Override
        public void onTaskEnd(TaskEnd e) {
            results.add(e.result());
        }
    }

    @Test
    void runsEveryTaskOnceAndStagesInOrder() {
        Path a = dir("a");
        Path b = dir("b");
        Stage first = new Stage("op-001", "first", 50, FileRecordingTask.recording(a), 100, List.of());
        Stage second = new Stage(
                "op-002",
                "second",
                7,
                new FileRecordingTask(b.toString(), -1, 0, a.toString(), 50, 0),
                100,
                List.of("op-001"));
        Recorder rec = new Recorder();
        executor().execute(new ExecutionPlan("c1", List.of(first, second)), List.of(rec));
        Map<Long, Integer> runsA = FileRecordingTask.attempts(a);
        assertThat(runsA)
                .hasSize(50)
                .allSatisfy((k, v) -> assertThat(v).as("runs of task " + k).isEqualTo(1));
        assertThat(runsA.keySet()).allSatisfy(k -> assertThat(k).isBetween(0L, 49L));
        assertThat(FileRecordingTask.attempts(b)).hasSize(7).containsOnlyKeys(0L, 1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(rec.events)
                .containsExactly(
                        "start c1 2", "op-start op-001", "op-end op-001", "op-start op-002", "op-end op-002", "end ok");
        assertThat(rec.results).hasSize(57);
        assertThat(rec.results.stream()
                        .filter(r -> r.stageId().equals("op-001"))
                        .map(TaskResult::taskIndex))
                .containsExactlyInAnyOrderElementsOf(
                        java.util.stream.LongStream.range(0, 50).boxed().toList());
    }

    @Test
    void everyTaskEndIsReportedBeforeItsOperationEnds() {
        // The first task to finish is reported slowly, while the others finish in the meantime: the operation and
        // the computation must still end only after that report (a callback that counts tasks sees them all).
        Path a = dir("a");
        Stage s = new Stage("op-001", "slow report", 4, FileRecordingTask.recording(a), 100, List.of());
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);
        Callback slow = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd e) {
                if (first.getAndSet(false)) {
                    try {
                        Thread.sleep(600);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                    }
                }
                order.add("task " + e.result().taskIndex());
            }

            @Override
            public void onOperationEnd(OperationEnd e) {
                order.add("op-end");
            }

            @Override
            public void onComputeEnd(ComputeEnd e) {
                order.add("end");
            }
        };
        executor().execute(new ExecutionPlan("c-slow-report", List.of(s)), List.of(slow));
        assertThat(order).hasSize(6);
        assertThat(order.subList(0, 4)).allSatisfy(x -> assertThat(x).startsWith("task "));
        assertThat(order.subList(4, 6)).containsExactly("op-end", "end");
    }

    @Test
    void taskResultsCarryBytesTimesAndAllocation() {
        Path a = dir("a");
        Stage s = new Stage("op-001", "io", 12, FileRecordingTask.recording(a), 100, List.of());
        Recorder rec = new Recorder();
        long before = System.currentTimeMillis();
        executor().execute(new ExecutionPlan("c-results", List.of(s)), List.of(rec));
        long after = System.currentTimeMillis();
        TaskResult r =
                rec.results.stream().filter(x -> x.taskIndex() == 9).findFirst().orElseThrow();
        assertThat(r.stageId()).isEqualTo("op-001");
        assertThat(r.bytesRead()).isEqualTo(9);
        assertThat(r.bytesWritten()).isEqualTo(18);
        assertThat(r.attempts()).isEqualTo(1);
        assertThat(r.startMillis()).isBetween(before, after);
        assertThat(r.endMillis()).isBetween(r.startMillis(), after);
        assertThat(r.allocatedBytes()).as("HotSpot measures thread allocation").isGreaterThan(0);
        long[] recorded = FileRecordingTask.interval(a, 9);
        assertThat(recorded[0]).isBetween(r.startMillis(), r.endMillis());
        Callback.OperationEnd end = rec.operationEnds.get(0);
        assertThat(end.startMillis()).isLessThanOrEqualTo(r.startMillis());
        assertThat(end.endMillis()).isGreaterThanOrEqualTo(r.endMillis());
    }

    @Test
    void retriesAFailingTask() {
        Path a = dir("a");
        Stage s =
                new Stage("op-001", "flaky", 10, new FileRecordingTask(a.toString(), 3, 2, null, 0, 0), 100, List.of());
        Recorder rec = new Recorder();
        executor().execute(new ExecutionPlan("c2", List.of(s)), List.of(rec));
        Map<Long, Integer> attempts = FileRecordingTask.attempts(a);
        assertThat(attempts.get(3L)).isEqualTo(3);
        assertThat(FileRecordingTask.finishedTasks(a)).hasSize(10);
        assertThat(rec.results).hasSize(10);
        assertThat(rec.results.stream()
                        .filter(x -> x.taskIndex() == 3)
                        .findFirst()
                        .orElseThrow()
                        .attempts())
                .isEqualTo(3);
        assertThat(rec.events).containsExactly("start c2 1", "op-start op-001", "op-end op-001", "end ok");
    }

    @Test
    void failsWithTheOperationTaskAndCauseAfterAllAttempts() {
        Path a = dir("a");
        Path never = dir("never");
        int n = maxAttempts();
        Stage s = new Stage(
                "op-007",
                "mean (blockwise)",
                10,
                new FileRecordingTask(a.toString(), 4, 99, null, 0, 0),
                100,
                List.of());
        Stage after = new Stage("op-008", "never", 1, FileRecordingTask.recording(never), 1, List.of("op-007"));
        Recorder rec = new Recorder();
        assertThatThrownBy(() -> executor().execute(new ExecutionPlan("c3", List.of(s, after)), List.of(rec)))
                .isInstanceOf(TaskFailedException.class)
                .hasMessage("op-007 mean (blockwise): task 4 failed after " + n + " attempts: injected failure " + n)
                .satisfies(e -> {
                    TaskFailedException t = (TaskFailedException) e;
                    assertThat(t.stageId()).isEqualTo("op-007");
                    assertThat(t.taskIndex()).isEqualTo(4);
                    assertThat(t.attempts()).isEqualTo(n);
                });
        assertThat(FileRecordingTask.attempts(a).get(4L)).isEqualTo(n);
        assertThat(FileRecordingTask.attempts(never)).isEmpty();
        assertThat(rec.events).contains("end failed").doesNotContain("op-start op-008", "op-end op-007");
    }

    @Test
    void emptyStagesAndEmptyPlansComplete() {
        Path a = dir("a");
        Stage empty = new Stage("op-001", "empty", 0, FileRecordingTask.recording(a), 1, List.of());
        Recorder rec = new Recorder();
        executor().execute(new ExecutionPlan("c4", List.of(empty)), List.of(rec));
        assertThat(rec.events).containsExactly("start c4 1", "op-start op-001", "op-end op-001", "end ok");
        assertThat(rec.results).isEmpty();
        Recorder none = new Recorder();
        executor().execute(new ExecutionPlan("c5", List.of()), List.of(none));
        assertThat(none.events).containsExactly("start c5 0", "end ok");
    }

    @Test
    void aStageWaitsForAllItsDependencies() {
        Path a = dir("a");
        Path b = dir("b");
        Path c = dir("c");
        Stage sa = new Stage("op-001", "a", 5, FileRecordingTask.recording(a), 1, List.of());
        Stage sb = new Stage("op-002", "b", 3, FileRecordingTask.recording(b), 1, List.of());
        // c checks, in every task, that all 5 tasks of a are done; and it comes after b too.
        Stage sc = new Stage(
                "op-003",
                "c",
                4,
                new FileRecordingTask(c.toString(), -1, 0, a.toString(), 5, 0),
                1,
                List.of("op-001", "op-002"));
        Recorder rec = new Recorder();
        executor().execute(new ExecutionPlan("c6", List.of(sa, sb, sc)), List.of(rec));
        assertThat(FileRecordingTask.finishedTasks(c)).hasSize(4);
        long bEnd = 0;
        for (long i = 0; i < 3; i++) {
            bEnd = Math.max(bEnd, FileRecordingTask.interval(b, i)[1]);
        }
        for (long i = 0; i < 4; i++) {
            assertThat(FileRecordingTask.interval(c, i)[0]).isGreaterThanOrEqualTo(bEnd);
        }
        assertThat(rec.events.indexOf("op-start op-003"))
                .isGreaterThan(rec.events.indexOf("op-end op-001"))
                .isGreaterThan(rec.events.indexOf("op-end op-002"));
    }
}
