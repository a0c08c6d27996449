package io.cubed.spark.internal;

import io.cubed.error.CorruptDataException;
import io.cubed.runtime.TaskFunction;
import io.cubed.runtime.TaskIo;
import io.cubed.runtime.TaskResult;
import io.cubed.storage.ChunkIo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.lang.ref.SoftReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;

/**
 * The body of every Spark task: runs each task index of the partition's {@link TaskRange}s with the stage's
 * {@link TaskFunction} and returns one small {@link TaskResult} per index (times, bytes moved, bytes the thread
 * allocated) — never array data. A failing index is rethrown as a {@link TaskIndexFailure} naming it; Spark then
 * retries the whole partition (chunk writes are idempotent).
 *
 * <p>Spark deserializes a job's function for every Spark task it runs, from the same bytes. The task function
 * travels as its own serialized bytes under a key drawn when this object is made, and an executor JVM deserializes
 * those bytes once and hands the same {@link TaskFunction} to every later Spark task of the job: what the function
 * opens or computes once (stores, metadata, codecs) is then shared by the job's tasks in that JVM, as the in-process
 * executor shares one function among its threads (task functions are thread-safe for that reason), and each Spark
 * task skips deserializing the function's object graph. The JVM keeps the functions of the last {@value
 * #RECENT_TASKS} jobs it saw, softly: a function that holds data of its own (an in-memory input, say) never keeps
 * that memory from the tasks that need it, and one collected is deserialized again by its job's next Spark task.
 */
public final class StagePartitionFunction implements FlatMapFunction<Iterator<TaskRange>, TaskResult> {
    private static final long serialVersionUID = 2L;

    /** Task functions recently deserialized in this JVM, by key; a few jobs run at once, so a few suffice. */
    static final int RECENT_TASKS = 8;

