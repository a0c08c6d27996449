package io.cubed.spark.sql;

import io.cubed.error.InvalidArgumentException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.execution.datasources.v2.FileTable;
import scala.collection.JavaConverters;

/**
 * The paths a DataFrame reads (Zarr tables, and Spark's file sources of either API), so that an overwrite never
 * deletes its own input: a target that holds, or lies under, a path read is refused.
 */
final class ZarrWriteInputs {
    private ZarrWriteInputs() {}

    /** Refuses to replace {@code path} (qualified as Hadoop would) when {@code data} reads it, anything under it, or a parent. */
    static void requireNotRead(Dataset<Row> data, String path, Configuration conf) {
        String t = slash(qualify(path, conf));
        for (String read : readPaths(data.queryExecution().analyzed(), conf)) {
            String r = slash(read);
            if (r.startsWith(t) || t.startsWith(r)) {
                throw new InvalidArgumentException("zarr write to " + path + ": the DataFrame reads " + read
                        + ", which overwriting " + path + " would delete; write to another path (and rename"
                        + " afterwards), or cache and materialise the input elsewhere first");
            }
        }
    }

    private static List<String> readPaths(LogicalPlan plan, Configuration conf) {
        List<String> out = new ArrayList<>();
        for (LogicalPlan leaf : JavaConverters.seqAsJavaList(plan.collectLeaves())) {
            List<String> roots = new ArrayList<>();
            if (leaf instanceof DataSourceV2Relation r) {
                if (r.table() instanceof ZarrTable z) {
                    roots.add(z.url());
                } else if (r.table() instanceof FileTable f) {
                    for (Path p : JavaConverters.seqAsJavaList(f.fileIndex().rootPaths())) {
                        roots.add(p.toString());
                    }
                }
            } else if (leaf instanceof LogicalRelation l && l.relation() instanceof HadoopFsRelation h) {
                for (Path p : JavaConverters.seqAsJavaList(h.location().rootPaths())) {
                    roots.add(p.toString());
                }
            }
            for (String root : roots) {
                out.add(qualify(root, conf));
            }
        }
        return out;
    }

    private static String qualify(String path, Configuration conf) {
        try {
            Path p = new Path(path);
            return p.getFileSystem(conf).makeQualified(p).toString();
        } catch (IOException | RuntimeException e) {
            return path;
        }
    }

    private static String slash(String p) {
        return p.endsWith("/") ? p : p + "/";
    }
}
