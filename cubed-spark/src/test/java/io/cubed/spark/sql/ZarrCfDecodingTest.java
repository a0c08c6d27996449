package io.cubed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.CubedException;
import io.cubed.spark.SparkTestContext;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrGroup;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CF decoding in {@code spark.read.format("zarr")} on the {@link PackedClimate} group: decoded values, NULLs and
 * timestamps against its formulas, pruning on decoded coordinates proved by the chunks opened (a counting file
 * system), {@code count(var)} reading the variable, and the options that turn decodings off.
 */
class ZarrCfDecodingTest {
    @TempDir
    static Path tmp;

    private static SparkSession spark;
    private static String url;

    @BeforeAll
    static void setUp() {
        spark = SparkTestContext.session();
        url = tmp.resolve("packed.zarr").toString();
        PackedClimate.write(url);
    }

    private static Dataset<Row> counting(String id, SparkSession session) {
        return CountedReads.load(session, id, url);
    }

    /** The chunk keys of {@code variable} among the opened paths. */
    private static Set<String> chunkReads(List<String> opened, String variable) {
        return CountedReads.chunkReads(opened, "packed.zarr", variable);
    }

    @Test
    void schemaOfDecodedColumns() {
        StructType schema = spark.read().format("zarr").load(url).schema();
        assertThat(schema.fieldNames()).containsExactly("time", "lat", "lon", "t2m", "tp");
        assertThat(schema.apply("time").dataType()).isEqualTo(DataTypes.TimestampNTZType);
        assertThat(schema.apply("time").nullable()).isFalse();
        assertThat(schema.apply("time").metadata().contains("units")).isFalse();
        assertThat(schema.apply("lat").dataType()).isEqualTo(DataTypes.DoubleType);
        assertThat(schema.apply("lat").nullable())
                .as("no coordinate value is NaN")
                .isFalse();
        assertThat(schema.apply("lat").metadata().getString("units")).isEqualTo("degrees_north");
        assertThat(schema.apply("t2m").dataType())
                .as("int16 packed with a fill value")
                .isEqualTo(DataTypes.FloatType);
        assertThat(schema.apply("t2m").nullable()).isTrue();
        assertThat(schema.apply("t2m").metadata().getString("units")).isEqualTo("K");
        assertThat(schema.apply("t2m").metadata().getString("long_name")).isEqualTo("2 metre temperature");
        assertThat(schema.apply("tp").dataType()).isEqualTo(DataTypes.FloatType);
        assertThat(schema.apply("tp").nullable()).isTrue();
    }

    @Test
    void everyRowDecoded() {
        List<String> want = new ArrayList<>();
        for (int t = 0; t < PackedClimate.NT; t++) {
            for (int y = 0; y < PackedClimate.NY; y++) {
                for (int x = 0; x < PackedClimate.NX; x++) {
                    float t2m = PackedClimate.t2m(t, y, x);
                    float tp = PackedClimate.tp(t, y, x);
                    want.add(PackedClimate.time(t) + "," + PackedClimate.lat(y) + "," + PackedClimate.lon(x) + ","
                            + (Float.isNaN(t2m) ? "null" : Float.toString(t2m)) + ","
                            + (Float.isNaN(tp) ? "null" : Float.toString(tp)));
                }
            }
        }
        // Batches of a whole unit (200 values of each variable decoded in one run) and of 7 rows (runs that start and
        // end inside a row of the last dimension and of a unit).
        for (String batchRows : new String[] {"4096", "7"}) {
            List<String> got = new ArrayList<>();
            for (Row r : spark.read()
                    .format("zarr")
                    .option("batchRows", batchRows)
                    .load(url)
                    .collectAsList()) {
                LocalDateTime time = r.getAs(0);
                got.add(time + "," + r.get(1) + "," + r.get(2) + "," + r.get(3) + "," + r.get(4));
            }
            assertThat(got).as("batches of %s rows", batchRows).containsExactlyInAnyOrderElementsOf(want);
        }
    }

