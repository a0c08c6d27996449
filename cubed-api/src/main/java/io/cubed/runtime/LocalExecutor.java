package io.cubed.runtime;

import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.TaskFailedException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs plans in this JVM on a pool of threads: the embedded default for small work and tests. Stages run one after
 * another; the tasks of a stage run {@code threads} at a time, each retried up to {@code maxAttempts} times.
 */
public final class LocalExecutor implements Executor {
    private static final ThreadAllocation ALLOCATION = new ThreadAllocation();

    private final int threads;
    private final int maxAttempts;
    private final long retryDelayMillis;

    /** An executor with {@code threads} threads and {@code maxAttempts} attempts per task (at least 1 each). */
    public LocalExecutor(int threads, int maxAttempts) {
        this(threads, maxAttempts, 100);
    }

    /** As {@link #LocalExecutor(int, int)}, waiting {@code retryDelayMillis} × attempt before each retry. */
    public LocalExecutor(int threads, int maxAttempts, long retryDelayMillis) {
        if (threads < 1) {
            throw new InvalidArgumentException("LocalExecutor needs at least 1 thread, got " + threads);
        }
        if (maxAttempts < 1) {
            throw new InvalidArgumentException("LocalExecutor needs at least 1 attempt per task, got " + maxAttempts);
        }
        this.threads = threads;
        this.maxAttempts = maxAttempts;
        this.retryDelayMillis = Math.max(0, retryDelayMillis);
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

    @Override
    public String name() {
        return "local(threads=" + threads + ")";
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
            Throwable f = failure;
            callbacks.forEach(c -> c.onComputeEnd(new Callback.ComputeEnd(computeId, f)));
        }
    }

    private void runStage(ExecutorService pool, String computeId, Stage stage, List<Callback> callbacks) {
        long n = stage.numTasks();
        AtomicLong next = new AtomicLong();
        AtomicReference<RuntimeException> firstFailure = new AtomicReference<>();
        List<Future<?>> workers = new ArrayList<>();
        for (long w = 0; w < Math.min(threads, n); w++) {
            workers.add(pool.submit(() -> {
                for (long i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                    try {
                        TaskResult r = runTask(stage, i);
                        callbacks.forEach(c -> c.onTaskEnd(new Callback.TaskEnd(computeId, stage, r)));
                    } catch (RuntimeException e) {
                        firstFailure.compareAndSet(null, e);
                        next.set(n);
                    }
                }
            }));
        }
        try {
            for (Future<?> f : workers) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CubedException(stage.id() + " " + stage.description() + " was interrupted", e);
        } catch (ExecutionException e) {
            throw new CubedException(stage.id() + " " + stage.description() + " failed: " + e.getCause(), e.getCause());
        }
        if (firstFailure.get() != null) {
            throw firstFailure.get();
        }
    }

    private TaskResult runTask(Stage stage, long index) {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            long allocatedBefore = ALLOCATION.currentThread();
            long start = System.currentTimeMillis();
            try {
                TaskIo io = stage.task().run(index);
                long end = System.currentTimeMillis();
                long allocatedAfter = ALLOCATION.currentThread();
                long allocated = allocatedBefore < 0 || allocatedAfter < 0 ? -1 : allocatedAfter - allocatedBefore;
                return new TaskResult(
                        stage.id(), index, attempt, start, end, io.bytesRead(), io.bytesWritten(), allocated);
            } catch (RuntimeException e) {
                last = e;
                if (attempt < maxAttempts && retryDelayMillis > 0) {
                    try {
                        Thread.sleep(retryDelayMillis * attempt);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
            }
        }
        throw new TaskFailedException(stage.id(), stage.description(), index, maxAttempts, last);
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
