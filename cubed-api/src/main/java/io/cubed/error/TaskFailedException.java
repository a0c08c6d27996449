package io.cubed.error;

/** A task failed on every attempt; the message names the operation, the task and the cause. */
public class TaskFailedException extends CubedException {
    private static final long serialVersionUID = 1L;

    private final String stageId;
    private final long taskIndex;
    private final int attempts;

    public TaskFailedException(String stageId, String description, long taskIndex, int attempts, Throwable cause) {
        super(
                stageId + " " + description + ": task " + taskIndex + " failed after " + attempts + " attempt"
                        + (attempts == 1 ? "" : "s") + ": " + messageOf(cause),
                cause);
        this.stageId = stageId;
        this.taskIndex = taskIndex;
        this.attempts = attempts;
    }

    private static String messageOf(Throwable t) {
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    public String stageId() {
        return stageId;
    }

    public long taskIndex() {
        return taskIndex;
    }

    public int attempts() {
        return attempts;
    }
}