    /**
     * Longitudes picked out of a chunk (an IN list: every other one of the first chunk, and one of the second) are
     * decoded one value at a time, straight into the batch: their values and NULLs against the formulas.
     */
    @Test
    void pickedLongitudesAreDecoded() {
        int[] xs = {0, 2, 4, 8};
        List<String> want = new ArrayList<>();
        for (int t = 0; t < PackedClimate.NT; t++) {
            for (int y = 0; y < PackedClimate.NY; y++) {
                for (int x : xs) {
                    float v = PackedClimate.t2m(t, y, x);
                    want.add(t + "," + y + "," + PackedClimate.lon(x) + "," + (Float.isNaN(v) ? "null" : v));
                }
            }
        }
        assertThat(want).as("the fill value is among the picked cells").anyMatch(w -> w.endsWith(",null"));
        StringBuilder in = new StringBuilder();
        for (int x : xs) {
            in.append(in.length() == 0 ? "" : ", ").append(PackedClimate.lon(x));
        }
        List<String> got = new ArrayList<>();
        for (Row r : spark.read()
                .format("zarr")
                .load(url)
                .where("lon IN (" + in + ")")
                .select("time", "lat", "lon", "t2m")
                .collectAsList()) {
            LocalDateTime time = r.getAs(0);
            int t = (int) java.time.Duration.between(PackedClimate.time(0), time)
                            .toHours()
                    / 6;
            int y = -1;
            for (int j = 0; j < PackedClimate.NY; j++) {
                if (PackedClimate.lat(j) == r.getDouble(1)) {
                    y = j;
                }
            }
            got.add(t + "," + y + "," + r.get(2) + "," + r.get(3));
        }
        assertThat(got).containsExactlyInAnyOrderElementsOf(want);
    }

    /**
     * {@code _Unsigned: "true"} on int8: the values as uint8 (SMALLINT, which holds 0 to 255), and with the fill value
     * -1, which is 255 as uint8, FLOAT with NULL there, as xarray decodes them.
     */
    @Test
    void unsignedBytesReadAsUnsigned() {
        byte[] stored = {-1, 0, 1, -128, 127};
        for (boolean fill : new boolean[] {false, true}) {
            String u = tmp.resolve("unsigned-" + fill + ".zarr").toString();
            ZarrArray a = ZarrArray.create(
                    u,
                    ZarrCreateOptions.builder(new long[] {5}, new int[] {3}, DType.INT8)
                            .fillValue(fill ? io.cubed.dtype.Scalar.ofLong(-1) : null)
                            .build());
            a.writeAttributes(Map.of("_Unsigned", "true"));
            a.writeChunk(Chunk.wrap(DType.INT8, new int[] {3}, new byte[] {stored[0], stored[1], stored[2]}), 0);
            a.writeChunk(Chunk.wrap(DType.INT8, new int[] {2}, new byte[] {stored[3], stored[4]}), 1);
            Dataset<Row> df = spark.read().format("zarr").load(u);
            StructType schema = df.schema();
            assertThat(schema.apply(1).dataType()).isEqualTo(fill ? DataTypes.FloatType : DataTypes.ShortType);
            List<String> got = new ArrayList<>();
            for (Row r : df.orderBy(schema.apply(0).name()).collectAsList()) {
                got.add(String.valueOf(r.get(1)));
            }
            assertThat(got)
                    .containsExactlyElementsOf(
                            fill
                                    ? List.of("null", "0.0", "1.0", "128.0", "127.0")
                                    : List.of("255", "0", "1", "128", "127"));
        }
    }

