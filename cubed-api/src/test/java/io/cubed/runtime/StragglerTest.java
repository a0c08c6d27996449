package io.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Backup copies of straggling tasks on the in-process executor. */
class StragglerTest {
    /** Task 5's first copy hangs for a minute; every other run takes 10 ms. */
    static final class OneSlowTask implements TaskFunction {
        private static final long serialVersionUID = 1L;
        static final Map<Long, AtomicInteger> RUNS = new ConcurrentHashMap<>();

        @Override
        public TaskIo run(long index) {
            int run = RUNS.computeIfAbsent(index, k -> new AtomicInteger()).incrementAndGet();
            try {
                Thread.sleep(index == 5 && run == 1 ? 60_000 : 10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            return new TaskIo(index, 1);
        }
    }

    @Test
    void aStragglerGetsABackupCopyAndTheFirstToFinishCounts() {
        OneSlowTask.RUNS.clear();
        Stage stage = new Stage("op-001", "straggle", 12, new OneSlowTask(), 100, List.of());
        Map<Long, AtomicInteger> reported = new ConcurrentHashMap<>();
        Callback count = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                reported.computeIfAbsent(event.result().taskIndex(), k -> new AtomicInteger())
                        .incrementAndGet();
            }
        };
        long start = System.nanoTime();
        new LocalExecutor(2, 1, 0).execute(new ExecutionPlan("c-straggle", List.of(stage)), List.of(count));
        long millis = (System.nanoTime() - start) / 1_000_000;
        // The backup starts once the straggler has run 2 s (over 3 x the 10 ms median): far from the 60 s it takes.
        assertThat(millis).isBetween(LocalExecutor.STRAGGLER_MIN_MILLIS, 30_000L);
        assertThat(OneSlowTask.RUNS.get(5L).get()).isEqualTo(2);
        assertThat(reported).hasSize(12);
        assertThat(reported.values()).allSatisfy(c -> assertThat(c.get()).isEqualTo(1));
    }

    @Test
    void withoutBackupsEveryTaskRunsOnce() {
        OneSlowTask.RUNS.clear();
        TaskFunction quick = index -> new TaskIo(0, 0);
        Stage stage = new Stage("op-001", "quick", 40, quick, 100, List.of());
        AtomicInteger ends = new AtomicInteger();
        Callback count = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                ends.incrementAndGet();
            }
        };
        new LocalExecutor(2, 1, 0, false).execute(new ExecutionPlan("c-quick", List.of(stage)), List.of(count));
        assertThat(ends.get()).isEqualTo(40);
    }

    /** Task 5's first copy runs 2.6 s, past the backup's start at 2 s; records runs and releases in one sequence. */
    static final class RecordingTask implements TaskFunction {
        private static final long serialVersionUID = 1L;
        static final AtomicInteger CLOCK = new AtomicInteger();
        static final Map<Long, List<Integer>> RUN_ENDS = new ConcurrentHashMap<>();
        static final Map<Long, List<Integer>> RELEASES = new ConcurrentHashMap<>();

        @Override
        public TaskIo run(long index) {
            boolean firstOfFive = index == 5 && !STARTED_FIVE.getAndSet(true);
            try {
                Thread.sleep(firstOfFive ? 2_600 : 10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            RUN_ENDS.computeIfAbsent(index, k -> new java.util.concurrent.CopyOnWriteArrayList<>())
                    .add(CLOCK.incrementAndGet());
            return new TaskIo(0, 0);
        }

        static final java.util.concurrent.atomic.AtomicBoolean STARTED_FIVE =
                new java.util.concurrent.atomic.AtomicBoolean();

        @Override
        public void release(long index) {
            RELEASES.computeIfAbsent(index, k -> new java.util.concurrent.CopyOnWriteArrayList<>())
                    .add(CLOCK.incrementAndGet());
        }
    }

    @Test
    void eachTaskIsReleasedOnceAfterItsLastCopyHasEnded() throws InterruptedException {
        RecordingTask.RUN_ENDS.clear();
        RecordingTask.RELEASES.clear();
        RecordingTask.STARTED_FIVE.set(false);
        Stage stage = new Stage("op-001", "release", 12, new RecordingTask(), 100, List.of());
        new LocalExecutor(2, 1, 0).execute(new ExecutionPlan("c-release", List.of(stage)), List.of());
        // The stage ends with the backup of task 5; its first copy ends (or is interrupted) after that.
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!RecordingTask.RELEASES.containsKey(5L) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(RecordingTask.RUN_ENDS.get(5L)).hasSize(2);
        assertThat(RecordingTask.RELEASES).hasSize(12);
        for (long i = 0; i < 12; i++) {
            List<Integer> releases = RecordingTask.RELEASES.get(i);
            assertThat(releases).as("releases of task %d", i).hasSize(1);
            assertThat(RecordingTask.RUN_ENDS.get(i))
                    .as("ends of task %d's copies", i)
                    .allSatisfy(end -> assertThat(end).isLessThan(releases.get(0)));
        }
    }
}
