package io.cubed.spark.internal;

import io.cubed.error.CubedException;

/**
 * Thrown by {@link StagePartitionFunction} when a task fails: names the stage and the task index (a Spark task may run
 * several) and keeps the task's exception as its cause, so the driver can report the root cause without Spark's
 * wrapping.
 */
public final class TaskIndexFailure extends CubedException {
    private static final long serialVersionUID = 1L;

    private final String stageId;
    private final long taskIndex;

    public TaskIndexFailure(String stageId, long taskIndex, Throwable cause) {
        super(stageId + " task " + taskIndex + ": " + messageOf(cause), cause);
        this.stageId = stageId;
        this.taskIndex = taskIndex;
    }

    /** The message of {@code t}, or its class name when it has none. */
    static String messageOf(Throwable t) {
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    public String stageId() {
        return stageId;
    }

    public long taskIndex() {
        return taskIndex;
    }
}
