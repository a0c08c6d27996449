package io.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.TaskFailedException;
import io.cubed.storage.ChunkIo;
import io.cubed.storage.LatencyStore;
import io.cubed.storage.RequestStats;
import io.cubed.storage.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The in-process executor with store requests in flight ({@link ChunkIo}): a stage whose tasks each read one value
 * and write one, on a store that waits 100 ms per request.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LocalExecutorPipelineTest {
    private static final int TASKS = 40;

    /** Task {@code i} reads {@code in/i}, reverses its bytes and writes them to {@code out/i}. */
    static final class ReverseTask implements TaskFunction {
        private static final long serialVersionUID = 1L;
        private final transient Store store;
        final transient Set<Long> readAheadNamed = ConcurrentHashMap.newKeySet();

        ReverseTask(Store store) {
            this.store = store;
        }

        @Override
        public void readAhead(long taskIndex) {
            readAheadNamed.add(taskIndex);
            ChunkIo.readAhead(store, "in/" + taskIndex, 1000);
        }

        @Override
        public TaskIo run(long taskIndex) {
            ChunkIo.Fetched f = ChunkIo.takeAhead(store, "in/" + taskIndex);
            byte[] in = f != null ? f.bytes().array() : store.get("in/" + taskIndex);
            byte[] out = reverse(in);
            ChunkIo.put(store, "out/" + taskIndex, out, out.length);
            return new TaskIo(in.length, out.length);
        }
    }

    static byte[] input(long i) {
        byte[] b = new byte[800];
        for (int k = 0; k < b.length; k++) {
            b[k] = (byte) (i * 7 + k);
        }
        return b;
    }

    static byte[] reverse(byte[] in) {
        byte[] out = new byte[in.length];
        for (int k = 0; k < in.length; k++) {
            out[k] = in[in.length - 1 - k];
        }
        return out;
    }

    private static LatencyStore storeWithInputs() {
        LatencyStore store = LatencyStore.create(0, 16);
        for (int i = 0; i < TASKS; i++) {
            store.put("in/" + i, input(i));
        }
        return store;
    }

    private static List<Long> run(LocalExecutor executor, Stage stage) {
        List<Long> ended = java.util.Collections.synchronizedList(new ArrayList<>());
        executor.execute(new ExecutionPlan("c", List.of(stage)), List.of(new Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                ended.add(event.result().taskIndex());
            }
        }));
        return ended;
    }

    @Test
    void tasksKeepTheirReadsAndWritesInFlightAndEachValueIsReadAndWrittenOnce() {
        LatencyStore fast = storeWithInputs();
        LatencyStore store = latency(fast, 100);
        ReverseTask task = new ReverseTask(store);
        Stage stage = new Stage("op-001", "reverse", TASKS, task, 1 << 20, 0, List.of()).withIoBytes(64_000);
        store.stats.resetMax();
        RequestStats.Snapshot before = store.stats.snapshot();
        List<Long> ended = run(new LocalExecutor(2, 1), stage);
        RequestStats.Snapshot io = store.stats.snapshot().minus(before);

        assertThat(ended).containsExactlyInAnyOrderElementsOf(range(TASKS));
        for (int i = 0; i < TASKS; i++) {
            assertThat(fast.get("out/" + i)).as("out/" + i).isEqualTo(reverse(input(i)));
        }
        assertThat(io.count("GET")).as("one read per value").isEqualTo(TASKS);
        assertThat(io.count("PUT")).as("one write per value").isEqualTo(TASKS);
        // Two threads making one request at a time would have at most 2 in flight.
        assertThat(io.maxInFlight()).isGreaterThanOrEqualTo(8);
        assertThat(io.meanInFlight()).isGreaterThan(4);
        assertThat(task.readAheadNamed).hasSizeGreaterThan(TASKS / 2);
    }

    @Test
    void withoutRoomForRequestsTasksMakeTheirOwnOneAtATime() {
        LatencyStore fast = storeWithInputs();
        LatencyStore store = latency(fast, 20);
        ReverseTask task = new ReverseTask(store);
        store.stats.resetMax();
        run(new LocalExecutor(2, 1), new Stage("op-001", "reverse", TASKS, task, 1 << 20, List.of()));
        assertThat(task.readAheadNamed).isEmpty();
        assertThat(store.stats.snapshot().maxInFlight()).isLessThanOrEqualTo(2);
        for (int i = 0; i < TASKS; i++) {
            assertThat(fast.get("out/" + i)).isEqualTo(reverse(input(i)));
        }
    }

    @Test
    void aTaskWhoseWriteFailedOnceRunsAgainAndTheStageSucceeds() {
        LatencyStore fast = storeWithInputs();
        LatencyStore store = latency(fast, 10);
        store.failPutsOnce.add("out/5");
        Stage stage = new Stage("op-001", "reverse", TASKS, new ReverseTask(store), 1 << 20, 0, List.of())
                .withIoBytes(64_000);
        List<Long> ended = run(new LocalExecutor(2, 3, 1), stage);
        assertThat(ended).containsExactlyInAnyOrderElementsOf(range(TASKS));
        assertThat(fast.get("out/5")).isEqualTo(reverse(input(5)));
    }

    @Test
    void aWriteThatAlwaysFailsFailsTheStageNamingTheTaskAndTheKey() {
        LatencyStore fast = storeWithInputs();
        LatencyStore store = latency(fast, 10);
        store.failPuts.add("out/7");
        Stage stage = new Stage("op-001", "reverse", TASKS, new ReverseTask(store), 1 << 20, 0, List.of())
                .withIoBytes(64_000);
        assertThatThrownBy(() -> run(new LocalExecutor(2, 2, 1), stage))
                .isInstanceOf(TaskFailedException.class)
                .hasMessageContaining("task 7")
                .hasStackTraceContaining("out/7");
    }

    private static LatencyStore latency(LatencyStore withInputs, long millis) {
        return withInputs.withLatency(millis);
    }

    private static List<Long> range(int n) {
        List<Long> r = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            r.add(i);
        }
        return r;
    }
}
