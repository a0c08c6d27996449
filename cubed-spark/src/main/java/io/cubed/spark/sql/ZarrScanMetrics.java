package io.cubed.spark.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.adaptive.QueryStageExec;
import org.apache.spark.sql.execution.metric.SQLMetric;
import scala.collection.JavaConverters;

/**
 * The {@code zarr} scans' metrics of a query that has run: how many chunks its scans read and how many bytes of values,
 * summed over every zarr scan of the executed plan (what Spark's UI shows on the scan nodes).
 */
public final class ZarrScanMetrics {
    private ZarrScanMetrics() {}

    /** Chunk reads of {@code df}'s zarr scans (one per chunk and variable), after an action on {@code df} ran. */
    public static long chunksRead(Dataset<?> df) {
        return sum(df, ZarrMetrics.CHUNKS_READ);
    }

    /** Bytes of element values the zarr scans of {@code df} read, after an action on {@code df} ran. */
    public static long valueBytesRead(Dataset<?> df) {
        return sum(df, ZarrMetrics.BYTES_READ);
    }

    private static long sum(Dataset<?> df, String metric) {
        long total = 0;
        for (SparkPlan p : nodes(df.queryExecution().executedPlan())) {
            scala.Option<SQLMetric> m = p.metrics().get(metric);
            if (m.isDefined()) {
                total += m.get().value();
            }
        }
        return total;
    }

    private static List<SparkPlan> nodes(SparkPlan root) {
        List<SparkPlan> out = new ArrayList<>();
        List<SparkPlan> todo = new ArrayList<>();
        todo.add(root);
        while (!todo.isEmpty()) {
            SparkPlan p = todo.remove(todo.size() - 1);
            out.add(p);
            if (p instanceof AdaptiveSparkPlanExec a) {
                todo.add(a.executedPlan());
            } else if (p instanceof QueryStageExec q) {
                todo.add(q.plan());
            }
            todo.addAll(JavaConverters.seqAsJavaList(p.children()));
        }
        return out;
    }
}