    /**
     * A forecast's lead times as xarray writes them (a coordinate {@code step} in "hours", a data variable of
     * durations in "seconds" with a fill value): INTERVAL DAY TO SECOND columns, NULL where missing, and filters on the
     * coordinate prune its chunks.
     */
    @Test
    void durationsAreIntervals() {
        String u = tmp.resolve("forecast.zarr").toString();
        ZarrGroup g = ZarrGroup.create(u, StoreOptions.empty());
        ZarrArray step = g.createArray(
                "step",
                ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.INT32)
                        .fillValue(null)
                        .build());
        step.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("step"), "units", "hours"));
        step.writeChunk(Chunk.wrap(DType.INT32, new int[] {2}, new int[] {0, 6}), 0);
        step.writeChunk(Chunk.wrap(DType.INT32, new int[] {2}, new int[] {12, 18}), 1);
        ZarrArray lag = g.createArray(
                "lag",
                ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.INT32)
                        .fillValue(io.cubed.dtype.Scalar.ofLong(-1))
                        .build());
        lag.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("step"), "units", "seconds", "long_name", "lag"));
        lag.writeChunk(Chunk.wrap(DType.INT32, new int[] {2}, new int[] {90, -1}), 0);
        lag.writeChunk(Chunk.wrap(DType.INT32, new int[] {2}, new int[] {0, 86400}), 1);

        Dataset<Row> df = spark.read().format("zarr").load(u);
        assertThat(df.schema().apply("step").dataType()).isEqualTo(DataTypes.createDayTimeIntervalType());
        assertThat(df.schema().apply("lag").dataType()).isEqualTo(DataTypes.createDayTimeIntervalType());
        assertThat(df.schema().apply("lag").metadata().contains("units")).isFalse();
        assertThat(df.schema().apply("lag").metadata().getString("long_name")).isEqualTo("lag");
        List<String> got = new ArrayList<>();
        for (Row r : df.orderBy("step").collectAsList()) {
            got.add(r.get(0) + "," + r.get(1));
        }
        assertThat(got).containsExactly("PT0S,PT1M30S", "PT6H,null", "PT12H,PT0S", "PT18H,PT24H");
        assertThat(df.selectExpr("count(lag)").first().getLong(0)).isEqualTo(3);
        Dataset<Row> q = df.where("step >= INTERVAL '12' HOUR").select("lag");
        assertThat(q.collectAsList()).hasSize(2);
        assertThat(ZarrScanMetrics.chunksRead(q))
                .as("only the second chunk of lag")
                .isEqualTo(1);
    }

    /** A 0-d packed array is one row, decoded; its fill value is NULL. */
    @Test
    void aZeroDimensionalPackedArrayIsOneDecodedRow() {
        for (short stored : new short[] {4, PackedClimate.FILL}) {
            String u = tmp.resolve("scalar-" + stored + ".zarr").toString();
            ZarrArray a = ZarrArray.create(
                    u,
                    ZarrCreateOptions.builder(new long[0], new int[0], DType.INT16)
                            .fillValue(io.cubed.dtype.Scalar.ofLong(PackedClimate.FILL))
                            .build());
            a.writeAttributes(Map.of("scale_factor", 0.5, "add_offset", 10.0));
            a.writeChunk(Chunk.wrap(DType.INT16, new int[0], new short[] {stored}), new long[0]);
            List<Row> rows = spark.read().format("zarr").load(u).collectAsList();
            assertThat(rows).hasSize(1);
            if (stored == PackedClimate.FILL) {
                assertThat(rows.get(0).isNullAt(0)).isTrue();
            } else {
                assertThat(((Number) rows.get(0).get(0)).doubleValue()).isEqualTo(4 * 0.5 + 10.0);
            }
        }
    }

    @Test
    void aggregatesSkipMissingValuesAndCountReadsTheVariable() {
        List<String> opened = CountingFileSystem.opened("cf-count");
        Dataset<Row> df = counting("cf-count", spark);
        long nonMissing = 0;
        double sum = 0;
        long tpMissing = 0;
        for (int t = 0; t < PackedClimate.NT; t++) {
            for (int y = 0; y < PackedClimate.NY; y++) {
                for (int x = 0; x < PackedClimate.NX; x++) {
                    float v = PackedClimate.t2m(t, y, x);
                    if (!Float.isNaN(v)) {
                        nonMissing++;
                        sum += v;
                    }
                    tpMissing += Float.isNaN(PackedClimate.tp(t, y, x)) ? 1 : 0;
                }
            }
        }
        assertThat(nonMissing).isLessThan((long) PackedClimate.NT * PackedClimate.NY * PackedClimate.NX);
        opened.clear();
        Row r = df.selectExpr("count(*)", "count(t2m)", "avg(t2m)", "count_if(tp IS NULL)")
                .first();
        assertThat(r.getLong(0)).isEqualTo((long) PackedClimate.NT * PackedClimate.NY * PackedClimate.NX);
        assertThat(r.getLong(1)).isEqualTo(nonMissing);
        assertThat(r.getDouble(2)).isCloseTo(sum / nonMissing, within(1e-9));
        assertThat(r.getLong(3)).isEqualTo(tpMissing);
        // count(t2m) alone reads every t2m chunk (5 x 3 x 2), count(*) none.
        opened.clear();
        assertThat(df.selectExpr("count(t2m)").first().getLong(0)).isEqualTo(nonMissing);
        assertThat(chunkReads(opened, "t2m")).hasSize(30);
        assertThat(chunkReads(opened, "tp")).isEmpty();
        opened.clear();
        assertThat(df.count()).isEqualTo((long) PackedClimate.NT * PackedClimate.NY * PackedClimate.NX);
        assertThat(chunkReads(opened, "t2m")).isEmpty();
    }

    @Test
    void filtersOnDecodedTimeAndDescendingLatitudePrune() {
        // Times 8..15 (2020-01-30T00:00 to 2020-01-31T18:00) are time chunk 1; lat > 30.5 is y 0..4, lat chunk 0.
        String where =
                "time BETWEEN TIMESTAMP '2020-01-30 00:00:00' AND TIMESTAMP '2020-01-31 18:00:00'" + " AND lat > 30.5";
        for (String zone : List.of("UTC", "America/New_York", "Asia/Kolkata")) {
            SparkSession session = spark.newSession();
            session.conf().set("spark.sql.session.timeZone", zone);
            String id = "cf-prune-" + zone.replace('/', '-');
            List<String> opened = CountingFileSystem.opened(id);
            Dataset<Row> df = counting(id, session);
            opened.clear();
            Dataset<Row> q = df.where(where).select("time", "lat", "lon", "t2m");
            List<Row> rows = q.collectAsList();
            assertThat(rows).as(zone).hasSize(8 * 5 * PackedClimate.NX);
            for (Row r : rows) {
                LocalDateTime time = r.getAs(0);
                assertThat(time).isBetween(PackedClimate.time(8), PackedClimate.time(15));
                assertThat(r.getDouble(1)).isGreaterThan(30.5);
            }
            assertThat(chunkReads(opened, "t2m")).as(zone).containsExactlyInAnyOrder("1.0.0", "1.0.1");
            assertThat(ZarrScanMetrics.chunksRead(q)).as(zone).isEqualTo(2);
        }
        // A TIMESTAMP_NTZ literal, a string, and a java.sql.Timestamp from the DataFrame API prune the same way.
        List<String> opened = CountingFileSystem.opened("cf-prune-literals");
        Dataset<Row> df = counting("cf-prune-literals", spark);
        for (Dataset<Row> q : List.of(
                df.where("time = TIMESTAMP_NTZ '2020-01-30 06:00:00'"),
                df.where("time >= '2020-02-06 00:00:00'"),
                df.where(org.apache.spark.sql.functions.col("time").lt(Timestamp.valueOf(PackedClimate.time(8)))))) {
            opened.clear();
            q.select("t2m").collectAsList();
            Set<String> keys = chunkReads(opened, "t2m");
            assertThat(keys)
                    .hasSize(6)
                    .allMatch(k -> k.startsWith(keys.iterator().next().substring(0, 2)));
        }
    }

    @Test
    void optionsTurnDecodingOff() {
        Dataset<Row> raw =
                spark.read().format("zarr").option("decodeCf", "false").load(url);
        assertThat(raw.schema().apply("time").dataType()).isEqualTo(DataTypes.LongType);
        assertThat(raw.schema().apply("time").metadata().getString("units")).isEqualTo("hours since 1900-01-01");
        assertThat(raw.schema().apply("t2m").dataType()).isEqualTo(DataTypes.ShortType);
        Row r = raw.where("time = " + PackedClimate.FIRST_HOUR + " AND lat = 55.0 AND lon = 0.0")
                .first();
        assertThat(r.getShort(3)).isEqualTo(PackedClimate.FILL);
        assertThat(r.isNullAt(4)).as("NaN is still NULL").isTrue();

        Dataset<Row> timesOnly =
                spark.read().format("zarr").option("maskAndScale", "false").load(url);
        assertThat(timesOnly.schema().apply("time").dataType()).isEqualTo(DataTypes.TimestampNTZType);
        assertThat(timesOnly.schema().apply("t2m").dataType()).isEqualTo(DataTypes.ShortType);
        Dataset<Row> noTimes =
                spark.read().format("zarr").option("decodeTimes", "false").load(url);
        assertThat(noTimes.schema().apply("time").dataType()).isEqualTo(DataTypes.LongType);
        assertThat(noTimes.schema().apply("t2m").dataType()).isEqualTo(DataTypes.FloatType);

        Dataset<Row> nan =
                spark.read().format("zarr").option("nanAsNull", "false").load(url);
        assertThat(nan.schema().apply("tp").nullable()).isFalse();
        Row n = nan.where("time = TIMESTAMP_NTZ '2020-01-28 00:00:00' AND lat = 55.0 AND lon = 0.0")
                .first();
        assertThat(n.getFloat(3)).isNaN();
        assertThat(n.getFloat(4)).isNaN();

        assertThatThrownBy(() ->
                        spark.read().format("zarr").option("decodeCf", "maybe").load(url))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("decodeCf must be true or false, got 'maybe'");
    }

    @Test
    void undecodableUnitsFailNamingTheArray() {
        String bad = tmp.resolve("months.zarr").toString();
        ZarrGroup g = ZarrGroup.create(bad, StoreOptions.empty());
        ZarrArray v = g.createArray(
                "v",
                ZarrCreateOptions.builder(new long[] {3}, new int[] {3}, DType.INT32)
                        .fillValue(null)
                        .build());
        v.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("x"), "units", "months since 2000-01-01"));
        v.writeChunk(Chunk.wrap(DType.INT32, new int[] {3}, new int[] {0, 1, 2}), 0);
        assertThatThrownBy(() -> spark.read().format("zarr").load(bad))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining(bad + "/v")
                .hasMessageContaining("months since 2000-01-01")
                .hasMessageContaining("decodeTimes=false");
        assertThat(spark.read()
                        .format("zarr")
                        .option("decodeTimes", "false")
                        .load(bad)
                        .selectExpr("sum(v)")
                        .first()
                        .getLong(0))
                .isEqualTo(3);
    }

    @Test
    void nullCoordinatesAndOtherCalendars() {
        String g = tmp.resolve("calendars.zarr").toString();
        ZarrGroup group = ZarrGroup.create(g, StoreOptions.empty());
        // x: float64 coordinate with a NaN (NULL); m: 360-day months, all Gregorian dates; d: 360-day days with
        // February 30, kept numeric.
        ZarrArray x = group.createArray(
                "x",
                ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.FLOAT64)
                        .fillValue(null)
                        .build());
        x.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("x")));
        x.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {2}, new double[] {1.0, 2.0}), 0);
        x.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {2}, new double[] {Double.NaN, 4.0}), 1);
        ZarrArray m = group.createArray(
                "m",
                ZarrCreateOptions.builder(new long[] {3}, new int[] {3}, DType.INT32)
                        .fillValue(null)
                        .build());
        m.writeAttributes(
                Map.of("_ARRAY_DIMENSIONS", List.of("m"), "units", "days since 2000-01-01", "calendar", "360_day"));
        m.writeChunk(Chunk.wrap(DType.INT32, new int[] {3}, new int[] {0, 30, 60}), 0);
        ZarrArray v = group.createArray(
                "v",
                ZarrCreateOptions.builder(new long[] {4, 3}, new int[] {2, 3}, DType.FLOAT32)
                        .fillValue(null)
                        .build());
        v.writeAttributes(Map.of("_ARRAY_DIMENSIONS", List.of("x", "m")));
        float[] vv = new float[12];
        for (int i = 0; i < 12; i++) {
            vv[i] = i;
        }
        v.writeChunk(Chunk.wrap(DType.FLOAT32, new int[] {2, 3}, java.util.Arrays.copyOfRange(vv, 0, 6)), 0, 0);
        v.writeChunk(Chunk.wrap(DType.FLOAT32, new int[] {2, 3}, java.util.Arrays.copyOfRange(vv, 6, 12)), 1, 0);
        Dataset<Row> df = spark.read().format("zarr").load(g);
        assertThat(df.schema().apply("x").nullable()).isTrue();
        assertThat(df.schema().apply("m").dataType()).isEqualTo(DataTypes.TimestampNTZType);
        List<Row> nulls = df.where("x IS NULL").orderBy("m").collectAsList();
        assertThat(nulls).hasSize(3);
        assertThat(nulls.get(0).getFloat(2)).isEqualTo(6f);
        assertThat(nulls.get(2).<LocalDateTime>getAs(1)).isEqualTo(LocalDateTime.of(2000, 3, 1, 0, 0));
        assertThat(df.where("x > 1.5").count())
                .as("NULL satisfies no comparison")
                .isEqualTo(2 * 3);
        assertThat(df.where("NOT (x > 1.5)").count()).isEqualTo(3);

        m.writeChunk(Chunk.wrap(DType.INT32, new int[] {3}, new int[] {0, 30, 59}), 0);
        Dataset<Row> kept = spark.read().format("zarr").load(g);
        assertThat(kept.schema().apply("m").dataType()).isEqualTo(DataTypes.IntegerType);
        assertThat(kept.schema().apply("m").metadata().getString("units")).isEqualTo("days since 2000-01-01");
        assertThat(kept.schema().apply("m").metadata().getString("calendar")).isEqualTo("360_day");
    }
}
