package io.cubed.spark.internal;

import io.cubed.runtime.TaskResult;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.TaskContext;
import scala.collection.Iterator;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction2;

/**
 * Runs in each Spark task after {@link StagePartitionFunction}: gathers the partition's {@link TaskResult}s into the
 * small array that Spark sends back to the driver (what {@code collect()} does for a whole job, per partition). A
 * function of the task context and the results, as {@code runJob} takes it without wrapping it in a closure of its own
 * (which Spark's closure cleaner would then inspect on every job).
 */
public final class PartitionResults extends AbstractFunction2<TaskContext, Iterator<TaskResult>, TaskResult[]>
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The class tag Spark's {@code runJob} needs for the per-partition result. */
    public static final ClassTag<TaskResult[]> CLASS_TAG = ClassTag$.MODULE$.apply(TaskResult[].class);

    @Override
    public TaskResult[] apply(TaskContext context, Iterator<TaskResult> results) {
        List<TaskResult> out = new ArrayList<>();
        while (results.hasNext()) {
            out.add(results.next());
        }
        return out.toArray(new TaskResult[0]);
    }
}
