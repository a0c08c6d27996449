package io.cubed.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.StorageException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChunkIoTest {
    private static byte[] value(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i);
        }
        return b;
    }

    @Test
    void readsNamedAheadAreInFlightTogetherAndTakenWithTheirValues() {
        LatencyStore store = LatencyStore.create(200, 8);
        for (int i = 0; i < 8; i++) {
            store.put("k" + i, value(1000, i));
        }
        ChunkIo io = new ChunkIo(1 << 20);
        long start = System.nanoTime();
        for (int t = 0; t < 8; t++) {
            int task = t;
            assertThat(io.readAheadFor(task, () -> io.read(store, "k" + task, 1000)))
                    .isEqualTo(1);
        }
        for (int t = 0; t < 8; t++) {
            ChunkIo.Fetched f = io.take(store, "k" + t);
            assertThat(f).isNotNull();
            assertThat(f.bytes().array()).isEqualTo(value(1000, t));
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        // One after another they would take 8 x 200 ms; in flight together, about one latency.
        assertThat(millis).isLessThan(8 * 200 / 2);
        assertThat(store.stats.snapshot().maxInFlight()).isEqualTo(8);
        assertThat(io.heldBytes()).isZero();
        assertThat(io.counts()).containsExactly(8, 8, 0);
    }

    /**
     * A read named for a task only once what it reads is known (a shard's inner chunks, once the shard's index is
     * there) starts before the reads of the tasks named after it, though they were queued first: the slot runs its
     * tasks in order, and the earlier task would otherwise find its read not started and make it itself.
     */
    @Test
    void aReadNamedLateForAnEarlierTaskStartsBeforeThoseOfLaterTasks() throws Exception {
        LatencyStore store = LatencyStore.create(50, 4);
        store.put("shard", value(4000, 7));
        for (int i = 1; i <= 3; i++) {
            store.put("k" + i, value(1000, i));
        }
        // Room for one read in flight: the others wait, in the order they will start.
        ChunkIo io = new ChunkIo(1000 + store.requestOverheadBytes());
        CompletableFuture<java.util.List<Store.Range>> ranges = new CompletableFuture<>();
        try (ChunkIo.Binding bound = io.bind()) {
            assertThat(io.readAheadFor(0, () -> ChunkIo.readRangesAheadLater(store, "shard", ranges, r -> r)))
                    .isEqualTo(1);
            for (int t = 1; t <= 3; t++) {
                int task = t;
                io.readAheadFor(task, () -> io.read(store, "k" + task, 1000));
            }
            assertThat(io.waitingTasks()).containsExactly(2L, 3L);
            ranges.complete(java.util.List.of(new Store.Range(1000, 500)));
            assertThat(io.waitingTasks()).containsExactly(0L, 2L, 3L);
            // Task 0 runs first: its range, waiting, is its own to read; the others are taken as they land.
            ChunkIo.Fetched first = ChunkIo.takeRangeAhead(store, "shard", 1000, 500);
            assertThat(first).isNull();
            io.finishTask(0).get();
            for (int t = 1; t <= 3; t++) {
                assertThat(io.take(store, "k" + t).bytes().array()).isEqualTo(value(1000, t));
                io.finishTask(t).get();
            }
        }
        assertThat(io.heldBytes()).isZero();
    }

    /**
     * The ranges of one value a task names (the inner chunks of a shard that its input chunks lie in) that follow one
     * another are read with one request, and each is taken on its own, with its own bytes; a range apart from them
     * is a request of its own (no byte is read in vain).
     */
    @Test
    void aTasksRangesThatFollowOneAnotherAreReadWithOneRequest() {
        LatencyStore store = LatencyStore.create(20, 8);
        byte[] shard = value(5000, 3);
        store.put("shard", shard);
        store.stats.resetMax();
        long getsBefore = store.stats.snapshot().count("GET");
        ChunkIo io = new ChunkIo(1 << 20);
        try (ChunkIo.Binding bound = io.bind()) {
            assertThat(io.readAheadFor(0, () -> {
                        ChunkIo.readRangeAhead(store, "shard", 1000, 500);
                        ChunkIo.readRangeAhead(store, "shard", 4000, 700);
                        ChunkIo.readRangeAhead(store, "shard", 0, 1000);
                    }))
                    .isEqualTo(2);
            io.running(0);
            assertThat(ChunkIo.takeRangeAhead(store, "shard", 4000, 700).bytes().array())
                    .isEqualTo(java.util.Arrays.copyOfRange(shard, 4000, 4700));
            assertThat(ChunkIo.takeRangeAhead(store, "shard", 0, 1000).bytes().array())
                    .isEqualTo(java.util.Arrays.copyOfRange(shard, 0, 1000));
            // Held until its last part is taken: the two parts' request of 1500 bytes, and the request's overhead.
            assertThat(io.heldBytes()).isEqualTo(1500);
            assertThat(ChunkIo.takeRangeAhead(store, "shard", 1000, 500).bytes().array())
                    .isEqualTo(java.util.Arrays.copyOfRange(shard, 1000, 1500));
            assertThat(ChunkIo.takeRangeAhead(store, "shard", 1000, 500)).isNull();
            io.finishTask(0).join();
        }
        assertThat(store.stats.snapshot().count("GET") - getsBefore).isEqualTo(2);
        assertThat(io.heldBytes()).isZero();
        assertThat(io.counts()).containsExactly(2, 2, 0);
    }

    /** A future whose dependents run only when {@link #runDependents} is called: a completion not yet seen. */
    private static final class LateDependents<T> extends CompletableFuture<T> {
        private final java.util.List<Runnable> dependents = new java.util.ArrayList<>();

        @Override
        public CompletableFuture<T> whenComplete(java.util.function.BiConsumer<? super T, ? super Throwable> action) {
            dependents.add(() -> action.accept(join(), null));
            return this;
        }

        void runDependents() {
            dependents.forEach(Runnable::run);
        }
    }

    /**
     * A task named before its shard's index had landed runs, waits for the index itself, and looks for its ranges
     * before the thread that completed the index has named them: it finds them, named on its own thread (with the
     * ranges of its other chunks of the shard, read together).
     */
    @Test
    void aRunningTaskFindsTheRangesOfAnIndexItWaitedFor() {
        LatencyStore store = LatencyStore.create(20, 8);
        byte[] shard = value(3000, 5);
        store.put("shard", shard);
        long getsBefore = store.stats.snapshot().count("GET");
        LateDependents<String> index = new LateDependents<>();
        ChunkIo io = new ChunkIo(1 << 20);
        try (ChunkIo.Binding bound = io.bind()) {
            io.readAheadFor(0, () -> {
                ChunkIo.readRangesAheadLater(store, "shard", index, i -> java.util.List.of(new Store.Range(0, 1000)));
                ChunkIo.readRangesAheadLater(
                        store, "shard", index, i -> java.util.List.of(new Store.Range(1000, 1000)));
            });
            io.running(0);
            index.complete("the index");
            assertThat(ChunkIo.takeRangeAhead(store, "shard", 1000, 1000)
                            .bytes()
                            .array())
                    .isEqualTo(java.util.Arrays.copyOfRange(shard, 1000, 2000));
            assertThat(ChunkIo.takeRangeAhead(store, "shard", 0, 1000).bytes().array())
                    .isEqualTo(java.util.Arrays.copyOfRange(shard, 0, 1000));
            // The completing thread comes late: nothing is left for it to name.
            index.runDependents();
            io.finishTask(0).join();
        }
        assertThat(store.stats.snapshot().count("GET") - getsBefore).isEqualTo(1);
        assertThat(io.heldBytes()).isZero();
    }

    /**
     * A range the running task looked for before its index landed, and so read itself, is not read ahead once the
     * index lands; its other ranges are.
     */
    @Test
    void aRangeTheRunningTaskReadItselfIsNotReadAgain() {
        LatencyStore store = LatencyStore.create(20, 8);
        byte[] shard = value(3000, 9);
        store.put("shard", shard);
        long getsBefore = store.stats.snapshot().count("GET");
        CompletableFuture<String> index = new CompletableFuture<>();
        ChunkIo io = new ChunkIo(1 << 20);
        try (ChunkIo.Binding bound = io.bind()) {
            io.readAheadFor(
                    0,
                    () -> ChunkIo.readRangesAheadLater(
                            store,
                            "shard",
                            index,
                            i -> java.util.List.of(new Store.Range(0, 1000), new Store.Range(2000, 1000))));
            io.running(0);
            assertThat(ChunkIo.takeRangeAhead(store, "shard", 0, 1000)).isNull();
            index.complete("the index");
            assertThat(ChunkIo.takeRangeAhead(store, "shard", 2000, 1000)
                            .bytes()
                            .array())
                    .isEqualTo(java.util.Arrays.copyOfRange(shard, 2000, 3000));
            io.finishTask(0).join();
        }
        assertThat(store.stats.snapshot().count("GET") - getsBefore).isEqualTo(1);
        assertThat(io.heldBytes()).isZero();
    }

    @Test
    void theStoresConcurrencyAndTheBudgetBoundWhatIsInFlight() {
        LatencyStore store = LatencyStore.create(50, 3);
        for (int i = 0; i < 12; i++) {
            store.put("k" + i, value(1000, i));
        }
        store.stats.resetMax();
        // Room for 5 values of 1000 bytes, but 3 requests in flight at most.
        ChunkIo io = new ChunkIo(5000);
        io.readAheadFor(0, () -> {
            for (int i = 0; i < 12; i++) {
                io.read(store, "k" + i, 1000);
            }
        });
        assertThat(io.heldBytes()).isLessThanOrEqualTo(3000);
        assertThat(io.hasRoom()).isFalse();
        for (int i = 0; i < 12; i++) {
            assertThat(io.take(store, "k" + i).bytes().array()).isEqualTo(value(1000, i));
            assertThat(io.heldBytes()).isLessThanOrEqualTo(5000);
        }
        assertThat(store.stats.snapshot().maxInFlight()).isEqualTo(3);
        assertThat(store.stats.snapshot().count("GET")).isEqualTo(12);
    }

    /**
     * Runs {@code n} tasks of one chunk each as an executor's slot does (naming the next tasks' reads while the slot has
     * room, taking each task's chunk, computing for {@code computeMillis}); returns the bytes the slot held as each task
     * took its chunk.
     */
    private static long[] runTasks(ChunkIo io, LatencyStore store, int n, int size, int computeMillis)
            throws Exception {
        long[] held = new long[n];
        int next = 0;
        for (int t = 0; t < n; t++) {
            while (next < n && io.hasRoom()) {
                int task = next++;
                io.readAheadFor(task, () -> io.read(store, "k" + task, size));
            }
            held[t] = io.heldBytes();
            ChunkIo.Fetched f = io.take(store, "k" + t);
            byte[] got = f == null ? store.get("k" + t) : f.bytes().array();
            assertThat(got).as("task %d", t).isEqualTo(value(size, t));
            Thread.sleep(computeMillis);
            io.finishTask(t).get();
        }
        return held;
    }

    @Test
    void theWindowOpensToTheConcurrencyWhenTasksWaitForTheirReads() throws Exception {
        LatencyStore store = LatencyStore.create(60, 16);
        for (int i = 0; i < 64; i++) {
            store.put("k" + i, value(1000, i));
        }
        store.stats.resetMax();
        ChunkIo io = new ChunkIo(1 << 20);
        long start = System.nanoTime();
        runTasks(io, store, 64, 1000, 0);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(io.window(store)[1]).as("widest window").isEqualTo(16);
        assertThat(store.stats.snapshot().maxInFlight()).isEqualTo(16);
        // 64 reads of 60 ms: one at a time 3.8 s; 16 at a time about 4 latencies, plus the first ones' ramp.
        assertThat(millis).isLessThan(64 * 60 / 4);
        assertThat(store.stats.snapshot().count("GET")).isEqualTo(64);
        assertThat(io.heldBytes()).isZero();
    }

    @Test
    void theWindowNarrowsWhenReadsLandBeforeTheTasksWantThem() throws Exception {
        LatencyStore store = LatencyStore.create(1, 32);
        int size = 10_000;
        for (int i = 0; i < 60; i++) {
            store.put("k" + i, value(size, i));
        }
        ChunkIo io = new ChunkIo(1 << 20);
        // Each task computes 10 ms, ten times a read's latency: reads land long before they are wanted.
        long[] held = runTasks(io, store, 60, size, 10);
        // The first task waits for its read (nothing was read before it) and widens the window once; then it narrows.
        assertThat(io.window(store)[0]).as("window after 60 tasks").isEqualTo(ChunkIo.MIN_WINDOW);
        // Once narrowed, the slot holds the window's chunks, not the first window's 8 nor the concurrency's 32.
        for (int t = 30; t < 60; t++) {
            assertThat(held[t])
                    .as("held as task %d took its chunk", t)
                    .isLessThanOrEqualTo(ChunkIo.MIN_WINDOW * (long) size);
        }
        assertThat(held[1]).as("held at the start").isGreaterThan(ChunkIo.MIN_WINDOW * (long) size);
        assertThat(store.stats.snapshot().count("GET")).isEqualTo(60);
    }

    @Test
    void aMissingValueIsFetchedAsNullAndAKeyNeverNamedIsNotFetched() {
        LatencyStore store = LatencyStore.create(1, 4);
        ChunkIo io = new ChunkIo(1 << 20);
        io.readAheadFor(0, () -> io.read(store, "missing", 100));
        ChunkIo.Fetched f = io.take(store, "missing");
        assertThat(f).isNotNull();
        assertThat(f.bytes()).isNull();
        assertThat(io.take(store, "never-named")).isNull();
        assertThat(io.take(store, "missing")).as("taken once").isNull();
    }

    @Test
    void storesOfConcurrencyOneAreLeftToTheTasksThread() {
        LatencyStore local = LatencyStore.create(1, 1);
        ChunkIo io = new ChunkIo(1 << 20);
        assertThat(io.serves(local)).isFalse();
        assertThat(io.readAheadFor(0, () -> io.read(local, "k", 10))).isZero();
        assertThat(io.write(local, "k", new byte[10], 10)).isFalse();
        assertThat(local.stats.snapshot().total()).isZero();
        assertThat(new ChunkIo(0).serves(LatencyStore.create(1, 8))).isFalse();
    }

    @Test
    void readsATaskNeverTookAreDroppedWhenItFinishes() throws Exception {
        LatencyStore store = LatencyStore.create(100, 4);
        store.put("a", value(500, 1));
        store.put("b", value(500, 2));
        ChunkIo io = new ChunkIo(10_000);
        io.readAheadFor(7, () -> {
            io.read(store, "a", 500);
            io.read(store, "b", 500);
        });
        assertThat(io.take(store, "a").bytes().array()).isEqualTo(value(500, 1));
        io.finishTask(7).get();
        // "b" is still in flight: its bytes are released when it lands, and nobody can take it.
        Thread.sleep(300);
        assertThat(io.heldBytes()).isZero();
        assertThat(io.take(store, "b")).isNull();
    }

    @Test
    void writesGoBehindTheTaskAndItsFutureCompletesWhenTheyHaveLanded() throws Exception {
        LatencyStore store = LatencyStore.create(200, 8);
        ChunkIo io = new ChunkIo(1 << 20);
        io.running(3);
        long start = System.nanoTime();
        byte[] buffer = value(1000, 5);
        for (int i = 0; i < 6; i++) {
            assertThat(io.write(store, "w" + i, buffer, 900)).isTrue();
        }
        // The caller's buffer is its own again at once: the slot copied the bytes.
        java.util.Arrays.fill(buffer, (byte) 0);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(150);
        CompletableFuture<Void> done = io.finishTask(3);
        done.get();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(6 * 200 / 2);
        for (int i = 0; i < 6; i++) {
            assertThat(store.get("w" + i)).isEqualTo(java.util.Arrays.copyOf(value(1000, 5), 900));
        }
        assertThat(io.heldBytes()).isZero();
    }

    @Test
    void writesKeepToTheStoresConcurrencyToo() throws Exception {
        LatencyStore store = LatencyStore.create(50, 2);
        ChunkIo io = new ChunkIo(1 << 20);
        io.running(1);
        for (int i = 0; i < 6; i++) {
            assertThat(io.write(store, "w" + i, new byte[100], 100)).isTrue();
        }
        io.finishTask(1).get();
        assertThat(store.stats.snapshot().maxInFlight()).isEqualTo(2);
        assertThat(store.stats.snapshot().count("PUT")).isEqualTo(6);
    }

    @Test
    void eachRequestInFlightAlsoHoldsItsOverheadUntilItEnds() throws Exception {
        // Values of 1000 bytes, requests that hold 1000 more while in flight (a connection's buffer).
        LatencyStore store = LatencyStore.create(200, 8).withRequestOverhead(1000);
        for (int i = 0; i < 6; i++) {
            store.put("k" + i, value(1000, i));
        }
        ChunkIo io = new ChunkIo(6000);
        io.readAheadFor(0, () -> {
            for (int i = 0; i < 6; i++) {
                io.read(store, "k" + i, 1000);
            }
        });
        // 2000 bytes each while in flight: 3 fit the budget, not the 8 the store allows.
        assertThat(io.requestsInFlight()).isEqualTo(3);
        assertThat(io.heldBytes()).isEqualTo(3 * 2000);
        for (int i = 0; i < 6; i++) {
            assertThat(io.take(store, "k" + i).bytes().array()).isEqualTo(value(1000, i));
            assertThat(io.heldBytes()).isLessThanOrEqualTo(6000);
        }
        ChunkIo.Peak reads = io.takePeak();
        assertThat(reads.requests()).isEqualTo(3);
        assertThat(reads.heldBytes()).isEqualTo(6000);
        assertThat(io.heldBytes()).isZero();

        // A write of 1000 bytes holds 2000 until it lands: with 3000, one at a time.
        ChunkIo writes = new ChunkIo(3000);
        writes.running(1);
        for (int i = 0; i < 3; i++) {
            assertThat(writes.write(store, "w" + i, new byte[1000], 1000)).isTrue();
        }
        writes.finishTask(1).get();
        assertThat(writes.takePeak()).isEqualTo(new ChunkIo.Peak(1, 2000));
        assertThat(writes.heldBytes()).isZero();
    }

    @Test
    void aFailedWriteFailsItsTasksFutureNamingTheKey() {
        LatencyStore store = LatencyStore.create(10, 4);
        store.failPuts.add("bad");
        ChunkIo io = new ChunkIo(1 << 20);
        io.running(1);
        assertThat(io.write(store, "good", new byte[10], 10)).isTrue();
        assertThat(io.write(store, "bad", new byte[10], 10)).isTrue();
        assertThatThrownBy(() -> io.finishTask(1).join())
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(StorageException.class)
                .hasMessageContaining("'bad'");
        assertThat(io.finishTask(2).isDone()).as("a task with no writes").isTrue();
    }

    @Test
    void aWriteLargerThanTheRoomLeftIsMadeByTheCaller() {
        LatencyStore store = LatencyStore.create(1, 4);
        ChunkIo io = new ChunkIo(100);
        assertThat(io.write(store, "big", new byte[101], 101)).isFalse();
        assertThat(io.write(store, "fits", new byte[100], 100)).isTrue();
    }

    @Test
    void aFailedReadIsThrownByTake() {
        Store failing = new LatencyStoreFailingGets();
        ChunkIo io = new ChunkIo(1 << 20);
        io.readAheadFor(0, () -> io.read(failing, "k", 10));
        assertThatThrownBy(() -> io.take(failing, "k"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("no reads here");
        assertThat(io.heldBytes()).isZero();
    }

    /** A store whose asynchronous reads fail. */
    private static final class LatencyStoreFailingGets implements Store {
        @Override
        public String uri() {
            return "memory://failing";
        }

        @Override
        public int concurrency() {
            return 4;
        }

        @Override
        public byte[] get(String key) {
            throw new StorageException("no reads here: " + key);
        }

        @Override
        public byte[] getRange(String key, long offset, int length) {
            throw new StorageException("no reads here");
        }

        @Override
        public void put(String key, byte[] value) {}

        @Override
        public boolean exists(String key) {
            return false;
        }

        @Override
        public void delete(String key) {}

        @Override
        public void deletePrefix(String prefix) {}

        @Override
        public java.util.List<String> list(String prefix) {
            return java.util.List.of();
        }

        @Override
        public Store resolve(String path) {
            return this;
        }
    }
}
