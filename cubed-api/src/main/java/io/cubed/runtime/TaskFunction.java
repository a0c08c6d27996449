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
}
