package io.cubed.runtime;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.TaskFailedException;
import io.cubed.memory.HeapBound;
import io.cubed.memory.HeapProbe;
import io.cubed.storage.ChunkIo;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs plans in this JVM on a pool of threads: the embedded default for small work and tests. Stages run one after
 * another; the tasks of a stage run {@code threads} at a time, each retried up to {@code maxAttempts} times. When a
 * stage's task queue is empty, idle threads run backup copies of stragglers (a task running more than 3 × the median
 * of the finished ones, once half have finished, and for at least 2 s); the first copy to finish counts. Task writes
 * are atomic and idempotent, so both copies may write.
 */
public final class LocalExecutor implements Executor {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LocalExecutor.class);
    private static final ThreadAllocation ALLOCATION = new ThreadAllocation();

    private final int threads;
    private final int maxAttempts;
    private final long retryDelayMillis;
    private final boolean backups;
    private final int measuredTasksPerStage;
    /** Measured tasks hold the write lock (they run alone), the others the read lock; fair, so neither starves. */
    private final java.util.concurrent.locks.ReentrantReadWriteLock measureLock =
            new java.util.concurrent.locks.ReentrantReadWriteLock(true);

    /** How long a failed computation waits for its other tasks to stop before it returns. */
    static final long STOP_WAIT_SECONDS = 30;

    /** Most tasks a worker claims ahead of the one it runs, to start their reads ({@link ChunkIo}). */
    static final int MAX_AHEAD = 64;

    /** A task that has run, with its writes, possibly still in flight. */
    private record Ran(
            long index,
            TaskResult result,
            RuntimeException failure,
            java.util.concurrent.CompletableFuture<Void> writes) {}

    /** A straggler runs longer than this many times the median of its stage's finished tasks... */
    static final long STRAGGLER_FACTOR = 3;
    /** ...and longer than this, in milliseconds. */
    static final long STRAGGLER_MIN_MILLIS = 2_000;

    /** An executor with {@code threads} threads and {@code maxAttempts} attempts per task (at least 1 each). */
    public LocalExecutor(int threads, int maxAttempts) {
        this(threads, maxAttempts, 100);
    }

    /** As {@link #LocalExecutor(int, int)}, waiting {@code retryDelayMillis} × attempt before each retry. */
    public LocalExecutor(int threads, int maxAttempts, long retryDelayMillis) {
        this(threads, maxAttempts, retryDelayMillis, true);
    }

    /**
     * As {@link #LocalExecutor(int, int, long)}; {@code backups} runs a backup copy of straggling tasks (default on;
     * see the class comment).
     */
    public LocalExecutor(int threads, int maxAttempts, long retryDelayMillis, boolean backups) {
        this(threads, maxAttempts, retryDelayMillis, backups, 0);
    }

    private LocalExecutor(
            int threads, int maxAttempts, long retryDelayMillis, boolean backups, int measuredTasksPerStage) {
        if (threads < 1) {
            throw new InvalidArgumentException("LocalExecutor needs at least 1 thread, got " + threads);
        }
        if (maxAttempts < 1) {
            throw new InvalidArgumentException("LocalExecutor needs at least 1 attempt per task, got " + maxAttempts);
        }
        this.threads = threads;
        this.maxAttempts = maxAttempts;
        this.retryDelayMillis = Math.max(0, retryDelayMillis);
        this.backups = backups;
        if (measuredTasksPerStage < 0) {
            throw new InvalidArgumentException(
                    "LocalExecutor measures 0 or more tasks per operation, got " + measuredTasksPerStage);
        }
        this.measuredTasksPerStage = measuredTasksPerStage;
    }

    /**
     * This executor, also measuring the peak live heap ({@link io.cubed.memory.HeapProbe}) of the first {@code
     * tasksPerStage} tasks of every operation, reported as {@link TaskResult#peakLiveBytes()}. A measured task runs
     * alone (the other threads wait for it and it waits for them), and each of its chunk reads and writes costs a full
     * garbage collection: use a few tasks per operation, for reports, not for speed.
     *
     * <p>On an operation whose task slots keep store requests in flight ({@link Stage#ioBytes}: an object store), one
     * slot runs the measured tasks as it runs any: the next tasks' reads started ahead, the last tasks' writes
     * finishing behind, on the store client's threads. Its tasks are measured from the live heap before the slot
     * started any request, so that what the requests hold counts in each task's peak (bounded by the stage's
     * projection, which counts them), and they report the slot's requests ({@link TaskResult#requests()}); the other
     * threads start once the measured tasks have run.
     */
    public LocalExecutor withMemoryMeasurement(int tasksPerStage) {
        return new LocalExecutor(threads, maxAttempts, retryDelayMillis, backups, tasksPerStage);
    }

    /** How many tasks of each operation this executor measures (0: none). */
    public int measuredTasksPerStage() {
        return measuredTasksPerStage;
    }

    /** One thread per available processor, 3 attempts per task. */
    public static LocalExecutor defaults() {
        return new LocalExecutor(Runtime.getRuntime().availableProcessors(), 3);
    }

    public int threads() {
        return threads;
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    /** Its threads. */
    @Override
    public int parallelism() {
        return threads;
    }

    @Override
    public String name() {
        return "local(threads=" + threads + (measuredTasksPerStage > 0 ? ", measuring memory" : "") + ")";
    }

    @Override
    public void execute(ExecutionPlan plan, List<Callback> callbacks) {
        String computeId = plan.computeId();
        AtomicInteger threadNumber = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "cubed-local-" + threadNumber.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        HeapFit.fit(threads, plan);
        ExecutorService pool = Executors.newFixedThreadPool(threads, factory);
        callbacks.forEach(c -> c.onComputeStart(new Callback.ComputeStart(computeId, plan.stages())));
        Throwable failure = null;
        try {
            for (Stage stage : plan.stages()) {
                long start = System.currentTimeMillis();
                callbacks.forEach(c -> c.onOperationStart(new Callback.OperationStart(computeId, stage)));
                runStage(pool, computeId, stage, callbacks);
                long end = System.currentTimeMillis();
                callbacks.forEach(c -> c.onOperationEnd(new Callback.OperationEnd(computeId, stage, start, end)));
            }
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            pool.shutdownNow();
            if (failure != null) {
                // A failed computation returns once its other tasks have stopped (interrupted, or at their end), so
                // that nothing it started still writes when the caller handles the failure (deletes the output, say).
                // A successful one does not wait for a straggler's slower copy, whose writes are the same bytes.
                try {
                    pool.awaitTermination(STOP_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            // The arrays the tasks kept for their operations' next tasks: none is coming.
            ArrayRecycler.releaseIdle();
            Throwable f = failure;
            callbacks.forEach(c -> c.onComputeEnd(new Callback.ComputeEnd(computeId, f)));
        }
    }

    /**
     * The heap a computation of {@code plan} needs here, in bytes: the heap left after the last collections plus, for
     * each thread, the plan's largest projected task with the collector's 20 % ({@link HeapFit#bound}).
     */
    public HeapBound heapBound(ExecutionPlan plan) {
        return HeapFit.bound(threads, plan);
    }

    private void runStage(ExecutorService pool, String computeId, Stage stage, List<Callback> callbacks) {
        StageRun run = new StageRun(stage, computeId, callbacks);
        for (long w = 0; w < Math.min(threads, run.n); w++) {
            pool.submit(run::work);
        }
        try {
            run.finished.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CubedException(stage.id() + " " + stage.description() + " was interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof OutOfMemoryError) {
                throw new CubedException(
                        String.format(
                                java.util.Locale.ROOT,
                                "%s %s: a task ran out of heap (%s) with %d threads of tasks projected at %s each"
                                        + " (allowedMem checks each task's projection; the heap must also hold"
                                        + " threads x that plus the JVM's own objects: raise -Xmx, or lower the"
                                        + " threads or allowedMem)",
                                stage.id(),
                                stage.description(),
                                cause.getMessage(),
                                threads,
                                io.cubed.memory.MemorySize.format(stage.projectedMemBytes())),
                        cause);
            }
            throw new CubedException(stage.id() + " " + stage.description() + " failed: " + cause, cause);
        }
    }

    /**
     * One stage: workers take task indexes in order; once none is left, an idle worker runs a backup copy of a
     * straggler — a task running longer than {@value #STRAGGLER_FACTOR} × the median of the finished ones, once half
     * have finished, and for at least {@value #STRAGGLER_MIN_MILLIS} ms (Cubed's rule, with a floor against noise).
     * The first copy to finish counts; the other's writes are the same bytes. The stage ends when every task has
     * finished once, even while the slower copy of a straggler still runs. A task is {@linkplain TaskFunction#release
     * released} once it has succeeded and its last copy has ended (no copy starts after it has succeeded).
     */
    private final class StageRun {
        final Stage stage;
        final String computeId;
        final List<Callback> callbacks;
        final long n;
        final AtomicLong next = new AtomicLong();
        final java.util.Set<Long> done = java.util.concurrent.ConcurrentHashMap.newKeySet();
        final AtomicLong reported = new AtomicLong();
        final java.util.Map<Long, Long> running = new java.util.concurrent.ConcurrentHashMap<>();
        final java.util.Set<Long> backedUp = java.util.concurrent.ConcurrentHashMap.newKeySet();
        /** Copies of each task running now; guarded by itself, with {@link #done} updated under it. */
        final java.util.Map<Long, Integer> copies = new java.util.HashMap<>();

        final List<Long> durations = new ArrayList<>();
        final java.util.concurrent.CompletableFuture<Void> finished = new java.util.concurrent.CompletableFuture<>();

        /**
         * On a stage measured with requests in flight: whether a worker has taken the measuring slot, and open once
         * its measured tasks have run (the other workers wait for it).
         */
        final java.util.concurrent.atomic.AtomicBoolean measurerChosen =
                new java.util.concurrent.atomic.AtomicBoolean();

        final java.util.concurrent.CountDownLatch measured = new java.util.concurrent.CountDownLatch(1);

        StageRun(Stage stage, String computeId, List<Callback> callbacks) {
            this.stage = stage;
            this.computeId = computeId;
            this.callbacks = callbacks;
            this.n = stage.numTasks();
            if (n == 0) {
                finished.complete(null);
            }
        }

        /**
         * A worker's loop. What a task throws beyond a {@link RuntimeException} (an {@link OutOfMemoryError}, say)
         * fails the stage here: the pool's thread would otherwise swallow it, and the stage would wait for ever.
         */
        void work() {
            try {
                workTasks();
            } catch (RuntimeException | Error e) {
                finished.completeExceptionally(e);
                next.set(n);
            }
        }

        private void workTasks() {
            if (stage.ioBytes() <= 0) {
                workOneAtATime();
                return;
            }
            ChunkIo io = new ChunkIo(stage.ioBytes());
            try (ChunkIo.Binding bound = io.bind()) {
                SlotMeasurement measuring = null;
                if (measuredTasksPerStage > 0) {
                    if (measurerChosen.compareAndSet(false, true)) {
                        measuring = new SlotMeasurement(io, Math.min(n, measuredTasksPerStage));
                    } else if (!awaitMeasured()) {
                        return;
                    }
                }
                try {
                    workPipelined(io, measuring);
                } finally {
                    measured.countDown();
                }
            }
        }

        /** Waits until the measuring slot's measured tasks have run; false when interrupted. */
        private boolean awaitMeasured() {
            try {
                measured.await();
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        /** Claims the next task index, counting a copy of it; -1 when none is left. */
        private long claim() {
            long i = next.getAndIncrement();
            if (i >= n) {
                return -1;
            }
            synchronized (copies) {
                copies.merge(i, 1, Integer::sum);
            }
            return i;
        }

        /** Runs tasks one after another as they are claimed, then backup copies of stragglers. */
        private void workOneAtATime() {
            while (!finished.isDone()) {
                long i = claim();
                if (i >= 0) {
                    attempt(i, null);
                    continue;
                }
                if (!backupOrWait(null)) {
                    return;
                }
            }
        }

        /**
         * Once the stage's queue is empty: runs a backup copy of a straggler and returns true, or waits a moment and
         * returns true while tasks still run, or returns false when the worker may stop.
         */
        private boolean backupOrWait(ChunkIo io) {
            long straggler = backups ? straggler() : -1;
            if (straggler >= 0) {
                attempt(straggler, io);
                return true;
            }
            if (running.isEmpty() || !backups) {
                return false; // the tasks still running finish the stage
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            return true;
        }

        /**
         * Runs this worker's tasks with their store requests kept in flight by {@code io}: the next claimed tasks'
         * reads start before they run (while the slot has room and all the reads named so far have started, up to a
         * fair share of the tasks left), and a task that has run counts as done once its writes, in flight while the
         * next tasks run, have finished.
         */
        private void workPipelined(ChunkIo io, SlotMeasurement measuring) {
            java.util.ArrayDeque<Long> ahead = new java.util.ArrayDeque<>();
            java.util.ArrayDeque<Ran> behind = new java.util.ArrayDeque<>();
            boolean readsAhead = true;
            try {
                while (!finished.isDone()) {
                    long share = Math.max(1, (n - Math.min(n, next.get())) / threads);
                    while (readsAhead && ahead.size() < Math.min(MAX_AHEAD, share) && io.hasRoom()) {
                        long i = claim();
                        if (i < 0) {
                            break;
                        }
                        ahead.add(i);
                        if (io.readAheadFor(i, () -> readAhead(i)) == 0) {
                            readsAhead = false;
                        }
                    }
                    long i = ahead.isEmpty() ? claim() : ahead.poll();
                    if (i < 0) {
                        settleAll(behind, io);
                        if (!backupOrWait(io)) {
                            return;
                        }
                        continue;
                    }
                    behind.add(ran(i, io, measuring));
                    if (measuring != null && measuring.done(i)) {
                        measured.countDown(); // the other workers start
                    }
                    while (!behind.isEmpty() && behind.peek().writes().isDone()) {
                        settle(behind.poll(), io);
                    }
                }
            } finally {
                settleAll(behind, io);
                for (long i : ahead) {
                    io.finishTask(i);
                }
            }
        }

        private void readAhead(long i) {
            try {
                stage.task().readAhead(i);
            } catch (RuntimeException e) {
                // Reading ahead only saves time: the task reads what failed when it runs, and reports the error.
            }
        }

        /**
         * Runs task {@code i} with its writes handed to {@code io}, which may still be in flight when this returns;
         * measured against the slot's baseline when {@code measuring} measures it.
         */
        private Ran ran(long i, ChunkIo io, SlotMeasurement measuring) {
            running.putIfAbsent(i, System.nanoTime());
            io.running(i);
            TaskResult r = null;
            RuntimeException failure = null;
            try {
                r = measuring != null && measuring.measures(i)
                        ? attempts(stage, i, measuring, null)
                        : runTask(stage, i);
            } catch (RuntimeException e) {
                failure = e;
            }
            return new Ran(i, r, failure, io.finishTask(i));
        }

        private void settleAll(java.util.ArrayDeque<Ran> behind, ChunkIo io) {
            while (!behind.isEmpty()) {
                settle(behind.poll(), io);
            }
        }

        /**
         * Waits for the writes of a task that has run and records its end; when one of them failed, the task runs
         * again, each attempt then waiting for its own writes.
         */
        private void settle(Ran ran, ChunkIo io) {
            TaskResult r = ran.result();
            RuntimeException failure = ran.failure();
            if (r != null) {
                try {
                    ran.writes().join();
                } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
                    r = null;
                    try {
                        r = runTask(stage, ran.index(), io);
                    } catch (RuntimeException again) {
                        failure = again;
                    }
                }
            }
            record(ran.index(), r, failure);
        }

        /** Runs a copy of task {@code i} to its end (with {@code io}: its writes finished too) and records it. */
        private void attempt(long i, ChunkIo io) {
            running.putIfAbsent(i, System.nanoTime());
            TaskResult r = null;
            RuntimeException failure = null;
            try {
                r = io == null ? runTask(stage, i) : runTask(stage, i, io);
            } catch (RuntimeException e) {
                failure = e;
            }
            record(i, r, failure);
        }

        /** Records the end of a copy of task {@code i}: its result, or the failure of its last attempt. */
        private void record(long i, TaskResult r, RuntimeException failure) {
            boolean first = false;
            boolean last;
            synchronized (copies) {
                first = r != null && done.add(i);
                last = copies.merge(i, -1, Integer::sum) == 0;
                if (last) {
                    copies.remove(i);
                }
            }
            if (done.contains(i)) {
                running.remove(i);
                if (last) {
                    // Before the task counts as reported: a stage without stragglers ends with its tasks released.
                    stage.releaseTask(i);
                }
            }
            if (first) {
                TaskResult result = r;
                synchronized (durations) {
                    durations.add(result.endMillis() - result.startMillis());
                }
                try {
                    callbacks.forEach(c -> c.onTaskEnd(new Callback.TaskEnd(computeId, stage, result)));
                } catch (RuntimeException e) {
                    finished.completeExceptionally(e);
                    next.set(n);
                } finally {
                    // Counted after the callbacks, so that the stage (and the computation) ends only once every
                    // task's end has been reported, not as soon as the last task is recorded while another
                    // thread is still reporting its own.
                    if (reported.incrementAndGet() == n) {
                        finished.complete(null);
                    }
                }
            } else if (failure != null && !done.contains(i)) {
                finished.completeExceptionally(failure);
                next.set(n);
            }
        }

        /** A running task that qualifies for a backup copy (and gets one now), or -1. */
        private long straggler() {
            long median;
            synchronized (durations) {
                if (durations.size() * 2 < n || durations.isEmpty()) {
                    return -1;
                }
                List<Long> sorted = new ArrayList<>(durations);
                java.util.Collections.sort(sorted);
                median = sorted.get(sorted.size() / 2);
            }
            long limitMillis = Math.max(STRAGGLER_MIN_MILLIS, STRAGGLER_FACTOR * median);
            long now = System.nanoTime();
            for (java.util.Map.Entry<Long, Long> e : running.entrySet()) {
                long i = e.getKey();
                synchronized (copies) {
                    // Checked and counted together: no copy starts once the task has succeeded (and been released).
                    if (!done.contains(i) && (now - e.getValue()) / 1_000_000 > limitMillis && backedUp.add(i)) {
                        copies.merge(i, 1, Integer::sum);
                        return i;
                    }
                }
            }
            return -1;
        }
    }

    private TaskResult runTask(Stage stage, long index) {
        return runTask(stage, index, null);
    }

    /**
     * Runs task {@code index} in up to {@code maxAttempts} attempts; with {@code io}, each attempt's writes are handed
     * to it and the attempt ends when they have finished (a failed write fails the attempt).
     */
    private TaskResult runTask(Stage stage, long index, ChunkIo io) {
        if (measuredTasksPerStage == 0) {
            return attempts(stage, index, null, io);
        }
        boolean measure = index < measuredTasksPerStage;
        java.util.concurrent.locks.Lock lock = measure ? measureLock.writeLock() : measureLock.readLock();
        lock.lock();
        try {
            return attempts(stage, index, measure ? SlotMeasurement.ALONE : null, io);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs task {@code index} in up to {@code maxAttempts} attempts, measured by {@code measure} when it is not null;
     * with {@code chunkIo}, each attempt's writes are handed to it and the attempt ends when they have finished (a
     * failed write fails the attempt).
     */
    private TaskResult attempts(Stage stage, long index, SlotMeasurement measure, ChunkIo chunkIo) {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            if (measure != null) {
                // The task must allocate what it uses, not take what an earlier task left.
                ArrayRecycler.releaseIdle();
            }
            HeapProbe.Measurement probe = measure != null ? measure.begin() : null;
            long allocatedBefore = ALLOCATION.currentThread();
            long start = System.currentTimeMillis();
            try {
                if (chunkIo != null) {
                    chunkIo.running(index);
                }
                TaskIo io = stage.task().run(index);
                if (chunkIo != null) {
                    chunkIo.finishTask(index).join();
                }
                long end = System.currentTimeMillis();
                long allocatedAfter = ALLOCATION.currentThread();
                long allocated = allocatedBefore < 0 || allocatedAfter < 0 ? -1 : allocatedAfter - allocatedBefore;
                if (allocated >= 0 && probe != null) {
                    // Not the task's: what the measurement itself allocated (or -1 when it cannot tell).
                    allocated = probe.probeAllocatedBytes() < 0 ? -1 : allocated - probe.probeAllocatedBytes();
                }
                return new TaskResult(
                        stage.id(),
                        index,
                        attempt,
                        start,
                        end,
                        io.bytesRead(),
                        io.bytesWritten(),
                        allocated,
                        probe == null ? -1 : probe.peakBytes(),
                        null,
                        probe == null ? null : measure.requests(probe));
            } catch (RuntimeException e) {
                last = unwrapCompletion(e);
                if (io.cubed.error.CorruptDataException.in(e) != null) {
                    // Corrupt stored data reads the same every time: fail at once, naming the chunk.
                    throw new TaskFailedException(stage.id(), stage.description(), index, attempt, e);
                }
            } finally {
                if (probe != null) {
                    probe.close();
                }
            }
            if (attempt < maxAttempts && retryDelayMillis > 0) {
                try {
                    Thread.sleep(retryDelayMillis * attempt);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw new TaskFailedException(stage.id(), stage.description(), index, maxAttempts, last);
    }

    /** The failure inside {@code e} when it only wraps a failed write's future. */
    private static RuntimeException unwrapCompletion(RuntimeException e) {
        return e instanceof java.util.concurrent.CompletionException && e.getCause() instanceof RuntimeException c
                ? c
                : e;
    }

    /** Reads the bytes the current thread has allocated, where the JVM supports it. */
    private static final class ThreadAllocation {
        private final com.sun.management.ThreadMXBean bean;

        ThreadAllocation() {
            java.lang.management.ThreadMXBean b = ManagementFactory.getThreadMXBean();
            com.sun.management.ThreadMXBean sun = null;
            if (b instanceof com.sun.management.ThreadMXBean) {
                sun = (com.sun.management.ThreadMXBean) b;
                if (!sun.isThreadAllocatedMemorySupported()) {
                    sun = null;
                } else if (!sun.isThreadAllocatedMemoryEnabled()) {
                    sun.setThreadAllocatedMemoryEnabled(true);
                }
            }
            this.bean = sun;
        }

        long currentThread() {
            return bean == null ? -1 : bean.getCurrentThreadAllocatedBytes();
        }
    }
}
