package io.cubed.spark.sql;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.concat;
import static org.apache.spark.sql.functions.expr;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.raise_error;
import static org.apache.spark.sql.functions.when;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.spark.SparkStoreOptions;
import io.cubed.storage.ChunkStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Writes a DataFrame as a Zarr group ({@code df.write.format("zarr")}): the dimension columns become coordinate
 * arrays and every other column a variable over them. Rows are clustered by chunk with Spark's exchange (hash by the
 * chunk's linear index, sorted by the cell's key within each task), so that each chunk is written once, whole, by one
 * task ({@link ZarrWriteTask}). Modes: {@code errorifexists} (the default) and {@code ignore} as Spark's; {@code
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
        Configuration conf = new Configuration(jsc.hadoopConfiguration());
        o.storeOptions.asMap().forEach((k, v) -> {
            if (k.startsWith("fs.")) {
                conf.set(k, v);
            }
        });
        Path target = new Path(o.path);
        FileSystem fs;
        boolean exists;
        try {
            fs = target.getFileSystem(conf);
            target = fs.makeQualified(target);
            exists = fs.exists(target);
        } catch (IOException e) {
            throw new StorageException("zarr write to " + o.path + ": cannot look at the path: " + e.getMessage(), e);
        }
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
                    ZarrWriteInputs.requireNotRead(data, target, conf, o.path);
            }
        }
        ZarrWriteLayout layout = ZarrWriteLayout.of(spark, data, o);
        if (exists) {
            delete(fs, target, o.path);
        }
        try {
            run(spark, data, o, layout);
        } catch (Exception e) { // Spark's SparkException too, which Java does not see declared
            try {
                fs.delete(target, true);
            } catch (IOException | RuntimeException cleanup) {
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
        long chunkCount = 1;
        for (int a = 0; a < shape.length; a++) {
            chunkCount *= (shape[a] + layout.chunks[a] - 1) / layout.chunks[a];
        }
        if (chunkCount > 0) {
            Dataset<Row> keyed = keyed(spark, data, o, layout);
            int n = o.partitions > 0
                    ? o.partitions
                    : (int) Math.min(chunkCount, spark.sessionState().conf().numShufflePartitions());
            long cells = cellsPerChunk(layout.chunks);
            Dataset<Row> clustered =
                    keyed.repartition(n, expr("`__zarr_key` div " + cells)).sortWithinPartitions("__zarr_key");
            ZarrWriteTask task = new ZarrWriteTask(o.path, layout.dims, layout.vars, arrays, layout.chunks);
            String before = spark.sparkContext().getLocalProperty("spark.job.description");
            spark.sparkContext().setJobDescription("zarr write " + o.path);
            try {
                clustered
                        .queryExecution()
                        .toRdd()
                        .toJavaRDD()
                        .mapPartitions(task)
                        .collect();
            } finally {
                spark.sparkContext().setJobDescription(before);
            }
        }
        store.finish(arrays);
    }

    /** The rows as {@code (__zarr_key, variables...)}: each dimension's value looked up in its coordinate. */
    private static Dataset<Row> keyed(SparkSession spark, Dataset<Row> data, ZarrWriteOptions o, ZarrWriteLayout l) {
        Dataset<Row> df = data;
        int nd = l.dims.size();
        long cells = cellsPerChunk(l.chunks);
        StringBuilder chunkId = new StringBuilder("CAST(0 AS BIGINT)");
        StringBuilder offset = new StringBuilder("CAST(0 AS BIGINT)");
        for (int a = 0; a < nd; a++) {
            ZarrWriteCoordinate c = l.dims.get(a);
            String name = c.column.name;
            StructField f = data.schema().apply(data.schema().fieldIndex(name));
            List<Row> rows = new ArrayList<>(c.size());
            for (int i = 0; i < c.size(); i++) {
                rows.add(RowFactory.create(c.external(i), i));
            }
            String v = "__zarr_c" + a;
            String i = "__zarr_i" + a;
            StructType schema = new StructType().add(v, f.dataType(), false).add(i, DataTypes.IntegerType, false);
            Dataset<Row> lookup = spark.createDataFrame(rows, schema);
            Column dim = df.col(ZarrWriteLayout.quote(name));
            df = df.join(broadcast(lookup), dim.equalTo(lookup.col(v)), "left");
            String dimText = "zarr write to " + o.path + ": the dimension column " + name;
            Column checked = when(
                            dim.isNull(), raise_error(lit(dimText + " is null in a row; dimensions take no nulls")))
                    .when(
                            col(i).isNull(),
                            raise_error(concat(
                                    lit(dimText + " has the value "),
                                    dim.cast(DataTypes.StringType),
                                    lit(", which is not among the values of its option coords." + name))))
                    .otherwise(col(i));
            df = df.withColumn(i, checked);
            long chunksAfter = 1;
            long cellsAfter = 1;
            for (int b = a + 1; b < nd; b++) {
                chunksAfter *= (l.dims.get(b).size() + l.chunks[b] - 1) / l.chunks[b];
                cellsAfter *= l.chunks[b];
            }
            chunkId.append(" + (CAST(`")
                    .append(i)
                    .append("` AS BIGINT) div ")
                    .append(l.chunks[a])
                    .append(") * ")
                    .append(chunksAfter);
            offset.append(" + (`")
                    .append(i)
                    .append("` % ")
                    .append(l.chunks[a])
                    .append(") * ")
                    .append(cellsAfter);
        }
        List<Column> out = new ArrayList<>();
        out.add(expr("(" + chunkId + ") * " + cells + " + " + offset).as("__zarr_key"));
        for (ZarrWriteColumn v : l.vars) {
            out.add(data.col(ZarrWriteLayout.quote(v.name)));
        }
        return df.select(out.toArray(new Column[0]));
    }

    private static long cellsPerChunk(int[] chunks) {
        long cells = 1;
        for (int c : chunks) {
            cells *= c;
        }
        return cells;
    }

    private static void delete(FileSystem fs, Path target, String path) {
        try {
            if (!fs.delete(target, true) && fs.exists(target)) {
                throw new StorageException("zarr write to " + path + ": cannot delete what is there to overwrite it");
            }
        } catch (IOException e) {
            throw new StorageException(
                    "zarr write to " + path + ": cannot delete what is there to overwrite it: " + e.getMessage(), e);
        }
    }
}
