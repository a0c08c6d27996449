package io.cubed.runtime;

import io.cubed.error.InvalidArgumentException;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One operation as executors see it: an id such as {@code op-003}, a description for people, a number of tasks, the
 * task function, each task's projected memory in bytes, and the ids of the stages that must finish first. Nothing here
 * knows about arrays or Zarr.
 */
public final class Stage {
    private static final Logger LOG = LoggerFactory.getLogger(Stage.class);

    private final String id;
    private final String description;
    private final long numTasks;
    private final TaskFunction task;
    private final long projectedMemBytes;
    private final long workingSetBytes;
    private final List<String> dependsOn;
    private final long ioBytes;

    /** A stage whose tasks' working set is taken to be their whole projected memory. */
    public Stage(
            String id,
            String description,
            long numTasks,
            TaskFunction task,
            long projectedMemBytes,
            List<String> dependsOn) {
        this(id, description, numTasks, task, projectedMemBytes, projectedMemBytes, dependsOn);
    }

    /**
     * A stage of {@code numTasks} tasks, each projected to need {@code projectedMemBytes} including the reserve and
     * {@code workingSetBytes} without it (the chunks and buffers the task itself holds).
     */
    public Stage(
            String id,
            String description,
            long numTasks,
            TaskFunction task,
            long projectedMemBytes,
            long workingSetBytes,
            List<String> dependsOn) {
        if (numTasks < 0) {
            throw new InvalidArgumentException("stage " + id + " has a negative number of tasks: " + numTasks);
        }
        this.id = Objects.requireNonNull(id, "id");
        this.description = Objects.requireNonNull(description, "description");
        this.numTasks = numTasks;
        this.task = Objects.requireNonNull(task, "task");
        this.projectedMemBytes = projectedMemBytes;
        this.workingSetBytes = Math.max(0, Math.min(workingSetBytes, projectedMemBytes));
        this.dependsOn = List.copyOf(dependsOn);
        this.ioBytes = 0;
    }

    private Stage(Stage s, long ioBytes) {
        this.id = s.id;
        this.description = s.description;
        this.numTasks = s.numTasks;
        this.task = s.task;
        this.projectedMemBytes = s.projectedMemBytes;
        this.workingSetBytes = s.workingSetBytes;
        this.dependsOn = s.dependsOn;
        this.ioBytes = ioBytes;
    }

    /**
     * This stage with {@code ioBytes} per task slot for store requests kept in flight ({@link
     * io.cubed.storage.ChunkIo}: reads of the next tasks' chunks, writes of the last tasks' chunks), counted in its
     * projected memory, which must already include them; 0: none, every request made by the task on its own thread.
     */
    public Stage withIoBytes(long ioBytes) {
        if (ioBytes < 0 || ioBytes > projectedMemBytes) {
            throw new InvalidArgumentException("stage " + id + ": " + ioBytes + " bytes for requests in flight, outside"
                    + " its projected memory of " + projectedMemBytes);
        }
        return new Stage(this, ioBytes);
    }

    /** Bytes per task slot for store requests kept in flight (part of {@link #projectedMemBytes}); 0: none. */
    public long ioBytes() {
        return ioBytes;
    }

    public String id() {
        return id;
    }

    public String description() {
        return description;
    }

    public long numTasks() {
        return numTasks;
    }

    public TaskFunction task() {
        return task;
    }

    /** Projected memory of one task of this stage, in bytes. */
    public long projectedMemBytes() {
        return projectedMemBytes;
    }

    /** Ids of the stages that must complete before this one starts. */
    /** What one task holds itself: its projected memory without the reserve. */
    public long workingSetBytes() {
        return workingSetBytes;
    }

    public List<String> dependsOn() {
        return dependsOn;
    }

    @Override
    public String toString() {
        return id + " " + description + " (" + numTasks + " tasks)";
    }

    /** Whether releasing this stage's tasks frees their input chunks ({@link TaskFunction#releasesInputs}). */
    public boolean releasesInputs() {
        return task.releasesInputs();
    }

    /**
     * {@linkplain TaskFunction#release Releases} task {@code taskIndex}, for executors that know it has succeeded and
     * will not run again. A failure here loses nothing (what the task would have freed goes with the computation's
     * intermediates), so it is logged, not raised.
     */
    public void releaseTask(long taskIndex) {
        try {
            task.release(taskIndex);
        } catch (RuntimeException e) {
            LOG.warn(
                    "{} {}: task {} could not free its inputs ({}); they are deleted with the computation's"
                            + " intermediates",
                    id,
                    description,
                    taskIndex,
                    e.toString());
        }
    }
}
