package io.cubed.spark.sql;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.spark.SparkStoreOptions;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.fs.Stores;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * Writes a DataFrame as a Zarr group ({@code df.write.format("zarr")}): the dimension columns become coordinate
 * arrays and every other column a variable over them. No rows move: each task of the DataFrame's own partitions
 * writes the chunks whose every cell it holds and stages the others as fragments ({@link ZarrWriteTask}), which a
 * second, small stage merges ({@link ZarrWriteMerge}); each chunk is written whole, once. Modes: {@code errorifexists} (the default) and {@code ignore} as Spark's; {@code
 * overwrite} deletes what is at the path once the input has been checked, and refuses a path the DataFrame reads;
 * {@code append} writes a path that does not exist and refuses one that does. A write that fails deletes what it
 * wrote; until it ends no reader finds a group at the path ({@link ZarrWriteStore}).
 */
final class ZarrWriter {
    private ZarrWriter() {}

    /** Writes {@code data} as {@code params} (the write's options, with {@code path}) and {@code mode} ask. */
    static void write(SparkSession spark, SaveMode mode, Map<String, String> params, Dataset<Row> data) {
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        ZarrWriteOptions o = ZarrWriteOptions.parse(params, SparkStoreOptions.from(jsc));
        // The place is looked at, emptied and cleaned up through the store the arrays are written with (Cubed's S3
        // client for s3a://), not through Hadoop's file system of the path, which for s3a:// is S3A and may not be
        // on the class path at all.
        Store place = Stores.open(o.path, o.storeOptions);
        boolean exists = !place.listChildren("").isEmpty();
        if (exists) {
            switch (mode) {
                case Ignore:
                    return;
                case ErrorIfExists:
                    throw new InvalidArgumentException("zarr write to " + o.path + ": the path already exists;"
                            + " use mode(\"overwrite\") to replace it or mode(\"ignore\") to keep it");
                case Append:
                    throw new InvalidArgumentException("zarr write to " + o.path + ": mode append writes a new"
                            + " group only, and the path exists; appending rows to a written grid is not supported"
                            + " (write a union of the old and new rows with mode overwrite to another path)");
                default:
                    Configuration conf = new Configuration(jsc.hadoopConfiguration());
                    o.storeOptions.asMap().forEach((k, v) -> {
                        if (k.startsWith("fs.")) {
                            conf.set(k, v);
                        }
                    });
                    ZarrWriteInputs.requireNotRead(data, o.path, conf);
            }
        }
        ZarrWriteLayout layout = ZarrWriteLayout.of(spark, data, o);
        if (exists) {
            delete(place, o.path);
        }
        try {
            run(spark, data, o, layout);
        } catch (Exception e) { // Spark's SparkException too, which Java does not see declared
            try {
                place.deletePrefix("");
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private static void run(SparkSession spark, Dataset<Row> data, ZarrWriteOptions o, ZarrWriteLayout layout) {
        ZarrWriteStore store = new ZarrWriteStore(o);
        long[] shape = layout.shape();
        for (ZarrWriteCoordinate c : layout.dims) {
            store.writeCoordinate(c);
        }
        List<ChunkStore> arrays = new ArrayList<>();
        for (ZarrWriteColumn v : layout.vars) {
            arrays.add(store.createVariable(v, layout.dims, shape, layout.chunks));
        }
        ZarrWriteGrid grid = new ZarrWriteGrid(o.path, layout.dims, layout.chunks);
        if (grid.chunkCount() > 0) {
            String before = spark.sparkContext().getLocalProperty("spark.job.description");
            spark.sparkContext().setJobDescription("zarr write " + o.path);
            try {
                write(spark, data, o, layout, grid, arrays);
            } finally {
                spark.sparkContext().setJobDescription(before);
            }
        }
        store.finish(arrays);
    }

    /**
     * The write's stages: the tasks over the DataFrame's own partitions ({@link ZarrWriteTask}), then, when some
     * chunks were staged as fragments, their merge ({@link ZarrWriteMerge}); the staging folder is deleted last.
     */
    private static void write(
            SparkSession spark,
            Dataset<Row> data,
            ZarrWriteOptions o,
            ZarrWriteLayout layout,
            ZarrWriteGrid grid,
            List<ChunkStore> arrays) {
        List<Column> cols = new ArrayList<>();
        for (ZarrWriteCoordinate d : layout.dims) {
            cols.add(data.col(ZarrWriteLayout.quote(d.column.name)));
        }
        for (ZarrWriteColumn v : layout.vars) {
            cols.add(data.col(ZarrWriteLayout.quote(v.name)));
        }
        Dataset<Row> input = data;
        if (o.partitions > 0) {
            int now = data.rdd().getNumPartitions();
            if (o.partitions < now) {
                input = data.coalesce(o.partitions);
            } else if (o.partitions > now) {
                input = data.repartition(o.partitions);
            }
        }
        Dataset<Row> rows = input.select(cols.toArray(new Column[0]));
        String url = o.path.endsWith("/") ? o.path.substring(0, o.path.length() - 1) : o.path;
        long itemBytes = 0;
        for (ZarrWriteColumn v : layout.vars) {
            itemBytes += v.dtype().itemSizeBytes();
        }
        long chunkSetBytes = Math.max(1, cellsPerChunk(layout.chunks) * itemBytes);
        int maxOpen = (int) Math.max(1, Math.min(1 << 16, o.bufferBytes / chunkSetBytes));
        ZarrWriteTask task = new ZarrWriteTask(grid, layout.vars, arrays, maxOpen, url, o.storeOptions);
        List<ZarrWriteTask.Result> results = rows.queryExecution()
                .toRdd()
                .toJavaRDD()
                .mapPartitionsWithIndex(task, false)
                .collect();
        Store staging = Stores.open(url, o.storeOptions);
        List<ZarrWriteMerge.Item> items = ZarrWriteFragments.toMerge(grid, results, staging);
        if (!items.isEmpty()) {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            int n = Math.max(1, Math.min(items.size(), jsc.defaultParallelism()));
            jsc.parallelize(items, n)
                    .mapPartitions(new ZarrWriteMerge(grid, layout.vars, arrays, url, o.storeOptions))
                    .collect();
        }
        staging.deletePrefix(ZarrWriteTask.STAGING);
    }

    private static long cellsPerChunk(int[] chunks) {
        long cells = 1;
        for (int c : chunks) {
            cells *= c;
        }
        return cells;
    }

    private static void delete(Store place, String path) {
        try {
            place.deletePrefix("");
        } catch (RuntimeException e) {
            throw new StorageException(
                    "zarr write to " + path + ": cannot delete what is there to overwrite it: " + e.getMessage(), e);
        }
        if (!place.listChildren("").isEmpty()) {
            throw new StorageException("zarr write to " + path + ": cannot delete what is there to overwrite it");
        }
    }
}
