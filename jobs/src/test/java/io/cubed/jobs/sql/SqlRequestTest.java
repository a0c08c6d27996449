package io.cubed.jobs.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SqlRequestTest {
    private static SqlRequest parse(
            List<String> tables, List<String> options, List<String> conf, String output, String format, String mode) {
        return SqlRequest.parse("SELECT 1", tables, options, conf, 2, 20, output, format, mode, null);
    }

    @Test
    void optionsGoToTheirTableOrToEveryTableAndTheWriter() {
        SqlRequest r = parse(
                List.of("era=/d/era.zarr", "Mask=s3a://b/mask.zarr"),
                List.of("era.variables=t2m", "mask.variables=lsm", "batchRows=1024", "header=false", "fs.x.y=1"),
                List.of("spark.sql.shuffle.partitions=4", "fs.s3a.endpoint=http://127.0.0.1:9000"),
                "out.csv",
                null,
                null);
        assertThat(r.tables()).containsExactly(Map.entry("era", "/d/era.zarr"), Map.entry("Mask", "s3a://b/mask.zarr"));
        // Table prefixes match as SQL names do, whatever the case; fs.x.y names no table: a general option.
        assertThat(r.readerOptions().get("era"))
                .containsOnly(
                        Map.entry("variables", "t2m"),
                        Map.entry("batchRows", "1024"),
                        Map.entry("header", "false"),
                        Map.entry("fs.x.y", "1"),
                        Map.entry("fs.s3a.endpoint", "http://127.0.0.1:9000"));
        assertThat(r.readerOptions().get("Mask")).containsEntry("variables", "lsm");
        assertThat(r.writerOptions())
                .containsOnly(Map.entry("header", "false"), Map.entry("batchRows", "1024"), Map.entry("fs.x.y", "1"));
        assertThat(r.conf()).containsOnlyKeys("spark.sql.shuffle.partitions", "fs.s3a.endpoint");
        assertThat(r.output()).isEqualTo(new SqlRequest.Output("out.csv", OutputFormat.CSV, false));
        assertThat(SqlSession.sparkKey("fs.s3a.endpoint")).isEqualTo("spark.hadoop.fs.s3a.endpoint");
        assertThat(SqlSession.sparkKey("spark.sql.shuffle.partitions")).isEqualTo("spark.sql.shuffle.partitions");
    }

    @Test
    void aTableOptionWinsOverAGeneralOneAndCsvHasAHeaderUnlessTold() {
        SqlRequest r = parse(
                List.of("era=/d"), List.of("era.batchRows=8", "batchRows=1024"), List.of(), "o", "CSV", "overwrite");
        assertThat(r.readerOptions().get("era")).containsEntry("batchRows", "8");
        assertThat(r.writerOptions()).containsEntry("header", "true");
        assertThat(r.output().overwrite()).isTrue();
        SqlRequest noOutput = parse(List.of("era=/d"), List.of(), List.of(), null, null, null);
        assertThat(noOutput.output()).isNull();
        assertThat(noOutput.writerOptions()).isEmpty();
        // An option may be set to the empty string; a path may contain '='.
        SqlRequest empty = parse(List.of("era=/d/a=b"), List.of("nullValue="), List.of(), "o.json", null, null);
        assertThat(empty.tables()).containsEntry("era", "/d/a=b");
        assertThat(empty.writerOptions()).containsEntry("nullValue", "");
        assertThat(empty.output().format()).isEqualTo(OutputFormat.JSON);
    }

    @Test
    void theFormatFollowsTheSuffixUnlessGiven() {
        assertThat(OutputFormat.ofSuffix("/x/out.parquet/")).isEqualTo(OutputFormat.PARQUET);
        assertThat(OutputFormat.ofSuffix("s3a://b/k/out.zarr")).isEqualTo(OutputFormat.ZARR);
        assertThat(OutputFormat.ofSuffix("/x.csv/out")).isNull();
        assertThat(OutputFormat.ofSuffix("out.txt")).isNull();
        assertThat(OutputFormat.names()).isEqualTo("csv, parquet, json or zarr");
        assertThat(parse(List.of(), List.of(), List.of(), "out.csv", "parquet", null)
                        .output()
                        .format())
                .isEqualTo(OutputFormat.PARQUET);
    }

    @Test
    void aQueryWithoutTablesIsAllowedButAnEmptyOneIsNot() {
        assertThat(parse(List.of(), List.of(), List.of(), null, null, null).tables())
                .isEmpty();
        assertThatThrownBy(
                        () -> SqlRequest.parse(" \n", List.of(), List.of(), List.of(), 2, 20, null, null, null, null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("sql: the query is empty");
    }
}
