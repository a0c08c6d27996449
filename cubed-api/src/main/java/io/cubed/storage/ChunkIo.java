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
 * <p>Ranged reads (a Zarr v3 shard's inner chunks): the ranges of one value that a task names are read together,
 * those that follow one another as one request, and taken each on its own. Ranges known only once a value lands (the
 * inner chunks, once their shard's index is read) are named by whichever thread has that value first: the one that
 * read it, or the task's own thread if the task already runs and looks for one of them, so that a task waiting for
 * the same index finds its ranges; those a running task has already read itself are not read again.
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
        /**
         * The ranges of a ranged read its task will take, sorted: one, or several that follow one another in the
         * value, read with one request; null for a whole value.
         */
        List<Store.Range> parts;
        /** Of those, the ones not yet taken: the bytes are held until the last is. */
        int partsLeft = 1;
        /** A part has been taken: the read has left the window. */
        boolean taken;
        /** Its bytes are given up: all taken, or dropped with its task. */
        boolean released;
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
        Thread previousNamer;
        int before;
        synchronized (this) {
            previous = owner;
            previousNamer = namer;
            owner = task;
            namer = Thread.currentThread();
            named.add(task);
            before = (int) (readsStarted + deferred) + waiting.size();
        }
        List<NamedRanges> names;
        try {
            naming.run();
        } finally {
            synchronized (this) {
                owner = previous;
                namer = previousNamer;
                names = new ArrayList<>(namedRanges.values());
                namedRanges.clear();
            }
            rangesNamed(task, names);
        }
        synchronized (this) {
            return (int) (readsStarted + deferred) + waiting.size() - before;
        }
    }

    /**
     * The ranged reads of one value named for a task while it was being named: the ranges known then, and those known
     * once {@link #after} lands.
     */
    private static final class NamedRanges {
        final Store store;
        final String key;
        final List<Store.Range> ranges = new ArrayList<>();
        CompletableFuture<Object> after;
        final List<java.util.function.Function<Object, List<Store.Range>>> later = new ArrayList<>();

        NamedRanges(Store store, String key) {
            this.store = store;
            this.key = key;
        }
    }

    /**
     * The thread naming a task's reads ({@link #readAheadFor}), whose ranged reads of each value are gathered and read
     * together when the naming ends; null otherwise. Guarded by this.
     */
    private Thread namer;
    /** The ranged reads {@link #namer} has named, by store URI and key. Guarded by this. */
    private final Map<String, NamedRanges> namedRanges = new java.util.LinkedHashMap<>();

    /** The naming of {@code task} has ended: its ranged reads of each value start, close ones as one request. */
    private void rangesNamed(long task, List<NamedRanges> names) {
        List<Read> start;
        synchronized (this) {
            for (NamedRanges n : names) {
                queueRanges(n.store, n.key, task, n.ranges);
            }
            start = startable();
        }
        start(start);
        for (NamedRanges n : names) {
            if (n.after != null) {
                later(new Later(task, n.store, n.key, n.after, n.later));
            }
        }
    }

    /** Ranges of {@code key} that {@code task} will read, given by {@code rangesOf} once {@code after} lands. */
    private record Later(
            long task,
            Store store,
            String key,
            CompletableFuture<Object> after,
            List<java.util.function.Function<Object, List<Store.Range>>> rangesOf) {}

    /** Ranges waiting for what gives them to land ({@link #later}), by store URI and key. Guarded by this. */
    private final Map<String, List<Later>> laters = new HashMap<>();

    /**
     * Queues {@code l}'s ranges once its {@code after} lands: on the thread that completes it, or on the task's own
     * thread if it looks for one of them first ({@link #take}), so that a task waiting for the same index finds them.
     */
    private void later(Later l) {
        synchronized (this) {
            laters.computeIfAbsent(id(l.store(), l.key()), x -> new ArrayList<>())
                    .add(l);
        }
        l.after().whenComplete((v, e) -> {
            List<Read> start;
            synchronized (this) {
                settleLaters(l.store(), l.key());
                start = startable();
            }
            start(start);
        });
    }

    /**
     * Queues the ranges of {@code key} of {@code store} whose {@code after} has landed, for tasks still named or
     * running (a running task waits for the same index), but not those the running task has already looked for, not
     * found, and read itself. Holds the lock.
     */
    private void settleLaters(Store store, String key) {
        String id = id(store, key);
        List<Later> ls = laters.get(id);
        if (ls == null) {
            return;
        }
        for (java.util.Iterator<Later> it = ls.iterator(); it.hasNext(); ) {
            Later l = it.next();
            if (!l.after().isDone()) {
                continue;
            }
            it.remove();
            if (l.after().isCompletedExceptionally() || (!named.contains(l.task()) && l.task() != runningTask)) {
                continue; // the task reads what failed itself, and reports it; or it has run
            }
            List<Store.Range> ranges = new ArrayList<>();
            try {
                Object v = l.after().join();
                for (java.util.function.Function<Object, List<Store.Range>> f : l.rangesOf()) {
                    for (Store.Range r : f.apply(v)) {
                        if (l.task() != runningTask || !missed.contains(rangeId(store, key, r.offset(), r.length()))) {
                            ranges.add(r);
                        }
                    }
                }
            } catch (RuntimeException e) {
                continue; // reading ahead only saves time: the task reads them itself
            }
            if (l.task() == runningTask) {
                // Known only once its task had started: the window was too small to name it in time.
                widen(lane(store));
            }
            queueRanges(store, key, l.task(), ranges);
        }
        if (ls.isEmpty()) {
            laters.remove(id);
        }
    }

    /** The task running, or -1. Guarded by this. */
    private long runningTask = -1;
    /**
     * The ranged reads the running task looked for and did not find, reading them itself; kept only while a task is
     * marked running ({@link #running}). Guarded by this.
     */
    private final java.util.Set<String> missed = new java.util.HashSet<>();

    /**
     * Queues the reads of {@code ranges} of {@code key} for {@code task}: sorted, and those that follow one another
     * (or overlap) read with one request, of at most half the budget, so that no byte is read in vain (a Zarr v3
     * region read has already merged the inner chunks of one region lying close together); a range that alone does
     * not fit the budget is left to the task. Holds the lock.
     */
    private void queueRanges(Store store, String key, long task, List<Store.Range> ranges) {
        List<Store.Range> sorted = new ArrayList<>();
        for (Store.Range r : ranges) {
            if (r.length() > 0) {
                sorted.add(r);
            }
        }
        sorted.sort(java.util.Comparator.comparingLong(Store.Range::offset));
        long overhead = store.requestOverheadBytes();
        long cap = Math.min(Integer.MAX_VALUE - 8, Math.max(0, budgetBytes / 2 - overhead));
        for (RangeRuns.Run run : RangeRuns.of(sorted, 0, cap)) {
            long held = run.length() + overhead;
            if (held > budgetBytes) {
                continue;
            }
            Read r = new Read(store, key, task, held);
            r.offset = run.offset();
            r.length = run.length();
            r.parts = List.copyOf(sorted.subList(run.first(), run.end()));
            r.partsLeft = r.parts.size();
            for (Store.Range p : r.parts) {
                reads.computeIfAbsent(rangeId(store, key, p.offset(), p.length()), x -> new ArrayDeque<>())
                        .add(r);
            }
            waiting.add(r);
        }
    }

    /** Tasks named ({@link #readAheadFor}) that have not started running. Guarded by this. */
    private final java.util.Set<Long> named = new java.util.HashSet<>();
    /** Names of reads whose ranges were not yet known ({@link #readRangesAheadLater}). Guarded by this. */
    private long deferred;

    /**
     * Starts reading ahead, for the task being named, ranges of {@code key} of {@code store} that are known only once
     * {@code after} lands (a shard's inner chunks, once its index is read): then {@code rangesOf} gives them and they
     * are read as by {@link #readRange} (with the task's other ranges of the value that wait for the same {@code
     * after}), unless the task has started running by then (it reads them itself). Counts as a read named.
     */
    @SuppressWarnings("unchecked")
    public static <T> void readRangesAheadLater(
            Store store,
            String key,
            CompletableFuture<T> after,
            java.util.function.Function<? super T, List<Store.Range>> rangesOf) {
        ChunkIo io = CURRENT.get();
        if (io == null || !io.serves(store)) {
            return;
        }
        long task;
        synchronized (io) {
            task = io.owner;
            io.deferred++;
            if (io.namer == Thread.currentThread()) {
                NamedRanges n = io.namedRanges.computeIfAbsent(id(store, key), x -> new NamedRanges(store, key));
                if (n.after == null || n.after == after) {
                    n.after = (CompletableFuture<Object>) after;
                    n.later.add(v -> rangesOf.apply((T) v));
                    return;
                }
            }
        }
        io.later(new Later(task, store, key, (CompletableFuture<Object>) after, List.of(v -> rangesOf.apply((T) v))));
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
        return io == null ? null : io.take(store, key, rangeId(store, key, offset, length), offset, length);
    }

    /**
     * As {@link #read}, bytes {@code [offset, offset + length)} of the value ({@link Store#getRangeAsync}): the inner
     * chunks of a shard a coming task will read. Held while in flight: {@code length} and the request's overhead. The
     * ranges of one value named for a task while it is being named ({@link #readAheadFor}) start when the naming ends,
     * those that follow one another as one request; each is still taken on its own.
     */
    public void readRange(Store store, String key, long offset, int length) {
        if (!serves(store) || length <= 0) {
            return;
        }
        List<Read> start;
        synchronized (this) {
            if (namer == Thread.currentThread()) {
                namedRanges
                        .computeIfAbsent(id(store, key), x -> new NamedRanges(store, key))
                        .ranges
                        .add(new Store.Range(offset, length));
                return;
            }
            queueRanges(store, key, owner, List.of(new Store.Range(offset, length)));
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
        return take(store, key, id(store, key), 0, -1);
    }

    /** Takes the read of {@code id}: the whole value, or (of a ranged read) its part {@code [offset, offset + length)}. */
    private Fetched take(Store store, String key, String id, long offset, int length) {
        Read r;
        List<Read> early = new ArrayList<>();
        boolean first = false;
        synchronized (this) {
            if (length >= 0 && laters.containsKey(id(store, key))) {
                // Ranges of this value known once its index landed (which the caller has) are queued first.
                settleLaters(store, key);
                early.addAll(startable());
            }
            ArrayDeque<Read> q = reads.get(id);
            r = q == null ? null : q.poll();
            if (q != null && q.isEmpty()) {
                reads.remove(id);
            }
            if (r == null) {
                if (length >= 0 && runningTask >= 0) {
                    missed.add(id); // the caller reads it itself: it is not to be read ahead any more
                }
            } else {
                Lane lane = lane(r.store);
                first = !r.taken;
                r.taken = true;
                if (r.future == null) {
                    // Not started yet: the window was too small.
                    waiting.remove(r);
                    widen(lane);
                    if (r.partsLeft <= 1 || heldBytes + r.held > budgetBytes) {
                        // The caller reads it at once, on its own memory.
                        forget(r);
                        if (runningTask >= 0) {
                            missed.add(id);
                        }
                        r = null;
                    } else {
                        // Its other parts are the task's too: one request for all of them, now.
                        lane.inFlight++;
                        heldBytes += r.held;
                        readsStarted++;
                        requestStarted();
                        r.future = new CompletableFuture<>();
                        early.add(r);
                    }
                } else if (first) {
                    if (r.landed) {
                        // Here before it was wanted: with half the window lying read and waiting besides, it is too
                        // wide.
                        if (lane.landed - 1 >= lane.window / 2) {
                            lane.window = Math.max(Math.min(MIN_WINDOW, lane.concurrency), lane.window - 1);
                        }
                    } else {
                        widen(lane);
                    }
                    leaveWindow(r, lane);
                    early.addAll(startable());
                }
            }
        }
        if (r == null) {
            start(early);
            return null;
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
            if (--r.partsLeft <= 0 && !r.released) {
                r.released = true;
                heldBytes -= r.held;
                r.held = 0;
            }
            if (first) {
                readsTaken++;
            }
            start = startable();
            notifyAll();
        }
        start(start);
        return new Fetched(part(v, r, key, store, offset, length));
    }

    /** The part {@code [offset, offset + length)} of what the ranged read {@code r} gave; all of it for a whole value. */
    private static Store.Bytes part(Store.Bytes v, Read r, String key, Store store, long offset, int length) {
        if (v == null || r.parts == null || r.parts.size() == 1) {
            return v;
        }
        int at = (int) (offset - r.offset);
        if (v.length() < at + length) {
            throw new StorageException("'" + key + "' in " + store.uri() + " ended after " + (r.offset + v.length())
                    + " bytes, inside the range " + offset + ".." + (offset + length) + " read of it");
        }
        return new Store.Bytes(Arrays.copyOfRange(v.array(), at, at + length), length);
    }

    /** Removes a read not started from the reads to take, for all its parts. Holds the lock. */
    private void forget(Read r) {
        r.released = true;
        if (r.parts == null) {
            return;
        }
        for (Store.Range p : r.parts) {
            String pid = rangeId(r.store, r.key, p.offset(), p.length());
            ArrayDeque<Read> q = reads.get(pid);
            if (q != null) {
                q.removeIf(x -> x == r);
                if (q.isEmpty()) {
                    reads.remove(pid);
                }
            }
        }
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
            if (r.released) {
                return;
            }
            r.released = true;
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
        runningTask = task;
        missed.clear();
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
            if (runningTask == task) {
                runningTask = -1;
                missed.clear();
            }
            for (java.util.Iterator<ArrayDeque<Read>> it = reads.values().iterator(); it.hasNext(); ) {
                ArrayDeque<Read> q = it.next();
                for (java.util.Iterator<Read> ri = q.iterator(); ri.hasNext(); ) {
                    Read r = ri.next();
                    if (r.task == task) {
                        ri.remove();
                        if (r.released) {
                            continue; // a part of a read already dropped
                        }
                        r.released = true;
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
