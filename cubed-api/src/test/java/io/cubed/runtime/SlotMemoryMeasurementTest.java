package io.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.memory.HeapProbe;
import io.cubed.storage.ChunkIo;
import io.cubed.storage.Store;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The in-process executor's memory measurement on a stage whose slots keep store requests in flight: the reads started
 * ahead for the next tasks, completed on other threads, are inside the measured peak of the task that runs meanwhile.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SlotMemoryMeasurementTest {
    private static final int MB = 1 << 20;
    private static final int VALUE = 4 * MB;

    /** Every read is a fresh 4 MB array made 200 ms later on a timer thread, as a store client's thread makes it. */
    static final class SlowStore implements Store {
        private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "slow-store-timer");
            t.setDaemon(true);
            return t;
        });

        @Override
        public String uri() {
            return "slow://test";
        }

        @Override
        public int concurrency() {
            return 8;
        }

        @Override
        public boolean isObjectStore() {
            return true;
        }

        @Override
        public int requestOverheadBytes() {
            return 0; // no connection: the value is the whole request
        }

        @Override
        public byte[] get(String key) {
            return new byte[VALUE];
        }

        @Override
        public CompletableFuture<Bytes> getAsync(String key) {
            CompletableFuture<Bytes> f = new CompletableFuture<>();
            TIMER.schedule(() -> f.complete(new Bytes(new byte[VALUE], VALUE)), 200, TimeUnit.MILLISECONDS);
            return f;
        }

        @Override
        public byte[] getRange(String key, long offset, int length) {
            return new byte[length];
        }

        @Override
        public void put(String key, byte[] value) {}

        @Override
        public boolean exists(String key) {
            return true;
        }

        @Override
        public void delete(String key) {}

        @Override
        public void deletePrefix(String prefix) {}

        @Override
        public List<String> list(String prefix) {
            return List.of();
        }

        @Override
        public Store resolve(String path) {
            return this;
        }
    }

    /** Reads its value (taken from the read started ahead), waits until the slot's other reads have landed, checks. */
    static final class ReadingTask implements TaskFunction {
        private static final long serialVersionUID = 1L;
        private final transient Store store = new SlowStore();

        @Override
        public void readAhead(long taskIndex) {
            ChunkIo.readAhead(store, "k" + taskIndex, VALUE);
        }

        @Override
        public TaskIo run(long taskIndex) {
            ChunkIo.Fetched f = ChunkIo.takeAhead(store, "k" + taskIndex);
            byte[] mine = f == null ? store.get("k" + taskIndex) : f.bytes().array();
            try {
                Thread.sleep(600); // the reads started for the next tasks complete and wait to be taken
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            HeapProbe.checkpoint();
            java.lang.ref.Reference.reachabilityFence(mine);
            return new TaskIo(mine.length, 0);
        }
    }

    @Test
    void theReadsAheadOfTheNextTasksCountInTheMeasuredTasksPeak() {
        long projected = 100L * MB;
        long ioBytes = 64L * MB;
        Stage stage = new Stage("op-001", "reads", 8, new ReadingTask(), projected, List.of()).withIoBytes(ioBytes);
        Map<Long, TaskResult> results = new ConcurrentHashMap<>();
        new LocalExecutor(2, 1, 0)
                .withMemoryMeasurement(2)
                .execute(new ExecutionPlan("compute-test", List.of(stage)), List.of(new Callback() {
                    @Override
                    public void onTaskEnd(TaskEnd e) {
                        results.put(e.result().taskIndex(), e.result());
                    }
                }));

        assertThat(results).hasSize(8);
        for (long t = 0; t < 2; t++) {
            TaskResult r = results.get(t);
            assertThat(r.memoryMeasured()).as("task %d", t).isTrue();
            TaskResult.SlotRequests q = r.requests();
            assertThat(q).as("task %d", t).isNotNull();
            // The slot claims 4 of the 8 tasks at first (its share of 2 threads) and reads them ahead together: while
            // task 0 runs, the reads of tasks 1-3 are in flight and then held, 12 MB; while task 1 runs, those of 2
            // and 3 are held, landed during task 0.
            if (t == 0) {
                assertThat(q.maxInFlight()).isGreaterThan(1);
            }
            assertThat(q.heldAtPeakBytes()).as("task %d", t).isGreaterThanOrEqualTo(2L * VALUE);
            assertThat(q.maxHeldBytes()).as("task %d", t).isGreaterThanOrEqualTo(q.heldAtPeakBytes());
            assertThat(q.maxHeldBytes()).as("task %d", t).isLessThanOrEqualTo(ioBytes);
            // Its own value and what the slot's reads held, all measured (less the runtime's own objects of the
            // baseline that died meanwhile: a tolerance of 256 kB); within the projection, which counts them.
            assertThat(r.peakLiveBytes())
                    .as("task %d", t)
                    .isBetween(VALUE + q.heldAtPeakBytes() - 256 * 1024, projected);
        }
        for (long t = 2; t < 8; t++) {
            assertThat(results.get(t).memoryMeasured()).as("task %d", t).isFalse();
            assertThat(results.get(t).requests()).isNull();
        }
    }
}
