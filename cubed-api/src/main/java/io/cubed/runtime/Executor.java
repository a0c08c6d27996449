package io.cubed.runtime;

import java.util.List;

/**
 * Runs the stages of an {@link ExecutionPlan}: every task of a stage after every task of the stages it depends on.
 * Retries failed tasks; throws {@link io.cubed.error.TaskFailedException} when a task fails on every attempt.
 */
public interface Executor {
    /** A short name for logs, e.g. {@code "local(threads=8)"}. */
    String name();

    /**
     * How many tasks this executor runs at once: its threads, or a Spark application's task slots. Planners size tasks
     * by it (a rechunk prefers stages whose tasks fill whole waves of this many); 1 when unknown.
     */
    default int parallelism() {
        return 1;
    }

    /** Runs the plan, reporting to {@code callbacks}; returns when every stage has finished. */
    void execute(ExecutionPlan plan, List<Callback> callbacks);
}
