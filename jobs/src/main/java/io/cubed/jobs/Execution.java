package io.cubed.jobs;

import io.cubed.SpecConfig;
import io.cubed.plan.Spec;
import java.io.Serializable;
import java.util.concurrent.atomic.AtomicLong;
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
     * Runs {@link ChunkWork#open()}'s function for every index in {@code [0, n)} and returns the sum of its results;
     * {@code what} names the work in errors.
     */
    long forEachChunk(long n, String what, ChunkWork work);

    /** Stops what the run started (a Spark session it created). */
    @Override
    void close();

    /**
     * Work per chunk index: {@link #open} is called once per group of tasks (on a Spark executor: once per
     * partition), so that it may open arrays once; it must be serializable to run on Spark.
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
            return "in-process executor (" + config.threads() + " threads)";
        }

        @Override
        public long forEachChunk(long n, String what, ChunkWork work) {
            LongUnaryOperator op = work.open();
            AtomicLong sum = new AtomicLong();
            ParallelChunks.forEachIndex(n, config.threads(), what, i -> sum.addAndGet(op.applyAsLong(i)));
            return sum.get();
        }

        @Override
        public void close() {}
    }
}
