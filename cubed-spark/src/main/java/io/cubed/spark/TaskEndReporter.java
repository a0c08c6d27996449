package io.cubed.spark;

import io.cubed.runtime.Callback;
import io.cubed.runtime.Stage;
import io.cubed.runtime.TaskResult;
import java.util.List;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * Spark's result handler on the driver: one {@code TaskEnd} per task of a finished Spark task, and the release of
 * the tasks' inputs.
 */
final class TaskEndReporter extends AbstractFunction2<Object, TaskResult[], BoxedUnit> {
    private final String computeId;
    private final Stage stage;
    private final List<Callback> callbacks;
    private final ChunkReleases releases;

    TaskEndReporter(String computeId, Stage stage, List<Callback> callbacks, ChunkReleases releases) {
        this.computeId = computeId;
        this.stage = stage;
        this.callbacks = callbacks;
        this.releases = releases;
    }

    /**
     * Reports the partition's tasks; a task that met corrupt data fails the job here, on the driver (Spark fails
     * the job when its result handler throws), instead of being retried on an executor.
     */
    @Override
    public BoxedUnit apply(Object partition, TaskResult[] results) {
        for (TaskResult r : results) {
            if (r.failed()) {
                throw new io.cubed.error.TaskFailedException(
                        stage.id(),
                        stage.description(),
                        r.taskIndex(),
                        r.attempts(),
                        new io.cubed.error.CorruptDataException(r.failure()));
            }
            callbacks.forEach(c -> c.onTaskEnd(new Callback.TaskEnd(computeId, stage, r)));
            releases.release(r.taskIndex());
        }
        return BoxedUnit.UNIT;
    }
}
