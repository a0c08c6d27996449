package io.cubed.jobs;

import io.cubed.SpecConfig;
import io.cubed.plan.Spec;
import java.io.Serializable;
import java.util.function.LongUnaryOperator;

/**
 * Where a command's work runs: a {@link Spec} for array plans, and a way to run one task per chunk index for the
 * commands that work chunk by chunk without a plan (copy, demo). Made by {@link ExecutionOptions#start}.
 */
public interface Execution extends AutoCloseable {
    /** The spec for this run's plans: its executor, budget, work directory and store options. */
    Spec spec();

    /** The settings this run resolved. */
    SpecConfig config();

    /** The executor's name for reports, e.g. {@code in-process executor (4 threads)}. */
    String name();

    /**
     * Runs {@link ChunkWork#open()}'s function for every index in {@code [0, n)} as one stage of the spec's executor
     * (threads in this JVM, or Spark tasks), each task projected to hold {@code projectedMemBytes}, with progress (a bar
     * on a terminal, log lines otherwise) and the executor's retries; returns the number of indexes whose function
     * returned a positive number of bytes (work done, not skipped). {@code what} names the stage.
     */
    default long forEachChunk(long n, String what, long projectedMemBytes, ChunkWork work) {
        return forEachTask(n, what, projectedMemBytes, 0, new ChunkWorkTask(work));
    }

    /**
     * Runs {@code task} for every index in {@code [0, n)} as one stage, as {@link #forEachChunk} does, each task
     * projected to hold {@code taskBytes} and its slot {@code ioBytes} more for store requests in flight ({@link
     * io.cubed.storage.ChunkIo}); returns the number of tasks that reported bytes written.
     */
    default long forEachTask(long n, String what, long taskBytes, long ioBytes, io.cubed.runtime.TaskFunction task) {
        java.util.concurrent.atomic.AtomicLong done = new java.util.concurrent.atomic.AtomicLong();
        java.util.List<io.cubed.runtime.Callback> callbacks = new java.util.ArrayList<>();
        callbacks.add(new io.cubed.runtime.Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                if (event.result().bytesWritten() > 0) {
                    done.incrementAndGet();
                }
            }
        });
        io.cubed.runtime.Callback progress = io.cubed.runtime.ProgressBar.forConsole();
        if (progress == null) {
            progress = io.cubed.runtime.ProgressLog.ifEnabled();
        }
        if (progress != null) {
            callbacks.add(progress);
        }
        io.cubed.runtime.Stage stage = new io.cubed.runtime.Stage(
                        "op-001", what, n, task, taskBytes + ioBytes, taskBytes, java.util.List.of())
                .withIoBytes(ioBytes);
        String id = "chunks-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        spec().executor().execute(new io.cubed.runtime.ExecutionPlan(id, java.util.List.of(stage)), callbacks);
        return done.get();
    }

    /** Stops what the run started (a Spark session it created). */
    @Override
    void close();

    /**
     * Work per chunk index, returning the bytes it wrote (0 when there was nothing to do): {@link #open} is called
     * once per JVM that runs tasks (once per Spark task on Spark), so that it may open arrays once; the function it
     * returns must be safe for concurrent use, and the work serializable to run on Spark.
     */
    @FunctionalInterface
    interface ChunkWork extends Serializable {
        LongUnaryOperator open();
    }

    /** The in-process executor: {@code threads} tasks at a time in this JVM. */
    final class Local implements Execution {
        private final SpecConfig config;
        private final Spec spec;

        Local(SpecConfig config) {
            this.config = config;
            this.spec = config.toSpec();
        }

        @Override
        public Spec spec() {
            return spec;
        }

        @Override
        public SpecConfig config() {
            return config;
        }

        @Override
        public String name() {
            int threads = config.threads();
            return "in-process executor (" + threads + (threads == 1 ? " thread)" : " threads)");
        }

        @Override
        public void close() {}
    }
}
