package io.cubed.runtime;

import java.io.Serializable;

/**
 * The work of one stage, run once per task index. Serializable, because Spark ships it to executors; it must be
 * idempotent, because a failed or slow task may run again.
 */
@FunctionalInterface
public interface TaskFunction extends Serializable {
    /** Runs task {@code taskIndex} (0 ≤ index &lt; the stage's task count) and reports the bytes it moved. */
    TaskIo run(long taskIndex);

    /**
     * Tells the task that task {@code taskIndex} has succeeded, that no copy of it still runs and that it will not run
     * again in this execution, so that it may free what only it needed (for a blockwise task, the stored input chunks
     * no unfinished task reads). Executors that cannot promise all three never call it. The in-process executor calls
     * it once per task index, after the last copy of the task has ended; the Spark executor, on the driver, for the
     * tasks of each Spark task whose result has arrived, and only with speculation off (Spark never runs a result task
     * again once its result has arrived, but a speculative copy may still be running). The default frees nothing.
     */
    default void release(long taskIndex) {}

    /**
     * Starts reading what task {@code taskIndex} will read, through the task slot's {@link io.cubed.storage.ChunkIo}
     * bound to this thread, so that its requests are in flight while earlier tasks run; called by executors before
     * they run the task, on the thread that will run it. Must not fail the task: what cannot be read ahead is read when
     * the task runs. The default reads nothing ahead.
     */
    default void readAhead(long taskIndex) {}

    /**
     * Whether {@link #release} frees anything (deletes input chunks): an executor that groups tasks releases a group
     * only when all of it has ended, so it keeps such groups small. The default frees nothing.
     */
    default boolean releasesInputs() {
        return false;
    }
}
