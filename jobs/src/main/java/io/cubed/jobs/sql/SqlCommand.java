package io.cubed.jobs.sql;

import io.cubed.error.InvalidArgumentException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cubed sql "SELECT …" --table era=PATH}: one Spark SQL query over Zarr arrays and groups read with the {@code
 * zarr} data source, printed as a table or written with {@code --output}. Every value is checked before Spark starts;
 * the query itself (syntax, tables, columns) before anything is read.
 */
@Command(
        name = "sql",
        description = {
            "Run a Spark SQL query over Zarr arrays and groups (each a table: one column per dimension and per"
                    + " variable) and print the result or write it as CSV, Parquet, JSON or Zarr.",
            "Runs on local[N] Spark from the build's jars (no Spark installation needed), on $SPARK_HOME's jars when"
                    + " set, or on spark-submit's session (docs/sql.md).",
            "",
            "Example: cubed sql \"SELECT dim_0 DIV 5000 AS block, avg(input) AS mean FROM demo GROUP BY 1 ORDER BY 1\""
                    + " --table demo=cubed-demo/input.zarr"
        })
public final class SqlCommand implements Callable<Integer> {
    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "QUERY",
            description = "The query (one statement), or give --file.")
    String query;

    @Option(names = "--file", paramLabel = "FILE", description = "Read the query from FILE instead.")
    Path file;

    @Option(
            names = "--table",
            paramLabel = "NAME=PATH",
            description = "A Zarr array or group (local path or URI: s3a://, hdfs://, ...) as the table NAME"
                    + " (repeatable).")
    List<String> tables = new ArrayList<>();

    @Option(
            names = "--option",
            paramLabel = "[TABLE.]KEY=VALUE",
            description = "Reader option of one table (era.variables=t2m), or with no table name, of every table and"
                    + " of the --output writer (header=false for CSV, say) (repeatable; docs/sql.md lists the zarr"
                    + " reader's).")
    List<String> options = new ArrayList<>();

    @Option(
            names = "--conf",
            paramLabel = "KEY=VALUE",
            description = "spark.* settings go to the Spark session, any other (fs.s3a.endpoint=..., say) to its"
                    + " Hadoop configuration, which every table and the output use (repeatable).")
    List<String> conf = new ArrayList<>();

    @Option(
            names = "--threads",
            paramLabel = "N",
            description = "Spark task slots: local[N] (default: cores; spark-submit's master when run under it).")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(
            names = "--limit",
            paramLabel = "N",
            description = "Rows to print at most; the count of all rows follows when there are more (default:"
                    + " ${DEFAULT-VALUE}).")
    int limit = 20;

    @Option(names = "--output", paramLabel = "PATH", description = "Write the result to PATH instead of printing it.")
    String output;

    @Option(
            names = "--format",
            paramLabel = "csv|parquet|json|zarr",
            description = "Format of --output (default: the path's suffix); CSV has a header line unless"
                    + " --option header=false; Zarr needs --dims.")
    String format;

    @Option(
            names = "--dims",
            paramLabel = "DIM,...",
            description = "For a Zarr --output: the result's dimension columns, outermost first (time,lat,lon); every"
                    + " other column becomes a variable over them (docs/sql.md lists the zarr writer's --option"
                    + " keys: chunks, coords.DIM, zarrFormat, codec, fillValue.COLUMN).")
    String dims;

    @Option(
            names = "--mode",
            paramLabel = "error|overwrite",
            description = "error: refuse an --output that exists (default); overwrite: replace it. An output that is,"
                    + " holds or lies inside a table's path is always refused.")
    String mode;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec cli;

    @Override
    public Integer call() {
        SqlRequest request =
                SqlRequest.parse(query(), tables, options, conf, threads, limit, output, format, mode, dims);
        try {
            Class.forName("org.apache.spark.sql.SparkSession");
        } catch (ClassNotFoundException e) {
            throw new InvalidArgumentException("sql: Spark is not on the class path; run it with bin/cubed (which"
                    + " adds the build's Spark jars, or $SPARK_HOME's), or spark-submit --class io.cubed.jobs.CubedCli"
                    + " jobs/target/cubed-jobs-spark.jar sql ...");
        }
        SqlRun.run(request, cli.commandLine().getOut());
        return 0;
    }

    private String query() {
        if (file != null && query != null) {
            throw new InvalidArgumentException("sql: give the query either on the command line or with --file, not"
                    + " both (--file " + file + ")");
        }
        if (file == null) {
            if (query == null) {
                throw new InvalidArgumentException("sql: no query; give one, e.g. cubed sql \"SELECT count(*) FROM"
                        + " era\" --table era=PATH, or --file FILE");
            }
            return query;
        }
        try {
            String q = Files.readString(file, StandardCharsets.UTF_8);
            if (q.isBlank()) {
                throw new InvalidArgumentException("sql: --file " + file + " is empty");
            }
            return q;
        } catch (NoSuchFileException e) {
            throw new InvalidArgumentException("sql: --file " + file + ": no such file");
        } catch (IOException e) {
            throw new InvalidArgumentException("sql: --file " + file + ": cannot read it: " + e.getMessage(), e);
        }
    }
}
