package io.cubed.runtime;

import java.util.List;

/**
 * Runs the stages of an {@link ExecutionPlan}: every task of a stage after every task of the stages it depends on.
 * Retries failed tasks; throws {@link io.cubed.error.TaskFailedException} when a task fails on every attempt.
 */
public interface Executor {
    /** A short name for logs, e.g. {@code "local(threads=8)"}. */
    String name();

    /** Runs the plan, reporting to {@code callbacks}; returns when every stage has finished. */
    void execute(ExecutionPlan plan, List<Callback> callbacks);
}
