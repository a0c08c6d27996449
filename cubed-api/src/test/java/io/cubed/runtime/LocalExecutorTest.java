package io.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.TaskFailedException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LocalExecutorTest {
    /** Per-test shared state, keyed by a random id so tests do not see each other. */
    static final Map<String, Map<Long, AtomicInteger>> RUNS = new ConcurrentHashMap<>();

    /** Counts runs per task index and fails the first {@code failures} attempts of task {@code failing}. */
    record CountingTask(String key, long failing, int failures, String mustBeDoneKey, long mustBeDoneCount)
            implements TaskFunction {
        @Override
        public TaskIo run(long taskIndex) {
            if (mustBeDoneKey != null) {
                long done = RUNS.get(mustBeDoneKey).values().stream()
                        .filter(c -> c.get() > 0)
                        .count();
                if (done != mustBeDoneCount) {
                    throw new IllegalStateException("ran before its dependency finished");
                }
            }
            int attempt = RUNS.get(key)
                    .computeIfAbsent(taskIndex, k -> new AtomicInteger())
                    .incrementAndGet();
            if (taskIndex == failing && attempt <= failures) {
                throw new IllegalStateException("injected failure " + attempt);
            }
            return new TaskIo(taskIndex, 2 * taskIndex);
        }
    }

    private static String newKey() {
        String k = UUID.randomUUID().toString();
        RUNS.put(k, new ConcurrentHashMap<>());
        return k;
    }

    /** Records every event it gets. */
    static final class Recorder implements Callback {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());
        final List<TaskResult> results = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void onComputeStart(ComputeStart e) {
            events.add("start " + e.stages().size());
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
        }

        @Override
        public void onTaskEnd(TaskEnd e) {
            results.add(e.result());
        }
    }

    @Test
    void runsEveryTaskOnceAndStagesInOrder() {
        String a = newKey();
        String b = newKey();
        Stage first = new Stage("op-001", "first", 50, new CountingTask(a, -1, 0, null, 0), 100, List.of());
        Stage second = new Stage("op-002", "second", 7, new CountingTask(b, -1, 0, a, 50), 100, List.of("op-001"));
        Recorder rec = new Recorder();
        new LocalExecutor(4, 3).execute(new ExecutionPlan("c1", List.of(first, second)), List.of(rec));
        assertThat(RUNS.get(a)).hasSize(50).allSatisfy((k, v) -> assertThat(v.get())
                .isEqualTo(1));
        assertThat(RUNS.get(b)).hasSize(7);
        assertThat(rec.events)
                .containsExactly(
                        "start 2", "op-start op-001", "op-end op-001", "op-start op-002", "op-end op-002", "end ok");
        assertThat(rec.results).hasSize(57);
        TaskResult r = rec.results.stream()
                .filter(x -> x.stageId().equals("op-001") && x.taskIndex() == 9)
                .findFirst()
                .orElseThrow();
        assertThat(r.bytesRead()).isEqualTo(9);
        assertThat(r.bytesWritten()).isEqualTo(18);
        assertThat(r.attempts()).isEqualTo(1);
        assertThat(r.endMillis()).isGreaterThanOrEqualTo(r.startMillis());
        assertThat(r.allocatedBytes()).isGreaterThanOrEqualTo(0);
    }

    @Test
    void retriesAFailingTask() {
        String a = newKey();
        Stage s = new Stage("op-001", "flaky", 10, new CountingTask(a, 3, 2, null, 0), 100, List.of());
        Recorder rec = new Recorder();
        new LocalExecutor(2, 3, 0).execute(new ExecutionPlan("c2", List.of(s)), List.of(rec));
        assertThat(RUNS.get(a).get(3L).get()).isEqualTo(3);
        assertThat(rec.results.stream()
                        .filter(x -> x.taskIndex() == 3)
                        .findFirst()
                        .orElseThrow()
                        .attempts())
                .isEqualTo(3);
    }

    @Test
    void failsWithTheOperationTaskAndCauseAfterAllAttempts() {
        String a = newKey();
        Stage s = new Stage("op-007", "mean (blockwise)", 10, new CountingTask(a, 4, 99, null, 0), 100, List.of());
        Stage after = new Stage("op-008", "never", 1, new CountingTask(newKey(), -1, 0, null, 0), 1, List.of("op-007"));
        Recorder rec = new Recorder();
        assertThatThrownBy(() ->
                        new LocalExecutor(2, 3, 0).execute(new ExecutionPlan("c3", List.of(s, after)), List.of(rec)))
                .isInstanceOf(TaskFailedException.class)
                .hasMessage("op-007 mean (blockwise): task 4 failed after 3 attempts: injected failure 3");
        assertThat(RUNS.get(a).get(4L).get()).isEqualTo(3);
        assertThat(rec.events).contains("end failed").doesNotContain("op-start op-008");
    }

    @Test
    void planOrderAndArgumentsAreChecked() {
        Stage s = new Stage("op-002", "x", 1, i -> TaskIo.NONE, 1, List.of("op-001"));
        assertThatThrownBy(() -> new ExecutionPlan("c", List.of(s)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("op-002 depends on op-001");
        assertThatThrownBy(() -> new LocalExecutor(0, 3)).hasMessageContaining("at least 1 thread");
    }

    @Test
    void progressBarDrawsTheOperation() {
        Stage s = new Stage("op-003", "add (blockwise)", 70, i -> TaskIo.NONE, 1, List.of());
        assertThat(ProgressBar.line(s, 28)).isEqualTo("op-003 add (blockwise) [############                  ] 28/70");
    }
}
