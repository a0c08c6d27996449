package io.cubed.storage;

import io.cubed.error.StorageException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The store requests of one task slot (a thread of the in-process executor, a Spark task), kept in flight together:
 * the reads of the chunks the next tasks will take, started before those tasks run, and the writes of the chunks the
 * last tasks made, finished while the next ones compute. On an object store each request waits tens of milliseconds
 * for the network; a slot that makes them one at a time waits for each in turn, a slot that keeps many in flight
 * waits about once for all of them.
 *
 * <p>Bounds: at most {@link Store#concurrency()} requests in flight per store, and at most {@code budgetBytes} held by
 * the requests of the slot — a read holds the chunk's raw size from its start until its task takes the bytes (a
 * compressed chunk is at most that), a write its bytes until the store has them, and each request in flight its own
 * overhead besides ({@link Store#requestOverheadBytes}: its connection's buffers). The budget is the memory the plan
 * gives the slot beyond its task's projection ({@code Stage#ioBytes}), so the slot's memory stays within {@code
 * allowedMem}. Stores whose concurrency is 1 (local disk, memory) are left alone: their reads and writes happen on the
 * task's thread, as without a slot.
 *
 * <p>How far ahead: reads started and not yet taken are at most a window per store, which follows what the tasks
 * need: it starts at {@value #FIRST_WINDOW} (or the store's concurrency, if lower), doubles each time a task has to
 * wait for a read (or finds it not started), up to the store's concurrency, and shrinks by one each time a task takes
 * a read while at least half the window lies read and waiting (never below {@value #MIN_WINDOW}). At tens of
 * milliseconds per request the tasks wait and the window opens to the concurrency within a few reads; where requests
 * return before the tasks want them (a store next door, a slow computation) it stays small, and the slot holds a
 * few chunks instead of a concurrency's worth, which the collector would otherwise copy at every pause.
 *
 * <p>How it is used: an executor makes one per slot and {@linkplain #bind binds} it to the thread that runs the slot's
 * tasks; it asks each coming task to {@linkplain #readAheadFor name the reads} it will make; a chunk store reading a
 * chunk first {@linkplain #take takes} a read started for it, and writing a chunk {@linkplain #write hands it over};
 * once a task has run, the executor waits for {@linkplain #finishTask its writes} before it counts the task done. A
 * read never taken (a task that skipped its chunks) is dropped when its task finishes. Thread-safe: requests complete
 * on other threads.
 */
public final class ChunkIo {
    private static final ThreadLocal<ChunkIo> CURRENT = new ThreadLocal<>();
    /** The window of reads ahead per store at the start. */
    static final int FIRST_WINDOW = 8;
    /** The smallest window. */
    static final int MIN_WINDOW = 2;

    private final long budgetBytes;
    /** Bytes held by requests started and not yet taken (reads) or not yet done (writes). Guarded by this. */
    private long heldBytes;
    /** The requests of each store, by identity. Guarded by this. */
    private final Map<Store, Lane> lanes = new IdentityHashMap<>();
    /** Reads not yet taken, by store URI and key, oldest first. Guarded by this. */
    private final Map<String, ArrayDeque<Read>> reads = new HashMap<>();
    /**
     * Reads waiting for room to start, by their task (the order the slot runs its tasks in), then oldest first: a read
     * named late for an early task (a shard's inner chunks, once its index is there) starts before those of later
     * tasks. Guarded by this.
     */
    private final java.util.PriorityQueue<Read> waiting = new java.util.PriorityQueue<>(
            java.util.Comparator.comparingLong((Read r) -> r.task).thenComparingLong(r -> r.seq));
    /** Reads made so far: the order of reads of one task. Guarded by this. */
    private long readSeq;
    /** Writes made by each task whose writes the executor has not yet collected. Guarded by this. */
    private final Map<Long, List<CompletableFuture<Void>>> writes = new HashMap<>();
    /** The task whose reads are being named or which is running (its writes), or -1. Guarded by this. */
    private long owner = -1;

    private long readsStarted;
    private long readsTaken;
    private long writesBehind;
    /** Requests in flight on all stores, and the most of them and of {@link #heldBytes} since {@link #takePeak}. */
    private int requests;

    private int peakRequests;
    private long peakHeldBytes;

    /** A store's requests through this slot. Guarded by the slot. */
    private static final class Lane {
        /** Reads and writes in flight. */
        int inFlight;
        /** Reads started and not yet taken or dropped, in flight or landed. */
        int ahead;
        /** Of those, the ones that have landed. */
        int landed;
        /** How many reads may be ahead. */
        int window;
        /** The largest window so far. */
        int maxWindow;
        /** The store's concurrency: the widest window. */
        final int concurrency;

        Lane(int concurrency) {
            this.concurrency = Math.max(1, concurrency);
            window = Math.min(FIRST_WINDOW, this.concurrency);
            maxWindow = window;
        }
    }

    private Lane lane(Store store) {
        return lanes.computeIfAbsent(store, s -> new Lane(s.concurrency()));
    }

    /** A read started, or waiting to start, for task {@link #task}. */
    private final class Read {
        final Store store;
        final String key;
        final long task;
        /**
         * Bytes held for it: its capacity and the request's overhead until it completes, then its length; 0 once
         * released.
         */
        long held;
        /** Counted in its lane's {@code ahead} (started, not yet taken or dropped). */
        boolean ahead;
        /** Landed while ahead: counted in its lane's {@code landed}. */
        boolean landed;

        CompletableFuture<Store.Bytes> future;
        boolean dropped;
        /** A ranged read's first byte and length; a length of -1 reads the whole value. */
        long offset;

        int length = -1;
        /** Its place among the slot's reads ({@link #readSeq}). */
        final long seq;

        Read(Store store, String key, long task, long held) {
            this.store = store;
            this.key = key;
            this.task = task;
            this.held = held;
            this.seq = readSeq++;
        }
    }

    /** A slot that holds at most {@code budgetBytes} in requests. */
    public ChunkIo(long budgetBytes) {
        this.budgetBytes = Math.max(0, budgetBytes);
    }

    /** The slot bound to the current thread, or null. */
    public static ChunkIo current() {
        return CURRENT.get();
    }

    /** An undoable binding of a slot to a thread. */
    public interface Binding extends AutoCloseable {
        @Override
        void close();
    }

    /** Binds this slot to the current thread until the binding is closed (which restores any slot bound before). */
    public Binding bind() {
        ChunkIo previous = CURRENT.get();
        CURRENT.set(this);
        return () -> {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        };
    }

    /**
     * Starts reading {@code key} of {@code store} ahead through the slot bound to this thread, if any ({@link #read}).
     */
    public static void readAhead(Store store, String key, int capacityBytes) {
        ChunkIo io = CURRENT.get();
        if (io != null) {
            io.read(store, key, capacityBytes);
        }
    }

    /**
     * Whether requests on {@code store} go through the slot bound to this thread ({@link #serves}): reads started
     * ahead and writes behind the task, which a caller's own path to the store must leave to it.
     */
    public static boolean servesCurrent(Store store) {
        ChunkIo io = CURRENT.get();
        return io != null && io.serves(store);
    }

    /** The read of {@code key} started ahead by the slot bound to this thread ({@link #take}), or null. */
    public static Fetched takeAhead(Store store, String key) {
        ChunkIo io = CURRENT.get();
        return io == null ? null : io.take(store, key);
    }

    /**
     * Writes the first {@code length} bytes of {@code value} to {@code key} of {@code store}: behind the running task
     * through the slot bound to this thread when it takes it ({@link #write}), else now on this thread.
     */
    public static void put(Store store, String key, byte[] value, int length) {
        ChunkIo io = CURRENT.get();
        if (io == null || !io.write(store, key, value, length)) {
            store.put(key, value, length);
        }
    }

    /** Bytes this slot may hold in requests. */
    public long budgetBytes() {
        return budgetBytes;
    }

    /** True when requests on {@code store} go through this slot (its concurrency is above 1). */
    public boolean serves(Store store) {
        return store.concurrency() > 1 && budgetBytes > 0;
    }

    /**
     * Runs {@code naming} (which calls {@link #read} for the chunks task {@code task} will read) with the reads it names
     * belonging to that task; returns how many it named on stores this slot serves.
     */
    public int readAheadFor(long task, Runnable naming) {
        long previous;
        int before;
        synchronized (this) {
            previous = owner;
            owner = task;
            named.add(task);
            before = (int) (readsStarted + deferred) + waiting.size();
        }
        try {
            naming.run();
        } finally {
            synchronized (this) {
                owner = previous;
            }
        }
        synchronized (this) {
            return (int) (readsStarted + deferred) + waiting.size() - before;
        }
    }

    /** Tasks named ({@link #readAheadFor}) that have not started running. Guarded by this. */
    private final java.util.Set<Long> named = new java.util.HashSet<>();
    /** Names of reads whose ranges were not yet known ({@link #readRangesAheadLater}). Guarded by this. */
    private long deferred;

    /**
     * Starts reading ahead, for the task being named, ranges of {@code key} of {@code store} that are known only once
     * {@code ranges} completes (a shard's inner chunks, once its index is read): then each is read as by {@link
     * #readRange}, unless the task has started running by then (it reads them itself). Counts as a read named.
     */
    public static void readRangesAheadLater(Store store, String key, CompletableFuture<List<Store.Range>> ranges) {
        ChunkIo io = CURRENT.get();
        if (io == null || !io.serves(store)) {
            return;
        }
        long task;
        synchronized (io) {
            task = io.owner;
            io.deferred++;
        }
        ranges.thenAccept(list -> {
            for (Store.Range r : list) {
                io.readRange(store, key, r.offset(), r.length(), task, true);
            }
        });
    }

    /**
     * Starts reading {@code key} of {@code store} for the task being named ({@link #readAheadFor}), now or as soon as
     * the store's concurrency and the budget allow; {@code capacityBytes} bounds the value's length (a compressed
     * chunk's raw size). Nothing happens when this slot does not serve the store or one value would not fit the budget.
     */
    public void read(Store store, String key, int capacityBytes) {
        // Held while in flight: the value's bound and the request's own overhead; once landed, the value's length.
        long held = Math.max(0, capacityBytes) + (long) store.requestOverheadBytes();
        if (!serves(store) || held > budgetBytes) {
            return;
        }
        List<Read> start;
        synchronized (this) {
            Read r = new Read(store, key, owner, held);
            reads.computeIfAbsent(id(store, key), k -> new ArrayDeque<>()).add(r);
            waiting.add(r);
            start = startable();
        }
        start(start);
    }

    private static String id(Store store, String key) {
        return store.uri() + '\0' + key;
    }

    private static String rangeId(Store store, String key, long offset, int length) {
        return store.uri() + '\0' + key + '\0' + offset + '+' + length;
    }

    /**
     * Starts reading bytes {@code [offset, offset + length)} of {@code key} of {@code store} ahead through the slot
     * bound to this thread, if any ({@link #readRange}).
     */
    public static void readRangeAhead(Store store, String key, long offset, int length) {
        ChunkIo io = CURRENT.get();
        if (io != null) {
            io.readRange(store, key, offset, length);
        }
    }

    /** The ranged read started ahead by the slot bound to this thread ({@link #readRangeAhead}), or null. */
    public static Fetched takeRangeAhead(Store store, String key, long offset, int length) {
        ChunkIo io = CURRENT.get();
        return io == null ? null : io.take(store, key, rangeId(store, key, offset, length));
    }

    /**
     * As {@link #read}, bytes {@code [offset, offset + length)} of the value ({@link Store#getRangeAsync}): the inner
     * chunks of a shard a coming task will read. Held while in flight: {@code length} and the request's overhead.
     */
    public void readRange(Store store, String key, long offset, int length) {
        readRange(store, key, offset, length, -1, false);
    }

    /**
     * {@link #readRange} for {@code task} ({@code onlyIfNamed}: only while it is named and not yet running), or for the
     * task being named.
     */
    private void readRange(Store store, String key, long offset, int length, long task, boolean onlyIfNamed) {
        long held = Math.max(0, length) + (long) store.requestOverheadBytes();
        if (!serves(store) || held > budgetBytes || length <= 0) {
            return;
        }
        List<Read> start;
        synchronized (this) {
            if (onlyIfNamed && !named.contains(task)) {
                return;
            }
            Read r = new Read(store, key, onlyIfNamed ? task : owner, held);
            r.offset = offset;
            r.length = length;
            reads.computeIfAbsent(rangeId(store, key, offset, length), k -> new ArrayDeque<>())
                    .add(r);
            waiting.add(r);
            start = startable();
        }
        start(start);
    }

    /** Small values the slot's tasks share, by store URI and key ({@link #kept}). Guarded by this. */
    private final Map<String, CompletableFuture<?>> kept = new HashMap<>();

    /**
     * The value of {@code key} of {@code store} that the slot bound to this thread keeps for its tasks, loaded once
     * by {@code load} on a {@link StoreThreads} thread (again after a failed load); null when no slot serving the store
     * is bound. For small derived values that many tasks of the slot read, such as a Zarr v3 shard's index: a
     * slot lives for one stage of one computation (or one Spark task), during which its inputs do not change. Not
     * counted in the budget: a few kilobytes each.
     */
    @SuppressWarnings("unchecked")
    public static <T> CompletableFuture<T> kept(Store store, String key, java.util.function.Supplier<T> load) {
        ChunkIo io = CURRENT.get();
        if (io == null || !io.serves(store)) {
            return null;
        }
        String id = id(store, key);
        synchronized (io) {
            CompletableFuture<?> f = io.kept.get(id);
            if (f == null || f.isCompletedExceptionally()) {
                f = StoreThreads.supply(load);
                io.kept.put(id, f);
            }
            return (CompletableFuture<T>) f;
        }
    }

    /** The waiting reads that may start now, oldest first, counted as in flight. Holds the lock. */
    private List<Read> startable() {
        List<Read> start = new ArrayList<>();
        while (!waiting.isEmpty()) {
            Read r = waiting.peek();
            Lane lane = lane(r.store);
            if (lane.inFlight >= r.store.concurrency()
                    || lane.ahead >= lane.window
                    || heldBytes + r.held > budgetBytes) {
                break;
            }
            waiting.poll();
            lane.inFlight++;
            lane.ahead++;
            r.ahead = true;
            heldBytes += r.held;
            readsStarted++;
            requestStarted();
            r.future = new CompletableFuture<>();
            start.add(r);
        }
        return start;
    }

    private void start(List<Read> start) {
        for (Read r : start) {
            CompletableFuture<Store.Bytes> f;
            try {
                f = r.length < 0
                        ? r.store.getAsync(r.key)
                        : r.store
                                .getRangeAsync(r.key, r.offset, r.length)
                                .thenApply(b -> b == null ? null : new Store.Bytes(b, b.length));
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((v, e) -> completed(r, v, e));
        }
    }

    private void completed(Read r, Store.Bytes value, Throwable failure) {
        List<Read> start;
        synchronized (this) {
            Lane lane = lane(r.store);
            lane.inFlight--;
            requests--;
            long length = value == null ? 0 : value.array().length;
            if (r.dropped) {
                heldBytes -= r.held;
                r.held = 0;
            } else {
                heldBytes += length - r.held;
                r.held = length;
                if (r.ahead) {
                    r.landed = true;
                    lane.landed++;
                }
                peakHeldBytes = Math.max(peakHeldBytes, heldBytes);
            }
            start = startable();
            notifyAll();
        }
        start(start);
        if (failure != null) {
            r.future.completeExceptionally(failure);
        } else {
            r.future.complete(value);
        }
    }

    /** What a read started ahead gave: the value, or null when the store has none. */
    public record Fetched(Store.Bytes bytes) {}

    /**
     * The read of {@code key} of {@code store} started ahead, waited for: null when none was started (read it now);
     * otherwise what the store gave, its bytes now the caller's. A read that failed throws its {@link
     * StorageException} (the store's retries are behind it).
     */
    public Fetched take(Store store, String key) {
        return take(store, key, id(store, key));
    }

    private Fetched take(Store store, String key, String id) {
        Read r;
        List<Read> early;
        synchronized (this) {
            ArrayDeque<Read> q = reads.get(id);
            r = q == null ? null : q.poll();
            if (q != null && q.isEmpty()) {
                reads.remove(id);
            }
            if (r == null) {
                return null;
            }
            Lane lane = lane(r.store);
            if (r.future == null) {
                // Not started yet: the caller reads it at once, on its own memory; the window was too small.
                waiting.remove(r);
                widen(lane);
                return null;
            }
            if (r.landed) {
                // Here before it was wanted: with half the window lying read and waiting besides, it is too wide.
                if (lane.landed - 1 >= lane.window / 2) {
                    lane.window = Math.max(Math.min(MIN_WINDOW, lane.concurrency), lane.window - 1);
                }
            } else {
                widen(lane);
            }
            leaveWindow(r, lane);
            early = startable();
        }
        // Its place in the window is free: the next read starts while this one is waited for.
        start(early);
        Store.Bytes v;
        try {
            v = r.future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drop(r);
            throw new StorageException("interrupted while waiting for '" + key + "' of " + store.uri(), e);
        } catch (ExecutionException e) {
            drop(r);
            throw failure(e.getCause(), "read", key, store);
        }
        List<Read> start;
        synchronized (this) {
            heldBytes -= r.held;
            r.held = 0;
            readsTaken++;
            start = startable();
            notifyAll();
        }
        start(start);
        return new Fetched(v);
    }

    private static void widen(Lane lane) {
        lane.window = Math.min(lane.window * 2, lane.concurrency);
        lane.maxWindow = Math.max(lane.maxWindow, lane.window);
    }

    /** A read ahead is taken or dropped: its place in the window is free. Holds the lock. */
    private static void leaveWindow(Read r, Lane lane) {
        if (r.ahead) {
            r.ahead = false;
            lane.ahead--;
            if (r.landed) {
                r.landed = false;
                lane.landed--;
            }
        }
    }

    private void drop(Read r) {
        synchronized (this) {
            leaveWindow(r, lane(r.store));
            if (r.future != null && r.future.isDone()) {
                heldBytes -= r.held;
                r.held = 0;
            } else {
                r.dropped = true;
            }
        }
    }

    private static StorageException failure(Throwable cause, String verb, String key, Store store) {
        Throwable c = cause instanceof CompletionException && cause.getCause() != null ? cause.getCause() : cause;
        if (c instanceof StorageException s) {
            return s;
        }
        return new StorageException("cannot " + verb + " '" + key + "' in " + store.uri() + ": " + c, c);
    }

    /**
     * Hands over the write of the first {@code length} bytes of {@code value} to {@code key} of {@code store} for the
     * running task: copies the bytes and starts the write (or queues it behind the store's other requests), and
     * returns true; the executor waits for it before the task counts as done. Returns false, and does nothing, when
     * this slot does not serve the store or the budget has no room: the caller then writes on its own thread.
     */
    public boolean write(Store store, String key, byte[] value, int length) {
        if (!serves(store)) {
            return false;
        }
        // Held until the store has it: the bytes and the request's own overhead.
        long held = length + (long) store.requestOverheadBytes();
        long task;
        synchronized (this) {
            // Room is made by earlier writes finishing; reads waiting to be taken do not count against a write. A
            // store's requests in flight all end by themselves, so waiting for one of them to end cannot block.
            while ((heldBytes + held > budgetBytes && anyWriteInFlight())
                    || lane(store).inFlight >= store.concurrency()) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            if (heldBytes + held > budgetBytes) {
                return false;
            }
            heldBytes += held;
            lane(store).inFlight++;
            task = owner;
            writesBehind++;
            requestStarted();
        }
        byte[] copy = Arrays.copyOf(value, length);
        CompletableFuture<Void> f;
        try {
            f = store.putAsync(key, copy, length);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> done = f.handle((v, e) -> {
            List<Read> start;
            synchronized (this) {
                heldBytes -= held;
                lane(store).inFlight--;
                requests--;
                start = startable();
                notifyAll();
            }
            start(start);
            if (e != null) {
                throw new CompletionException(failure(e, "write", key, store));
            }
            return null;
        });
        synchronized (this) {
            writes.computeIfAbsent(task, t -> new ArrayList<>()).add(done);
        }
        return true;
    }

    private boolean anyWriteInFlight() {
        for (List<CompletableFuture<Void>> l : writes.values()) {
            for (CompletableFuture<Void> f : l) {
                if (!f.isDone()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * True when every read named so far has started and the slot holds less than its budget: the executor may name
     * the reads of one more task.
     */
    public synchronized boolean hasRoom() {
        return waiting.isEmpty() && heldBytes < budgetBytes;
    }

    /** Marks {@code task} as the running task: the writes handed over until the next call are its. */
    public synchronized void running(long task) {
        owner = task;
        named.remove(task);
    }

    /**
     * Task {@code task} has run: drops the reads started for it that it did not take, and returns a future of its
     * writes, which fails with the first write's failure.
     */
    public CompletableFuture<Void> finishTask(long task) {
        List<CompletableFuture<Void>> w;
        List<Read> start;
        synchronized (this) {
            named.remove(task);
            if (owner == task) {
                owner = -1;
            }
            for (java.util.Iterator<ArrayDeque<Read>> it = reads.values().iterator(); it.hasNext(); ) {
                ArrayDeque<Read> q = it.next();
                for (java.util.Iterator<Read> ri = q.iterator(); ri.hasNext(); ) {
                    Read r = ri.next();
                    if (r.task == task) {
                        ri.remove();
                        waiting.remove(r);
                        leaveWindow(r, lane(r.store));
                        if (r.future != null && r.future.isDone()) {
                            heldBytes -= r.held;
                            r.held = 0;
                        } else if (r.future != null) {
                            r.dropped = true;
                        }
                    }
                }
                if (q.isEmpty()) {
                    it.remove();
                }
            }
            w = writes.remove(task);
            start = startable();
            notifyAll();
        }
        start(start);
        return w == null
                ? CompletableFuture.completedFuture(null)
                : CompletableFuture.allOf(w.toArray(new CompletableFuture[0]));
    }

    /** The tasks of the reads waiting to start, in the order they will start: for tests. */
    synchronized List<Long> waitingTasks() {
        java.util.PriorityQueue<Read> copy = new java.util.PriorityQueue<>(waiting);
        List<Long> tasks = new ArrayList<>();
        while (!copy.isEmpty()) {
            tasks.add(copy.poll().task);
        }
        return tasks;
    }

    /** Reads started ahead, taken, and writes handed over so far: for reports and tests. */
    public synchronized long[] counts() {
        return new long[] {readsStarted, readsTaken, writesBehind};
    }

    /** The window of reads ahead on {@code store} now, and the widest it has been (for reports and tests). */
    public synchronized int[] window(Store store) {
        Lane lane = lanes.get(store);
        return lane == null ? new int[] {0, 0} : new int[] {lane.window, lane.maxWindow};
    }

    /** Bytes held by requests now (for tests). */
    /** Bytes held by requests now: reads started and not yet taken, writes not yet done. */
    public synchronized long heldBytes() {
        return heldBytes;
    }

    /** Requests in flight now, on all stores. */
    public synchronized int requestsInFlight() {
        return requests;
    }

    /** The most requests in flight at once and the most bytes held ({@link #heldBytes}) over a span of time. */
    public record Peak(int requests, long heldBytes) {}

    /**
     * The most requests this slot had in flight at once and the most bytes they held since the last call (or since the
     * slot was made); the next span starts from what is in flight and held now.
     */
    public synchronized Peak takePeak() {
        Peak p = new Peak(peakRequests, peakHeldBytes);
        peakRequests = requests;
        peakHeldBytes = heldBytes;
        return p;
    }

    /** Counts one more request in flight, whose bytes {@link #heldBytes} already has. Holds the lock. */
    private void requestStarted() {
        requests++;
        peakRequests = Math.max(peakRequests, requests);
        peakHeldBytes = Math.max(peakHeldBytes, heldBytes);
    }
}
