package io.cubed.jobs;

import static io.cubed.jobs.SqlFixture.LAT;
import static io.cubed.jobs.SqlFixture.LON;
import static io.cubed.jobs.SqlFixture.TIME;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cubed.chunk.Chunk;
import io.cubed.storage.zarr.ZarrArray;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cubed sql} in this JVM, on one local Spark session that every run finds running (bin/cubed starting its own
 * is {@link CubedSqlIT}): printed values, CSV and Parquet output and the errors, each answer against a reference loop
 * over {@link SqlFixture}'s formulas.
 */
class SqlCommandTest {
    @TempDir
    static Path tmp;

    static String era;
    static String mask;
    static SparkSession spark;

    @BeforeAll
    static void start() {
        era = SqlFixture.writeEra(tmp);
        mask = SqlFixture.writeMask(tmp);
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("SqlCommandTest")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "4")
                .getOrCreate();
    }

    @AfterAll
    static void stop() {
        spark.stop();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
    }

    private static CliRun sql(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "sql";
        System.arraycopy(args, 0, all, 1, args.length);
        return CliRun.of(all);
    }

    @Test
    void aGroupedMeanOverABoxEqualsTheReferenceLoop() {
        CliRun r = sql(
                "SELECT lat, avg(t2m) AS mean, min(t2m) AS lo, count(*) AS n FROM era"
                        + " WHERE time BETWEEN 101 AND 104 AND lon >= 90 GROUP BY lat ORDER BY lat DESC",
                "--table",
                "era=" + era);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(SqlFixture.printedHeader(r.out())).containsExactly("lat", "mean", "lo", "n");
        List<String[]> rows = SqlFixture.printedRows(r.out());
        assertThat(rows).hasSize(LAT.length);
        for (int y = 0; y < LAT.length; y++) {
            double sum = 0;
            float lo = Float.MAX_VALUE;
            int n = 0;
            for (int t = 1; t <= 4; t++) {
                for (int x = 1; x < LON.length; x++) {
                    float v = SqlFixture.t2m(t, y, x);
                    sum += v;
                    lo = Math.min(lo, v);
                    n++;
                }
            }
            String[] row = rows.get(y); // lat descending: the array's own order
            assertThat(Double.parseDouble(row[0])).isEqualTo(LAT[y]);
            assertThat(Double.parseDouble(row[1])).isCloseTo(sum / n, within(1e-9));
            assertThat(Float.parseFloat(row[2])).isEqualTo(lo);
            assertThat(Long.parseLong(row[3])).isEqualTo(n);
        }
        assertThat(r.out()).contains("(5 rows)");
    }

    @Test
    void aJoinWithTheMaskCountsAndAveragesLandCells() {
        CliRun r = sql(
                "SELECT count(*) AS n, avg(e.t2m) AS land FROM era e JOIN mask m"
                        + " ON e.lat = m.lat AND e.lon = m.lon WHERE m.lsm = 1",
                "--table",
                "era=" + era,
                "--table",
                "mask=" + mask,
                "--option",
                "mask.variables=lsm");
        assertThat(r.code()).as(r.err()).isZero();
        double sum = 0;
        int n = 0;
        for (int t = 0; t < TIME.length; t++) {
            for (int y = 0; y < LAT.length; y++) {
                for (int x = 0; x < LON.length; x++) {
                    if (SqlFixture.lsm(y, x) == 1) {
                        sum += SqlFixture.t2m(t, y, x);
                        n++;
                    }
                }
            }
        }
        String[] row = SqlFixture.printedRows(r.out()).get(0);
        assertThat(Long.parseLong(row[0])).isEqualTo(n);
        assertThat(Double.parseDouble(row[1])).isCloseTo(sum / n, within(1e-9));
    }

    @Test
    void aQueryFileAndALimitPrintTheFirstRowsAndTheCount() throws IOException {
        Path q = tmp.resolve("q.sql");
        Files.writeString(
                q,
                "-- every cell, in time, lat, lon order\nSELECT time, lat, lon, t2m FROM era\n"
                        + "ORDER BY time, lat, lon;\n");
        CliRun r = sql("--file", q.toString(), "--table", "era=" + era, "--limit", "7");
        assertThat(r.code()).as(r.err()).isZero();
        List<String[]> rows = SqlFixture.printedRows(r.out());
        assertThat(rows).hasSize(7);
        // Ascending lat is the array's order reversed: index LAT.length - 1 first.
        for (int k = 0; k < 7; k++) {
            int y = LAT.length - 1 - k / LON.length;
            int x = k % LON.length;
            assertThat(rows.get(k))
                    .containsExactly(
                            Long.toString(TIME[0]),
                            Double.toString(LAT[y]),
                            Double.toString(LON[x]),
                            Float.toString(SqlFixture.t2m(0, y, x)));
        }
        int total = TIME.length * LAT.length * LON.length;
        assertThat(r.out()).contains("(7 of " + total + " rows shown; --limit N shows more)");
    }

    @Test
    void csvOutputHoldsTheRowsWithAHeader() throws IOException {
        Path out = tmp.resolve("lon90.csv");
        CliRun r = sql(
                "SELECT time, lat, lon, t2m FROM era WHERE lon = 90",
                "--table",
                "era=" + era,
                "--output",
                out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        int n = TIME.length * LAT.length;
        assertThat(r.out()).contains("wrote " + out + " (csv, " + n + " rows)");
        Set<String> lines = new HashSet<>();
        int headers = 0;
        try (Stream<Path> parts = Files.list(out)) {
            for (Path p : parts.filter(p -> p.getFileName().toString().endsWith(".csv"))
                    .toList()) {
                for (String line : Files.readAllLines(p)) {
                    if (line.equals("time,lat,lon,t2m")) {
                        headers++;
                    } else {
                        lines.add(line);
                    }
                }
            }
        }
        assertThat(headers).isPositive();
        Set<String> expected = new HashSet<>();
        for (int t = 0; t < TIME.length; t++) {
            for (int y = 0; y < LAT.length; y++) {
                expected.add(TIME[t] + "," + LAT[y] + "," + LON[1] + "," + SqlFixture.t2m(t, y, 1));
            }
        }
        assertThat(lines).isEqualTo(expected);
    }

    @Test
    void parquetOutputReadsBackAndIsReplacedOnlyWithModeOverwrite() {
        String out = tmp.resolve("north.parquet").toString();
        CliRun r = sql("SELECT time, lat, t2m FROM era WHERE lat >= 30", "--table", "era=" + era, "--output", out);
        assertThat(r.code()).as(r.err()).isZero();
        assertParquet(out, 30, 60);
        CliRun again = sql("SELECT time, lat, t2m FROM era WHERE lat = 0", "--table", "era=" + era, "--output", out);
        assertThat(again.code()).isEqualTo(2);
        assertThat(again.err().strip())
                .isEqualTo("cubed: sql: --output " + out + " exists; pass --mode overwrite to" + " replace it");
        assertParquet(out, 30, 60);
        CliRun overwrite = sql(
                "SELECT time, lat, t2m FROM era WHERE lat = 0",
                "--table",
                "era=" + era,
                "--output",
                out,
                "--mode",
                "overwrite");
        assertThat(overwrite.code()).as(overwrite.err()).isZero();
        assertParquet(out, 0, 0);
    }

    /** The Parquet files at {@code out}, read back, hold exactly t2m where lo <= lat <= hi, every time. */
    private static void assertParquet(String out, double lo, double hi) {
        CliRun r = sql("SELECT count(*) AS n, sum(t2m) AS s, max(time) AS tmax, min(lat) AS lo, max(lat) AS hi FROM"
                + " parquet.`" + out + "`");
        assertThat(r.code()).as(r.err()).isZero();
        double sum = 0;
        int n = 0;
        for (int t = 0; t < TIME.length; t++) {
            for (int y = 0; y < LAT.length; y++) {
                for (int x = 0; x < LON.length; x++) {
                    if (LAT[y] >= lo && LAT[y] <= hi) {
                        sum += SqlFixture.t2m(t, y, x);
                        n++;
                    }
                }
            }
        }
        String[] row = SqlFixture.printedRows(r.out()).get(0);
        assertThat(Long.parseLong(row[0])).isEqualTo(n);
        assertThat(Double.parseDouble(row[1])).isCloseTo(sum, within(1e-6));
        assertThat(Long.parseLong(row[2])).isEqualTo(TIME[TIME.length - 1]);
        assertThat(Double.parseDouble(row[3])).isEqualTo(lo);
        assertThat(Double.parseDouble(row[4])).isEqualTo(hi);
    }

    @Test
    void badQueriesAndPathsAreOneLineWithExitCode2() {
        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {"SELECT * FORM era", "cubed: sql: [PARSE_SYNTAX_ERROR] Syntax error at or near"});
        cases.add(new String[] {
            "SELECT * FROM nope",
            "cubed: sql: the query reads the table `nope`, but the tables are era; add --table" + " nope=PATH"
        });
        cases.add(new String[] {"SELECT t3m FROM era", "cubed: sql: [UNRESOLVED_COLUMN.WITH_SUGGESTION]"});
        for (String[] c : cases) {
            CliRun r = sql(c[0], "--table", "era=" + era);
            assertThat(r.code()).as(c[0] + "\n" + r.err()).isEqualTo(2);
            assertThat(r.err().lines().toList()).as(c[0]).hasSize(1);
            assertThat(r.err()).as(c[0]).startsWith(c[1]);
        }
        String missing = tmp.resolve("missing.zarr").toString();
        CliRun r = sql("SELECT count(*) FROM era", "--table", "era=" + missing);
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().lines().toList()).hasSize(1);
        assertThat(r.err())
                .startsWith("cubed: sql: --table era=" + missing + ": zarr data source: no Zarr array or group at");
    }

    /** Rows a Zarr output cannot take, found by a task of the running job: a failure while running, exit code 1. */
    @Test
    void duplicateRowsFoundWhileWritingZarrExitWith1AndLeaveNothing() {
        String out = tmp.resolve("dup.zarr").toString();
        CliRun r = sql("SELECT lat, t2m FROM era", "--table", "era=" + era, "--output", out, "--dims", "lat");
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains("cubed: ").contains("two rows have (lat) = (");
        assertThat(java.nio.file.Path.of(out)).doesNotExist();
    }

    /**
     * {@code --output x.zarr --dims time,lat,lon}: the result written as a Zarr group, whose arrays hold the query's
     * values: coordinates the sorted distinct values of the rows, t2m and a derived column in every cell the query
     * gives, checked against the reference loop; the cells the query leaves out hold the fill value (NaN).
     */
    @Test
    void aResultWrittenAsZarrHoldsTheQuerysValues() {
        String out = tmp.resolve("anomaly.zarr").toString();
        CliRun r = sql(
                "SELECT time, lat, lon, t2m, t2m - 273.15D AS celsius FROM era"
                        + " WHERE time BETWEEN 101 AND 103 AND NOT (lon = 180 AND lat = 30)",
                "--table",
                "era=" + era,
                "--output",
                out,
                "--dims",
                "time,lat,lon",
                "--option",
                "chunks=time:2,lat:2");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out().strip()).isEqualTo("wrote " + out + " (zarr)");
        ZarrArray time = ZarrArray.open(out + "/time");
        ZarrArray lat = ZarrArray.open(out + "/lat");
        ZarrArray lon = ZarrArray.open(out + "/lon");
        ZarrArray t2m = ZarrArray.open(out + "/t2m");
        ZarrArray celsius = ZarrArray.open(out + "/celsius");
        assertThat(t2m.grid().shape()).containsExactly(3, LAT.length, LON.length);
        assertThat(t2m.grid().chunkShape()).containsExactly(2, 2, LON.length);
        Chunk tc = time.readRegion(new long[] {0}, new int[] {3});
        Chunk yc = lat.readRegion(new long[] {0}, new int[] {LAT.length});
        Chunk xc = lon.readRegion(new long[] {0}, new int[] {LON.length});
        Chunk tv = t2m.readRegion(new long[] {0, 0, 0}, new int[] {3, LAT.length, LON.length});
        Chunk cv = celsius.readRegion(new long[] {0, 0, 0}, new int[] {3, LAT.length, LON.length});
        for (int i = 0; i < 3; i++) {
            assertThat(tc.getLong(i)).isEqualTo(TIME[i + 1]);
        }
        int k = 0;
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < LAT.length; j++) {
                // ascending: the sorted distinct values of the rows, where the table has them descending
                int y = LAT.length - 1 - j;
                assertThat(yc.getDouble(j)).isEqualTo(LAT[y]);
                for (int x = 0; x < LON.length; x++) {
                    assertThat(xc.getDouble(x)).isEqualTo(LON[x]);
                    if (LON[x] == 180 && LAT[y] == 30) {
                        assertThat(tv.getDouble(k)).isNaN();
                        assertThat(cv.getDouble(k)).isNaN();
                    } else {
                        float v = SqlFixture.t2m(i + 1, y, x);
                        assertThat(tv.getDouble(k)).isEqualTo(v);
                        assertThat(cv.getDouble(k)).isEqualTo(v - 273.15D);
                    }
                    k++;
                }
            }
        }
    }

    @Test
    void anOutputInsideATableOrInZarrIsRefusedAndNothingIsWritten() throws IOException {
        List<Path> before;
        try (Stream<Path> files = Files.walk(tmp)) {
            before = files.sorted().toList();
        }
        CliRun inside =
                sql("SELECT * FROM era", "--table", "era=" + era, "--output", era + "/out.csv", "--mode", "overwrite");
        assertThat(inside.code()).isEqualTo(2);
        assertThat(inside.err())
                .startsWith("cubed: sql --output (table era): the destination " + era + "/out.csv"
                        + " lies inside the source " + era);
        CliRun same = sql(
                "SELECT * FROM era",
                "--table",
                "era=" + era,
                "--output",
                era,
                "--format",
                "parquet",
                "--mode",
                "overwrite");
        assertThat(same.code()).isEqualTo(2);
        assertThat(same.err()).contains("is the source");
        CliRun zarr = sql(
                "SELECT * FROM era",
                "--table",
                "era=" + era,
                "--output",
                tmp.resolve("o.zarr").toString());
        assertThat(zarr.code()).isEqualTo(2);
        assertThat(zarr.err().strip())
                .isEqualTo("cubed: sql: --output " + tmp.resolve("o.zarr") + " is Zarr, which needs the result's"
                        + " dimension columns: give --dims, outermost first (e.g. --dims time,lat,lon); every other"
                        + " column becomes a variable over them");
        try (Stream<Path> files = Files.walk(tmp)) {
            assertThat(files.sorted().toList()).isEqualTo(before);
        }
    }
}