    private static final Map<String, SoftReference<TaskFunction>> RECENT = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, SoftReference<TaskFunction>> eldest) {
            return size() > RECENT_TASKS;
        }
    };

    /** Most Cubed tasks of a partition whose reads start before they run ({@link ChunkIo}). */
    static final int MAX_AHEAD = 64;

    private final String stageId;
    private final String key;
    /** Bytes the partition may hold in store requests in flight ({@link io.cubed.runtime.Stage#ioBytes}). */
    private final long ioBytes;

    private transient TaskFunction task;
    /** The task function's serialized form, made once per object however many Spark tasks serialize it. */
    private transient byte[] taskBytes;

    public StagePartitionFunction(String stageId, TaskFunction task) {
        this(stageId, task, 0);
    }

    /**
     * The body of the Spark tasks of stage {@code stageId}, each keeping up to {@code ioBytes} in store requests in
     * flight (0: every request made by the Cubed task on its own thread).
     */
    public StagePartitionFunction(String stageId, TaskFunction task, long ioBytes) {
        this.stageId = Objects.requireNonNull(stageId, "stageId");
        this.task = Objects.requireNonNull(task, "task");
        this.key = stageId + "/" + UUID.randomUUID();
        this.ioBytes = Math.max(0, ioBytes);
    }

    public String stageId() {
        return stageId;
    }

    public TaskFunction task() {
        return task;
    }

    @Override
    public Iterator<TaskResult> call(Iterator<TaskRange> ranges) {
        if (ioBytes > 0) {
            ChunkIo io = new ChunkIo(ioBytes);
            try (ChunkIo.Binding bound = io.bind()) {
                return callPipelined(ranges, io);
            }
        }
        TaskContext context = TaskContext.get();
        int attempt = context == null ? 1 : context.attemptNumber() + 1;
        List<TaskResult> results = new ArrayList<>();
        while (ranges.hasNext()) {
            TaskRange range = ranges.next();
            for (long i = range.start(); i < range.end(); i++) {
                if (context != null) {
                    // Cancelled (another task failed the stage, or the user cancelled): no further chunk is
                    // written. Spark does not interrupt the thread (interrupts break HDFS and S3 clients).
                    context.killTaskIfInterrupted();
                }
                TaskResult r = run(i, attempt);
                results.add(r);
                if (r.failed()) {
                    // Reported to the driver, which fails the stage: the partition's other tasks are not run.
                    return results.iterator();
                }
            }
        }
        return results.iterator();
    }

    /**
     * Runs the partition's tasks in order with their store requests kept in flight by {@code io}: the reads of the
     * next tasks start while one runs (while the slot has room), and the writes of a task are in flight while the next
     * ones run. The partition ends once every write has finished; a failed write fails the partition naming its task
     * (Spark runs the partition again: writes are idempotent).
     */
    private Iterator<TaskResult> callPipelined(Iterator<TaskRange> ranges, ChunkIo io) {
        TaskContext context = TaskContext.get();
        int attempt = context == null ? 1 : context.attemptNumber() + 1;
        java.util.ArrayDeque<Long> ahead = new java.util.ArrayDeque<>();
        List<TaskResult> results = new ArrayList<>();
        List<java.util.concurrent.CompletableFuture<Void>> writes = new ArrayList<>();
        java.util.PrimitiveIterator.OfLong indexes = indexes(ranges);
        boolean readsAhead = true;
        try {
            while (true) {
                while (readsAhead && ahead.size() < MAX_AHEAD && io.hasRoom() && indexes.hasNext()) {
                    long i = indexes.nextLong();
                    ahead.add(i);
                    if (io.readAheadFor(i, () -> readAhead(i)) == 0) {
                        readsAhead = false;
                    }
                }
                long i;
                if (!ahead.isEmpty()) {
                    i = ahead.poll();
                } else if (indexes.hasNext()) {
                    i = indexes.nextLong();
                } else {
                    break;
                }
                if (context != null) {
                    context.killTaskIfInterrupted();
                }
                io.running(i);
                TaskResult r = run(i, attempt);
                writes.add(io.finishTask(i).handle((v, e) -> {
                    if (e != null) {
                        Throwable c = e.getCause() != null ? e.getCause() : e;
                        throw new TaskIndexFailure(stageId, i, c);
                    }
                    return v;
                }));
                results.add(r);
                if (r.failed()) {
                    break;
                }
            }
            for (java.util.concurrent.CompletableFuture<Void> w : writes) {
                try {
                    w.join();
                } catch (java.util.concurrent.CompletionException e) {
                    throw e.getCause() instanceof TaskIndexFailure f ? f : e;
                }
            }
        } finally {
            for (long i : ahead) {
                io.finishTask(i);
            }
        }
        return results.iterator();
    }

    private void readAhead(long i) {
        try {
            task.readAhead(i);
        } catch (RuntimeException e) {
            // Reading ahead only saves time: the task reads what failed when it runs, and reports the error.
        }
    }

    /** The task indexes of {@code ranges}, in order. */
    private static java.util.PrimitiveIterator.OfLong indexes(Iterator<TaskRange> ranges) {
        return new java.util.PrimitiveIterator.OfLong() {
            private TaskRange range;
            private long next;

            @Override
            public boolean hasNext() {
                while ((range == null || next >= range.end()) && ranges.hasNext()) {
                    range = ranges.next();
                    next = range.start();
                }
                return range != null && next < range.end();
            }

            @Override
            public long nextLong() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                return next++;
            }
        };
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        byte[] bytes = taskBytes();
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private synchronized byte[] taskBytes() throws IOException {
        if (taskBytes == null) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            try (ObjectOutputStream o = new ObjectOutputStream(buf)) {
                o.writeObject(task);
            }
            taskBytes = buf.toByteArray();
        }
        return taskBytes;
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        TaskFunction known = recent(key);
        if (known == null) {
            // Deserialized outside the lock; a Spark task of the same job that got there first wins.
            TaskFunction read = readTask(bytes);
            synchronized (RECENT) {
                known = recent(key);
                if (known == null) {
                    RECENT.put(key, new SoftReference<>(read));
                    known = read;
                }
            }
        }
        task = known;
    }

    /** The task function kept under {@code key}, or null if none is (never kept, evicted or collected). */
    private static TaskFunction recent(String key) {
        synchronized (RECENT) {
            SoftReference<TaskFunction> ref = RECENT.get(key);
            return ref == null ? null : ref.get();
        }
    }

    /** The task function of {@code bytes}, its classes resolved as Spark resolves the job's: by the task's loader. */
    private static TaskFunction readTask(byte[] bytes) throws IOException, ClassNotFoundException {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try (ObjectInputStream o = new ObjectInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                if (loader != null) {
                    try {
                        return Class.forName(desc.getName(), false, loader);
                    } catch (ClassNotFoundException e) {
                        // a primitive type, or a class only the default resolution finds
                    }
                }
                return super.resolveClass(desc);
            }
        }) {
            return (TaskFunction) o.readObject();
        }
    }

    /** How many task functions this JVM keeps for later Spark tasks of their jobs (for tests). */
    static int recentTasks() {
        synchronized (RECENT) {
            return RECENT.size();
        }
    }

    /**
     * Runs task {@code index} once (attempt {@code attempt}), measuring it; a failure is a {@link TaskIndexFailure}
     * naming the index. Spark tasks call it for each index of their range; the driver calls it for stages too small
     * for a Spark job.
     */
    public TaskResult run(long index, int attempt) {
        long allocatedBefore = ThreadAllocation.currentThread();
        long start = System.currentTimeMillis();
        TaskIo io;
        try {
            io = task.run(index);
        } catch (RuntimeException e) {
            CorruptDataException corrupt = CorruptDataException.in(e);
            if (corrupt != null) {
                // Not thrown: Spark would retry the task, and the chunk would read as corrupt again.
                return TaskResult.corrupt(stageId, index, attempt, corrupt.getMessage());
            }
            throw new TaskIndexFailure(stageId, index, e);
        }
        long end = System.currentTimeMillis();
        long allocatedAfter = ThreadAllocation.currentThread();
        long allocated = allocatedBefore < 0 || allocatedAfter < 0 ? -1 : allocatedAfter - allocatedBefore;
        // -1: peak memory is not measured on Spark (a measured task must run alone in its JVM).
        return new TaskResult(stageId, index, attempt, start, end, io.bytesRead(), io.bytesWritten(), allocated, -1);
    }
}
