package io.cubed.jobs.sql;

import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.AnalysisException;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * The Spark side of {@code cubed sql}: the session ({@link SqlSession}), each {@code --table} read with the {@code
 * zarr} data source as a temporary view, the query analysed (a syntax error, an unknown table or column fails here,
 * before anything is read), then its first rows printed or the whole result written ({@link SqlOutput}).
 */
final class SqlRun {
    private SqlRun() {}

    /** Runs {@code request}, printing to {@code out}. */
    static void run(SqlRequest request, PrintWriter out) {
        try (SqlSession session = SqlSession.start(request)) {
            SparkSession spark = session.spark();
            for (Map.Entry<String, String> t : request.tables().entrySet()) {
                register(
                        spark, t.getKey(), t.getValue(), request.readerOptions().get(t.getKey()));
            }
            Dataset<Row> result = analyse(spark, request);
            if (request.output() == null) {
                print(result, request.limit(), out);
            } else {
                SqlOutput.write(spark, result, request, out);
            }
        }
    }

    private static void register(SparkSession spark, String name, String path, Map<String, String> options) {
        Dataset<Row> table;
        try {
            table = spark.read().format("zarr").options(options).load(path);
        } catch (Exception e) {
            // Nothing is read but metadata here: a missing or unreadable path is refused input.
            throw new InvalidArgumentException(
                    "sql: --table " + name + "=" + path + ": " + SqlErrors.oneLine(SqlErrors.message(e)), e);
        }
        table.createOrReplaceTempView(name);
    }

    private static Dataset<Row> analyse(SparkSession spark, SqlRequest request) {
        try {
            return spark.sql(request.query());
        } catch (Exception e) {
            if (e instanceof AnalysisException a) {
                throw SqlErrors.analysis(a, request.tables().keySet());
            }
            throw SqlErrors.failure(e);
        }
    }

    /** Prints the first {@code limit} rows as Spark casts them to strings, and how many rows there are. */
    private static void print(Dataset<Row> result, int limit, PrintWriter out) {
        String[] names = result.columns();
        // Positional names, so that columns of the same name (a join's two `time`, say) stay apart.
        String[] positional = new String[names.length];
        Column[] asText = new Column[names.length];
        for (int c = 0; c < names.length; c++) {
            positional[c] = "c" + c;
            asText[c] = functions.col(positional[c]).cast("string");
        }
        List<String[]> rows = new ArrayList<>();
        long total;
        try {
            for (Row r : result.toDF(positional).select(asText).takeAsList(limit + 1)) {
                String[] cells = new String[names.length];
                for (int c = 0; c < cells.length; c++) {
                    cells[c] = r.isNullAt(c) ? null : r.getString(c);
                }
                rows.add(cells);
            }
            total = rows.size() <= limit ? rows.size() : result.count();
        } catch (CubedException e) {
            throw e;
        } catch (Exception e) {
            throw SqlErrors.failure(e);
        }
        List<String[]> shown = rows.subList(0, Math.min(limit, rows.size()));
        TextTable.print(out, Arrays.asList(names), shown);
        out.println(TextTable.count(shown.size(), total));
    }
}
