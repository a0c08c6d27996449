package io.cubed.spark.internal;

import io.cubed.runtime.TaskResult;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import scala.collection.Iterator;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;

/**
 * Runs in each Spark task after {@link StagePartitionFunction}: gathers the partition's {@link TaskResult}s into the
 * small array that Spark sends back to the driver (what {@code collect()} does for a whole job, per partition).
 */
public final class PartitionResults extends AbstractFunction1<Iterator<TaskResult>, TaskResult[]>
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The class tag Spark's {@code runJob} needs for the per-partition result. */
    public static final ClassTag<TaskResult[]> CLASS_TAG = ClassTag$.MODULE$.apply(TaskResult[].class);

    @Override
    public TaskResult[] apply(Iterator<TaskResult> results) {
        List<TaskResult> out = new ArrayList<>();
        while (results.hasNext()) {
            out.add(results.next());
        }
        return out.toArray(new TaskResult[0]);
    }
}
