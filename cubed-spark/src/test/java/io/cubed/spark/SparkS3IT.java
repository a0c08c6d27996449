package io.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.Blockwise;
import io.cubed.array.CubedArray;
import io.cubed.array.Manipulation;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.S3TestServer;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.StoredArrays;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Spark computation ({@code local[2]}) that reads and writes Zarr on {@code s3a://}, against an in-process S3 server
 * on 127.0.0.1. The s3a settings reach the tasks only through the Spark context: the endpoint and path-style access as
 * {@code spark.hadoop.*} settings, the credentials set on {@code sc.hadoopConfiguration()}; the code that builds the
 * arrays names no Hadoop setting.
 */
class SparkS3IT {
    private static final Set<String> CREDENTIALS = Set.of("fs.s3a.access.key", "fs.s3a.secret.key");

    private static S3TestServer s3;
    private static JavaSparkContext jsc;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3TestServer.start("cubed-spark");
        SparkConf conf = SparkTestContext.local(new SparkConf(), "local[2]", "cubed-spark-s3");
        for (Map.Entry<String, String> e : s3.options().asMap().entrySet()) {
            if (!CREDENTIALS.contains(e.getKey())) {
                conf.set("spark.hadoop." + e.getKey(), e.getValue());
            }
        }
        jsc = new JavaSparkContext(conf);
        for (String key : CREDENTIALS) {
            jsc.hadoopConfiguration().set(key, s3.options().get(key));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (jsc != null) {
            jsc.stop();
        }
        s3.close();
    }

    @Test
    void aSparkComputationReadsAndWritesZarrOnS3a() {
        // Input (70, 50) float64 on S3, element (i, j) = 10 i + j, written by the driver with the session's options.
        StoreOptions fromSession = SparkExecutor.create(jsc).storeOptions();
        assertThat(fromSession.asMap()).containsAllEntriesOf(s3.options().asMap());
        String in = s3.url("in.zarr");
        StoredArrays.ramp(in, 70, 50, new int[] {30, 20}, 10.0, fromSession);

        Spec spec = SparkExecutor.create(jsc)
                .specBuilder()
                .workDir(s3.url("work"))
                .allowedMem("100MB")
                .reservedMem("10MB")
                .build();
        CubedArray x = Cubed.fromZarr(in, spec);
        CubedArray y =
                Manipulation.rechunk(Blockwise.mapBlocks(new TestFunctions.Affine(3, 1), DType.FLOAT64, x), 70, 10);
        String out = s3.url("out.zarr");
        Set<String> stages = ConcurrentHashMap.newKeySet();
        AtomicLong written = new AtomicLong();
        y.toZarr(out, new Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                stages.add(event.stage().id());
                written.addAndGet(event.result().bytesWritten());
            }
        });
        assertThat(stages).as("map_blocks and a rechunk stage, on Spark").hasSize(2);
        assertThat(written.get()).isEqualTo(2 * 70 * 50 * 8);

        ZarrArray stored = ZarrArray.open(out, fromSession);
        assertThat(stored.metadata().chunks()).containsExactly(70, 10);
        Chunk all = stored.readRegion(new long[] {0, 0}, new int[] {70, 50});
        for (int i = 0; i < 70; i++) {
            for (int j = 0; j < 50; j++) {
                assertThat(all.doubles()[i * 50 + j]).as("(%d, %d)", i, j).isEqualTo(3 * (10.0 * i + j) + 1);
            }
        }
        assertThat(Stores.open(s3.url("work"), fromSession).list(""))
                .as("intermediates deleted")
                .isEmpty();
    }

    @Test
    void sparkSqlReadsAZarrGroupOnS3aAndPrunesChunks() {
        // The session's s3a settings (spark.hadoop.* and sc.hadoopConfiguration()) reach the data source's tasks.
        StoreOptions fromSession = SparkExecutor.create(jsc).storeOptions();
        String url = s3.url("climate.zarr");
        io.cubed.spark.sql.ClimateDataset data = new io.cubed.spark.sql.ClimateDataset(16, 10, 12, 4, 5, 6);
        data.writeV2(url, fromSession);
        org.apache.spark.sql.SparkSession spark = org.apache.spark.sql.SparkSession.builder()
                .sparkContext(jsc.sc())
                .getOrCreate();
        org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> df =
                spark.read().format("zarr").load(url).where("time BETWEEN 4 AND 7 AND lat < 40");
        List<org.apache.spark.sql.Row> rows = df.collectAsList();
        // time 4..7 is time chunk 1 of 4; lat < 40 is y 5..9, lat chunk 1 of 2; both lon chunks.
        assertThat(rows).hasSize(4 * 5 * 12);
        for (org.apache.spark.sql.Row r : rows) {
            int t = (int) r.getLong(0);
            int y = (int) Math.round((60.0 - r.getDouble(1)) / 5.0);
            int x = Math.round(r.getFloat(2) / 15.0f);
            assertThat(r.getShort(3)).isEqualTo(io.cubed.spark.sql.ClimateDataset.flag(t, y, x));
            assertThat(r.getDouble(4)).isEqualTo(io.cubed.spark.sql.ClimateDataset.t2m(t, y, x));
            assertThat(r.getFloat(5)).isEqualTo(io.cubed.spark.sql.ClimateDataset.tp(t, y, x));
        }
        assertThat(io.cubed.spark.sql.ZarrScanMetrics.chunksRead(df))
                .as("2 chunks of 3 variables")
                .isEqualTo(6);
    }

    /**
     * With 20 ms per request, a Spark computation and a full Spark SQL scan read every chunk of S3 once and write
     * every chunk once (the server counts each key's requests), keeping several requests in flight per Spark task
     * (one at a time per task would keep at most 2, with local[2]).
     */
    @Test
    void sparkTasksAndTheSqlReaderMakeOneRequestPerChunkWithManyInFlight() {
        StoreOptions fromSession = SparkExecutor.create(jsc).storeOptions();
        String in = s3.url("requests/in.zarr");
        ZarrArray x0 = ZarrArray.create(
                in,
                ZarrCreateOptions.builder(new long[] {60, 60}, new int[] {10, 10}, DType.FLOAT64)
                        .build(),
                fromSession);
        for (long c = 0; c < x0.grid().numChunks(); c++) {
            long[] coords = x0.grid().chunkCoordsOf(c);
            long[] off = x0.grid().chunkOffset(coords);
            Chunk chunk = Chunk.allocate(DType.FLOAT64, x0.grid().chunkShapeAt(coords));
            for (int r = 0; r < 10; r++) {
                for (int k = 0; k < 10; k++) {
                    chunk.doubles()[r * 10 + k] = 10.0 * (off[0] + r) + off[1] + k;
                }
            }
            x0.writeChunk(chunk, coords);
        }
        String url = s3.url("requests/climate.zarr");
        io.cubed.spark.sql.ClimateDataset data = new io.cubed.spark.sql.ClimateDataset(16, 10, 12, 2, 5, 6);
        data.writeV2(url, fromSession);
        Spec spec = SparkExecutor.create(jsc)
                .specBuilder()
                .workDir(s3.url("requests/work"))
                .allowedMem("100MB")
                .reservedMem("10MB")
                .build();
        s3.setLatencyMillis(20);
        try {
            s3.resetStats();
            CubedArray y = io.cubed.array.Elementwise.add(Cubed.fromZarr(in, spec), io.cubed.dtype.Scalar.ofDouble(1));
            y.toZarr(s3.url("requests/out.zarr"));
            io.cubed.storage.fs.S3ServerStats compute = s3.stats();
            for (long c = 0; c < x0.grid().numChunks(); c++) {
                String key = x0.metadata().chunkKey(x0.grid().chunkCoordsOf(c));
                assertThat(compute.keyCounts("requests/in.zarr/" + key))
                        .as("input chunk %s", key)
                        .isEqualTo(Map.of(io.cubed.storage.fs.S3Operation.GET_OBJECT, 1L));
                assertThat(compute.keyCounts("requests/out.zarr/" + key))
                        .as("output chunk %s", key)
                        .isEqualTo(Map.of(io.cubed.storage.fs.S3Operation.PUT_OBJECT, 1L));
            }
            assertThat(compute.maxInFlight()).as("in flight at most").isGreaterThan(4);

            org.apache.spark.sql.SparkSession spark = org.apache.spark.sql.SparkSession.builder()
                    .sparkContext(jsc.sc())
                    .getOrCreate();
            s3.resetStats();
            List<org.apache.spark.sql.Row> sums = spark.read()
                    .format("zarr")
                    .load(url)
                    .selectExpr("count(*)", "sum(t2m)", "sum(flag)")
                    .collectAsList();
            io.cubed.storage.fs.S3ServerStats scan = s3.stats();
            double t2m = 0;
            long flag = 0;
            for (int t = 0; t < 16; t++) {
                for (int yy = 0; yy < 10; yy++) {
                    for (int xx = 0; xx < 12; xx++) {
                        t2m += io.cubed.spark.sql.ClimateDataset.t2m(t, yy, xx);
                        flag += io.cubed.spark.sql.ClimateDataset.flag(t, yy, xx);
                    }
                }
            }
            assertThat(sums.get(0).getLong(0)).isEqualTo(16 * 10 * 12);
            assertThat(sums.get(0).getDouble(1)).isCloseTo(t2m, org.assertj.core.data.Offset.offset(1e-6));
            assertThat(sums.get(0).getLong(2)).isEqualTo(flag);
            long chunkGets = 0;
            for (String key : scan.keyCounts().keySet()) {
                if (key.matches("requests/climate\\.zarr/(t2m|flag)/\\d+\\.\\d+\\.\\d+")) {
                    assertThat(scan.keyCounts(key))
                            .as(key)
                            .isEqualTo(Map.of(io.cubed.storage.fs.S3Operation.GET_OBJECT, 1L));
                    chunkGets++;
                }
            }
            assertThat(chunkGets).as("chunks of t2m and flag").isEqualTo(2 * 8 * 2 * 2);
            assertThat(scan.maxInFlight()).as("in flight at most").isGreaterThan(2);
        } finally {
            s3.setLatencyMillis(0);
        }
    }

    /**
     * With 20 ms per request, a Cubed computation on Spark over a sharded Zarr v3 array opened by its inner chunks: each
     * Spark task keeps the shard indexes it reads and reads its coming tasks' inner chunks ahead, so each inner chunk is
     * one ranged GET, each shard's index one GET per Spark task that reads the shard, and no HEAD is made.
     */
    @Test
    void sparkTasksReadShardsByInnerChunksAheadWithoutHeads() {
        StoreOptions fromSession = SparkExecutor.create(jsc).storeOptions();
        String url = s3.url("inner/x.zarr");
        // 64 x 64 float64 in 4 shards of 32 x 32, each of 16 inner chunks of 8 x 8; element (i, j) = 100 i + j.
        io.cubed.storage.zarr.ZarrV3Metadata m = io.cubed.storage.zarr.ZarrV3Metadata.create(
                new long[] {64, 64},
                new int[] {32, 32},
                DType.FLOAT64,
                io.cubed.dtype.Scalar.zero(),
                io.cubed.storage.zarr.ZarrV3Metadata.sharding(new int[] {8, 8}, List.of()));
        io.cubed.storage.zarr.ZarrV3Array x0 = io.cubed.storage.zarr.ZarrV3Array.create(url, m, true, fromSession);
        double expected = 0;
        for (long c = 0; c < x0.grid().numChunks(); c++) {
            long[] coords = x0.grid().chunkCoordsOf(c);
            long[] off = x0.grid().chunkOffset(coords);
            Chunk shard = Chunk.allocate(DType.FLOAT64, 32, 32);
            for (int r = 0; r < 32; r++) {
                for (int k = 0; k < 32; k++) {
                    shard.doubles()[r * 32 + k] = 100.0 * (off[0] + r) + off[1] + k;
                    expected += shard.doubles()[r * 32 + k];
                }
            }
            x0.writeChunk(shard, coords);
        }
        Spec spec = SparkExecutor.create(jsc)
                .specBuilder()
                .workDir(s3.url("inner/work"))
                .allowedMem("100MB")
                .reservedMem("10MB")
                .build();
        s3.setLatencyMillis(20);
        try {
            s3.resetStats();
            double sum = io.cubed.array.Statistical.sum(Cubed.fromZarr(url, spec, 8, 8))
                    .compute()
                    .get()
                    .doubleValue();
            io.cubed.storage.fs.S3ServerStats stats = s3.stats();
            assertThat(sum).isEqualTo(expected);
            long gets = 0;
            for (long c = 0; c < x0.grid().numChunks(); c++) {
                String key = "inner/x.zarr/" + x0.metadata().chunkKey(x0.grid().chunkCoordsOf(c));
                assertThat(stats.keyCounts(key)).as(key).containsOnlyKeys(io.cubed.storage.fs.S3Operation.GET_OBJECT);
                // 16 inner chunks, read by the sum's first round in tasks of 2 x 2 of them: the two in one row of the
                // shard follow one another, one GET when read ahead (each its own when a task reads them itself);
                // never one twice; and the index once per Spark task reading the shard (local[2]: one or two).
                long n = stats.keyCount(key, io.cubed.storage.fs.S3Operation.GET_OBJECT);
                assertThat(n).as(key).isBetween(9L, 18L);
                gets += n;
            }
            assertThat(gets).as("fewer GETs than inner chunks and indexes").isLessThan(4 * 17);
            assertThat(stats.maxInFlight()).as("in flight at most").isGreaterThan(2);
        } finally {
            s3.setLatencyMillis(0);
        }
    }

    /**
     * With 20 ms per request, a Spark SQL scan of a sharded Zarr v3 group reads each inner chunk once with a ranged GET
     * and each shard's index once per task that reads the shard (a suffix range: no HEAD), keeping several requests
     * in flight per Spark task.
     */
    @Test
    void theSqlReaderReadsShardsByInnerChunksAheadWithoutHeads() {
        StoreOptions fromSession = SparkExecutor.create(jsc).storeOptions();
        String url = s3.url("sharded/climate.zarr");
        // Inner chunks of 2 x 5 x 6 in shards of 4 x 10 x 12: 4 shards of 8 inner chunks per variable.
        io.cubed.spark.sql.ClimateDataset data = new io.cubed.spark.sql.ClimateDataset(16, 10, 12, 2, 5, 6);
        data.writeV3Sharded(url, fromSession);
        org.apache.spark.sql.SparkSession spark = org.apache.spark.sql.SparkSession.builder()
                .sparkContext(jsc.sc())
                .getOrCreate();
        s3.setLatencyMillis(20);
        try {
            s3.resetStats();
            List<org.apache.spark.sql.Row> sums = spark.read()
                    .format("zarr")
                    .load(url)
                    .selectExpr("count(*)", "sum(t2m)", "sum(tp)")
                    .collectAsList();
            io.cubed.storage.fs.S3ServerStats scan = s3.stats();
            double t2m = 0;
            double tp = 0;
            for (int t = 0; t < 16; t++) {
                for (int yy = 0; yy < 10; yy++) {
                    for (int xx = 0; xx < 12; xx++) {
                        t2m += io.cubed.spark.sql.ClimateDataset.t2m(t, yy, xx);
                        tp += io.cubed.spark.sql.ClimateDataset.tp(t, yy, xx);
                    }
                }
            }
            assertThat(sums.get(0).getLong(0)).isEqualTo(16 * 10 * 12);
            assertThat(sums.get(0).getDouble(1)).isCloseTo(t2m, org.assertj.core.data.Offset.offset(1e-6));
            assertThat(sums.get(0).getDouble(2)).isCloseTo(tp, org.assertj.core.data.Offset.offset(1e-2));
            int shards = 0;
            for (String key : scan.keyCounts().keySet()) {
                if (key.matches("sharded/climate\\.zarr/(t2m|tp)/c/\\d+/\\d+/\\d+")) {
                    assertThat(scan.keyCounts(key))
                            .as(key)
                            .containsOnlyKeys(io.cubed.storage.fs.S3Operation.GET_OBJECT);
                    // Its 8 inner chunks, and its index once per Spark task reading the shard (local[2]: one or two).
                    assertThat(scan.keyCount(key, io.cubed.storage.fs.S3Operation.GET_OBJECT))
                            .as(key)
                            .isBetween(9L, 10L);
                    shards++;
                }
            }
            assertThat(shards).as("shards of t2m and tp").isEqualTo(2 * 4);
            assertThat(scan.maxInFlight()).as("in flight at most").isGreaterThan(2);
        } finally {
            s3.setLatencyMillis(0);
        }
    }
}
