package io.cubed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.spark.SparkTestContext;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.S3Operation;
import io.cubed.storage.fs.S3ServerStats;
import io.cubed.storage.fs.S3TestServer;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.ZarrV3Group;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The requests with which Spark SQL plans a read of a Zarr group on S3 ({@code load} and the planning of {@code
 * count(*), avg(t2m)}), counted at the in-process S3 server with {@value #LATENCY_MS} ms per request: exactly the
 * requests listed, each key once, none else (no HEAD, at most one listing), and the requests of each round in flight
 * together. The rounds: the node's four documents ({@code zarr.json}, {@code .zarray}, {@code .zgroup}, {@code
 * .zmetadata}); when the group has no consolidated metadata, one delimiter listing, then every member's documents;
 * then the coordinates' chunks.
 */
class ZarrPlanningS3IT {
    private static final int LATENCY_MS = 200;
    private static final List<String> ROOT_DOCUMENTS = List.of("zarr.json", ".zarray", ".zgroup", ".zmetadata");
    private static final List<String> ARRAYS = List.of("time", "lat", "lon", "flag", "t2m", "tp");
    private static final List<String> COORDINATES = List.of("time", "lat", "lon");

    private static S3TestServer s3;
    private static SparkSession spark;
    private static StoreOptions options;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3TestServer.start("cubed-planning");
        options = s3.options();
        // Integration tests share one JVM: this class starts its own context and stops it, as SparkS3IT does.
        spark = SparkTestContext.ownSession("zarr-planning-s3").getOrCreate();
        ClimateDataset data = new ClimateDataset(16, 10, 12, 4, 5, 6);
        data.writeV2(s3.url("v2.zarr"), options);
        data.writeV2(s3.url("v2c.zarr"), options);
        consolidateV2(s3.url("v2c.zarr"));
        data.writeV3Sharded(s3.url("v3.zarr"), options);
        data.writeV3Sharded(s3.url("v3c.zarr"), options);
        ZarrV3Group.open(s3.url("v3c.zarr"), options).consolidate();
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    /** Writes {@code .zmetadata} as zarr-python's {@code consolidate_metadata} does, from the stored documents. */
    private static void consolidateV2(String url) {
        Store store = Stores.open(url, options);
        StringBuilder json = new StringBuilder("{\"metadata\": {");
        String separator = "";
        for (String key : store.list("")) {
            if (key.endsWith(".zarray") || key.endsWith(".zattrs") || key.endsWith(".zgroup")) {
                json.append(separator)
                        .append('"')
                        .append(key)
                        .append("\": ")
                        .append(new String(store.get(key), StandardCharsets.UTF_8));
                separator = ", ";
            }
        }
        json.append("}, \"zarr_consolidated_format\": 1}");
        store.put(".zmetadata", json.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The requests, by key, of planning {@code count(*), avg(t2m)} of {@code path}, and the server's statistics. */
    private static S3ServerStats plan(String path) {
        S3ServerStats stats = planOnce(path);
        System.out.printf(
                "planning %s: %s, %d in flight at most, %.0f ms busy%n",
                path, stats.counts(), stats.maxInFlight(), stats.busyNanos() / 1e6);
        return stats;
    }

    private static S3ServerStats planOnce(String path) {
        s3.setLatencyMillis(LATENCY_MS);
        try {
            s3.resetStats();
            Dataset<Row> df = spark.read()
                    .format("zarr")
                    .options(options.asMap())
                    .load(s3.url(path))
                    .selectExpr("count(*)", "avg(t2m)");
            df.queryExecution().executedPlan();
            return s3.stats();
        } finally {
            s3.setLatencyMillis(0);
        }
    }

    private static Map<String, Map<S3Operation, Long>> gets(String prefix, List<String> keys) {
        Map<String, Map<S3Operation, Long>> out = new HashMap<>();
        for (String k : keys) {
            out.put(prefix + "/" + k, Map.of(S3Operation.GET_OBJECT, 1L));
        }
        return out;
    }

    private static void assertCounts(S3ServerStats stats, long gets, long lists) {
        Map<S3Operation, Long> expected = new EnumMap<>(S3Operation.class);
        for (S3Operation op : S3Operation.values()) {
            expected.put(op, 0L);
        }
        expected.put(S3Operation.GET_OBJECT, gets);
        expected.put(S3Operation.LIST, lists);
        assertThat(stats.counts()).as("requests by operation").isEqualTo(expected);
    }

    /**
     * The requests were in flight during fewer than {@code rounds} + 2 latencies: the rounds' own, and room for a slow
     * machine; one after another, each request would take a latency.
     */
    private static void assertRounds(S3ServerStats stats, int rounds) {
        assertThat(stats.busyNanos() / 1e6)
                .as("milliseconds with a request in flight, %d rounds of %d ms", rounds, LATENCY_MS)
                .isLessThan((rounds + 2) * LATENCY_MS);
    }

    /** The largest round's {@code requests} were in flight at once. */
    private static void assertInFlightTogether(S3ServerStats stats, int requests) {
        assertThat(stats.maxInFlight()).as("requests in flight at once").isGreaterThanOrEqualTo(requests);
    }

    @Test
    void aV2GroupIsPlannedWithOneListingAndThreeRoundsOfReads() {
        S3ServerStats stats = plan("v2.zarr");
        Map<String, Map<S3Operation, Long>> expected = gets("v2.zarr", ROOT_DOCUMENTS);
        for (String a : ARRAYS) {
            expected.putAll(gets("v2.zarr/" + a, List.of(".zarray", ".zattrs")));
        }
        for (String c : COORDINATES) {
            expected.putAll(gets("v2.zarr/" + c, List.of("0")));
        }
        assertThat(stats.keyCounts()).isEqualTo(expected);
        assertCounts(stats, 4 + 2 * 6 + 3, 1);
        assertInFlightTogether(stats, 12);
        assertRounds(stats, 4);
    }

    @Test
    void aConsolidatedV2GroupIsPlannedFromZmetadata() {
        S3ServerStats stats = plan("v2c.zarr");
        Map<String, Map<S3Operation, Long>> expected = gets("v2c.zarr", ROOT_DOCUMENTS);
        for (String c : COORDINATES) {
            expected.putAll(gets("v2c.zarr/" + c, List.of("0")));
        }
        assertThat(stats.keyCounts()).isEqualTo(expected);
        assertCounts(stats, 4 + 3, 0);
        assertInFlightTogether(stats, 4);
        assertRounds(stats, 2);
    }

    @Test
    void aV3GroupIsPlannedWithOneListingAndOneReadOfEachMember() {
        S3ServerStats stats = plan("v3.zarr");
        Map<String, Map<S3Operation, Long>> expected = gets("v3.zarr", ROOT_DOCUMENTS);
        for (String a : ARRAYS) {
            expected.putAll(gets("v3.zarr/" + a, List.of("zarr.json")));
        }
        for (String c : COORDINATES) {
            expected.putAll(gets("v3.zarr/" + c, List.of("c/0")));
        }
        assertThat(stats.keyCounts()).isEqualTo(expected);
        assertCounts(stats, 4 + 6 + 3, 1);
        assertInFlightTogether(stats, 6);
        assertRounds(stats, 4);
    }

    @Test
    void aConsolidatedV3GroupIsPlannedFromItsZarrJson() {
        S3ServerStats stats = plan("v3c.zarr");
        Map<String, Map<S3Operation, Long>> expected = gets("v3c.zarr", ROOT_DOCUMENTS);
        for (String c : COORDINATES) {
            expected.putAll(gets("v3c.zarr/" + c, List.of("c/0")));
        }
        assertThat(stats.keyCounts()).isEqualTo(expected);
        assertCounts(stats, 4 + 3, 0);
        assertInFlightTogether(stats, 4);
        assertRounds(stats, 2);
    }

    @Test
    void oneArrayReadsItsSiblingCoordinatesWithoutListingItsGroup() {
        S3ServerStats stats = plan("v2.zarr/t2m");
        Map<String, Map<S3Operation, Long>> expected = gets("v2.zarr/t2m", ROOT_DOCUMENTS);
        expected.putAll(gets("v2.zarr/t2m", List.of(".zattrs")));
        expected.putAll(gets("v2.zarr", ROOT_DOCUMENTS));
        for (String c : COORDINATES) {
            expected.putAll(gets("v2.zarr/" + c, List.of(".zarray", ".zattrs", "0")));
        }
        assertThat(stats.keyCounts()).isEqualTo(expected);
        assertCounts(stats, 4 + 1 + 4 + 6 + 3, 0);
        assertInFlightTogether(stats, 6);
        assertRounds(stats, 5);
    }

    @Test
    void theAnswersAreThoseOfTheFormulas() {
        for (String path : List.of("v2.zarr", "v2c.zarr", "v3.zarr", "v3c.zarr")) {
            List<Row> rows = spark.read()
                    .format("zarr")
                    .options(options.asMap())
                    .load(s3.url(path))
                    .where("time = 3 AND lat = 50.0")
                    .selectExpr("count(*)", "sum(t2m)")
                    .collectAsList();
            double sum = 0;
            for (int x = 0; x < 12; x++) {
                sum += ClimateDataset.t2m(3, 2, x);
            }
            assertThat(rows.get(0).getLong(0)).as(path).isEqualTo(12);
            assertThat(rows.get(0).getDouble(1)).as(path).isCloseTo(sum, org.assertj.core.data.Offset.offset(1e-9));
        }
    }
}
