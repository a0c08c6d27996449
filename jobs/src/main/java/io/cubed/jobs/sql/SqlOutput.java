package io.cubed.jobs.sql;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.StoreLocation;
import io.cubed.storage.fs.Stores;
import java.io.PrintWriter;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.CreatableRelationProvider;
import org.apache.spark.sql.sources.DataSourceRegister;

/**
 * {@code cubed sql --output PATH}: the result written with {@code df.write().format(F).options(O).save(PATH)}, after
 * checks made before the query runs: the format's data source can write, and the output is not, does not hold and
 * does not lie inside a table's path. An output that exists is refused unless {@code --mode overwrite} (Spark's
 * {@code ErrorIfExists} and {@code Overwrite} modes). A write that fails leaves nothing at the output: what the job
 * left there (Spark's file formats commit their files at the end of a job, but leave its directory) is deleted.
 */
final class SqlOutput {
    private SqlOutput() {}

    static void write(SparkSession spark, Dataset<Row> result, SqlRequest request, PrintWriter out) {
        SqlRequest.Output output = request.output();
        OutputFormat format = output.format();
        Map<String, String> options = request.writerOptions();
        for (Map.Entry<String, String> t : request.tables().entrySet()) {
            StoreLocation.requireApart("sql --output (table " + t.getKey() + ")", t.getValue(), output.path());
        }
        if (!format.sparkFileFormat()) {
            requireWriteSupport(format, result, output.path(), options);
        }
        WrittenRows counter = new WrittenRows();
        spark.sparkContext().addSparkListener(counter);
        long rows;
        try {
            try {
                result.write()
                        .format(format.source())
                        .options(options)
                        .mode(output.overwrite() ? SaveMode.Overwrite : SaveMode.ErrorIfExists)
                        .save(output.path());
            } catch (Exception e) {
                if (e instanceof AnalysisException a) {
                    // Refused before any job ran: nothing was written (an output that exists, say).
                    throw refused(a, output);
                }
                // The output did not exist (Spark checked), or --mode overwrite had Spark delete it before the job:
                // what a failed job leaves there is a partial result.
                deleteQuietly(output.path(), request, e);
                throw SqlErrors.failure(e);
            }
            rows = format.sparkFileFormat() ? counter.awaitRows() : -1;
        } finally {
            spark.sparkContext().removeSparkListener(counter);
        }
        out.println("wrote " + output.path() + " (" + format.source()
                + (rows >= 0 ? ", " + rows + (rows == 1 ? " row" : " rows") : "") + ")");
    }

    /**
     * Refuses a format whose data source cannot write a new path in batch: it writes through Spark's V1 interface
     * ({@link CreatableRelationProvider}), or it is a {@link TableProvider} that takes the DataFrame's schema and gives
     * a table with {@link TableCapability#BATCH_WRITE}.
     */
    private static void requireWriteSupport(
            OutputFormat format, Dataset<Row> result, String path, Map<String, String> options) {
        Object provider = null;
        for (DataSourceRegister r : ServiceLoader.load(DataSourceRegister.class)) {
            if (r.shortName().equalsIgnoreCase(format.source())) {
                provider = r;
                break;
            }
        }
        if (provider == null) {
            throw new InvalidArgumentException(
                    "sql: --format " + format.source() + ": no Spark data source of" + " that name on the class path");
        }
        if (provider instanceof CreatableRelationProvider) {
            return;
        }
        if (provider instanceof TableProvider tp && tp.supportsExternalMetadata()) {
            Map<String, String> withPath = new HashMap<>(options);
            withPath.put("path", path);
            Table t = tp.getTable(result.schema(), new Transform[0], withPath);
            if (t instanceof SupportsWrite && t.capabilities().containsAll(EnumSet.of(TableCapability.BATCH_WRITE))) {
                return;
            }
        }
        throw new InvalidArgumentException("sql: --format " + format.source() + ": the " + format.source()
                + " data source of this build reads but cannot write; write the result as csv, parquet or json");
    }

    private static InvalidArgumentException refused(AnalysisException e, SqlRequest.Output output) {
        if ("PATH_ALREADY_EXISTS".equals(e.getErrorClass())) {
            return new InvalidArgumentException(
                    "sql: --output " + output.path() + " exists; pass --mode overwrite to replace it", e);
        }
        return new InvalidArgumentException(
                "sql: --output " + output.path() + ": " + SqlErrors.oneLine(SqlErrors.message(e)), e);
    }

    /** Deletes what a failed write left at {@code path}, with the store options of {@code --conf}. */
    private static void deleteQuietly(String path, SqlRequest request, Exception cause) {
        Map<String, String> store = new HashMap<>();
        request.conf().forEach((k, v) -> {
            if (!k.startsWith("spark.")) {
                store.put(k, v);
            }
        });
        try (Store s = Stores.open(path, StoreOptions.of(store))) {
            s.deletePrefix("");
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }
}
