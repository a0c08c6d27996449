package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.storage.fs.S3Operation;
import io.cubed.storage.fs.S3ServerStats;
import io.cubed.storage.fs.S3TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Region reads of sharded v3 arrays on S3 at a latency of 20 ms a request, as the server counts the requests: a
 * shard's index costs one GET (a suffix range that also tells the shard's size) and no HEAD; inner chunks that lie
 * close together in the shard come in one GET; distant ones in GETs in flight together; a shard not stored costs its
 * one GET (404), and reads as the fill value.
 */
class ShardedRegionReadsS3IT {
    private static S3TestServer s3;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3TestServer.builder().bucket("sharded-regions").latencyMillis(20).start();
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    private static double value(long i, long j) {
        return 1000.0 * i + j + 0.25;
    }

    /** A float64 array of {@code shape} in shards of {@code shard} with inner chunks of {@code inner}, all written. */
    private static ZarrV3Array write(String name, long[] shape, int[] shard, int[] inner, Scalar fill) {
        return write(name, shape, shard, ZarrV3Metadata.sharding(inner, List.of()), fill);
    }

    /** As above, with the sharding codec {@code codecs}. */
    private static ZarrV3Array write(String name, long[] shape, int[] shard, List<V3Codec> codecs, Scalar fill) {
        ZarrV3Metadata m = ZarrV3Metadata.create(shape, shard, DType.FLOAT64, fill, codecs);
        ZarrV3Array a = ZarrV3Array.create(s3.url(name), m, true, s3.options());
        for (long k = 0; k < a.grid().numChunks(); k++) {
            long[] c = a.grid().chunkCoordsOf(k);
            a.writeChunk(reference(a.grid().chunkOffset(c), a.grid().chunkShapeAt(c)), c);
        }
        return a;
    }

    /** The box of {@code shape} at {@code offset} of the reference array. */
    private static Chunk reference(long[] offset, int[] shape) {
        Chunk c = Chunk.allocate(DType.FLOAT64, shape);
        for (int r = 0; r < shape[0]; r++) {
            for (int k = 0; k < shape[1]; k++) {
                c.doubles()[r * shape[1] + k] = value(offset[0] + r, offset[1] + k);
            }
        }
        return c;
    }

    @Test
    void aRowOfInnerChunksCostsTheIndexAndOneRangeAndNoHead() {
        ZarrV3Array a = write("row.zarr", new long[] {64, 64}, new int[] {64, 64}, new int[] {8, 8}, Scalar.zero());
        s3.resetStats();
        Chunk box = a.readRegion(new long[] {8, 0}, new int[] {8, 64});
        S3ServerStats stats = s3.stats();
        assertThat(box.doubles())
                .containsExactly(reference(new long[] {8, 0}, new int[] {8, 64}).doubles());
        // The index (64 entries of 16 bytes and a crc32c), then inner chunks (1, 0) .. (1, 7): 4 KiB in a row.
        assertThat(stats.keyCounts("row.zarr/c/0/0")).isEqualTo(Map.of(S3Operation.GET_OBJECT, 2L));
        assertThat(stats.total()).isEqualTo(2);
    }

    /**
     * An index at the start of the shard (zarr-python's {@code index_location="start"}) costs one GET too: a range from
     * byte 0, whose answer names the shard's size; no HEAD.
     */
    @Test
    void anIndexAtTheStartCostsOneGetAndNoHead() {
        V3Codec.Sharding atEnd = (V3Codec.Sharding)
                ZarrV3Metadata.sharding(new int[] {8, 8}, List.of()).get(0);
        List<V3Codec> atStart =
                List.of(new V3Codec.Sharding(atEnd.chunkShape(), atEnd.codecs(), atEnd.indexCodecs(), false));
        ZarrV3Array a = write("start.zarr", new long[] {64, 64}, new int[] {64, 64}, atStart, Scalar.zero());
        s3.resetStats();
        Chunk box = a.readRegion(new long[] {8, 0}, new int[] {8, 64});
        S3ServerStats stats = s3.stats();
        assertThat(box.doubles())
                .containsExactly(reference(new long[] {8, 0}, new int[] {8, 64}).doubles());
        // The index (64 entries of 16 bytes and a crc32c) from byte 0, then inner chunks (1, 0) .. (1, 7) in a row.
        assertThat(stats.keyCounts("start.zarr/c/0/0")).isEqualTo(Map.of(S3Operation.GET_OBJECT, 2L));
        assertThat(stats.total()).isEqualTo(2);
    }

    @Test
    void distantInnerChunksAreReadWithRequestsInFlightTogether() {
        // One 8 MiB shard of 16 inner chunks of 512 KiB; a column of them lies 1.5 MiB apart in the shard.
        ZarrV3Array a = write(
                "column.zarr", new long[] {1024, 1024}, new int[] {1024, 1024}, new int[] {256, 256}, Scalar.zero());
        s3.resetStats();
        Chunk box = a.readRegion(new long[] {0, 256}, new int[] {1024, 256});
        S3ServerStats stats = s3.stats();
        assertThat(box.doubles())
                .containsExactly(
                        reference(new long[] {0, 256}, new int[] {1024, 256}).doubles());
        assertThat(stats.keyCounts("column.zarr/c/0/0")).isEqualTo(Map.of(S3Operation.GET_OBJECT, 5L));
        assertThat(stats.total()).isEqualTo(5);
        // One after another they would never overlap; four wait for the server's 20 ms together.
        assertThat(stats.maxInFlight()).isGreaterThanOrEqualTo(2);
    }

    /**
     * A computation over a sharded array opened by its inner chunks: each task slot keeps the shard indexes it reads
     * (one GET per shard and slot at most), the inner chunks of the coming tasks are read ahead (many requests in
     * flight, where the tasks alone would keep one per thread), and every inner chunk is read once.
     */
    @Test
    void tasksReadingInnerChunksReadThemAheadAndEachShardIndexOncePerSlot() {
        ZarrV3Array a = write("tasks.zarr", new long[] {128, 128}, new int[] {32, 32}, new int[] {8, 8}, Scalar.zero());
        io.cubed.plan.Spec spec = io.cubed.plan.Spec.builder()
                .workDir(s3.url("tasks-work"))
                .storeOptions(s3.options())
                .allowedMem("200MB")
                .reservedMem("10MB")
                .executor(new io.cubed.runtime.LocalExecutor(2, 3, 0))
                .build();
        double expected = 0;
        for (int i = 0; i < 128; i++) {
            for (int j = 0; j < 128; j++) {
                expected += value(i, j);
            }
        }
        s3.resetStats();
        double sum = io.cubed.array.Statistical.sum(io.cubed.Cubed.fromZarr(a.url(), spec, 8, 8))
                .compute()
                .get()
                .doubleValue();
        S3ServerStats stats = s3.stats();
        assertThat(sum).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-6 * expected));
        long gets = 0;
        for (long k = 0; k < a.grid().numChunks(); k++) {
            String key = "tasks.zarr/" + a.metadata().chunkKey(a.grid().chunkCoordsOf(k));
            // 16 inner chunks, read by the sum's first round in tasks of 2 x 2 of them: the two of a task in one row
            // of the shard follow one another, one ranged GET read ahead; a task that found them not read ahead
            // reads each itself. Never an inner chunk twice, and the index once per slot that read it.
            assertThat(stats.keyCounts(key)).containsOnlyKeys(S3Operation.GET_OBJECT);
            long n = stats.keyCount(key, S3Operation.GET_OBJECT);
            assertThat(n).as(key).isBetween(9L, 18L);
            gets += n;
        }
        assertThat(gets).as("fewer GETs than inner chunks and indexes").isLessThan(16 * 17);
        // Two threads reading on their own would keep at most two in flight.
        assertThat(stats.maxInFlight()).isGreaterThan(4);
    }

    /**
     * A slice of a sharded array, computed: each task reads the box of its shard it needs (the index and the box's
     * inner chunks, read ahead or together), never the whole shard, and no shard the slice does not touch.
     */
    @Test
    void aComputedSliceReadsOnlyItsBoxesWithRequestsInFlightTogether() {
        ZarrV3Array a = write("slice.zarr", new long[] {128, 128}, new int[] {32, 32}, new int[] {8, 8}, Scalar.zero());
        io.cubed.plan.Spec spec = io.cubed.plan.Spec.builder()
                .workDir(s3.url("slice-work"))
                .storeOptions(s3.options())
                .allowedMem("200MB")
                .reservedMem("10MB")
                .executor(new io.cubed.runtime.LocalExecutor(2, 3, 0))
                .build();
        s3.resetStats();
        // Columns 40..47: the second inner column of the second shard column, in each of the four shard rows.
        Chunk got = io.cubed.array.Indexing.index(
                        io.cubed.Cubed.fromZarr(a.url(), spec),
                        io.cubed.array.Index.all(),
                        io.cubed.array.Index.slice(40L, 48L))
                .compute();
        S3ServerStats stats = s3.stats();
        assertThat(got.doubles())
                .containsExactly(
                        reference(new long[] {0, 40}, new int[] {128, 8}).doubles());
        for (int r = 0; r < 4; r++) {
            String key = "slice.zarr/c/" + r + "/1";
            // The index once per slot, and the 4 inner chunks of the box (4 x 8 x 8 float64 of a 32 x 32 shard,
            // too far apart in the shard for one range within the box's bytes): never the shard whole.
            assertThat(stats.keyCounts(key)).as(key).containsOnlyKeys(S3Operation.GET_OBJECT);
            assertThat(stats.keyCount(key, S3Operation.GET_OBJECT)).as(key).isBetween(5L, 6L);
        }
        for (int r = 0; r < 4; r++) {
            for (int c : new int[] {0, 2, 3}) {
                assertThat(stats.keyCounts("slice.zarr/c/" + r + "/" + c)).isEmpty();
            }
        }
        assertThat(stats.maxInFlight()).isGreaterThan(2);
    }

    @Test
    void innerChunksNotStoredAndShardsNotStoredReadAsTheFillValue() {
        Scalar fill = Scalar.ofDouble(-7.5);
        ZarrV3Metadata m = ZarrV3Metadata.create(
                new long[] {32, 16},
                new int[] {16, 16},
                DType.FLOAT64,
                fill,
                ZarrV3Metadata.sharding(new int[] {8, 8}, List.of()));
        ZarrV3Array a = ZarrV3Array.create(s3.url("holes.zarr"), m, true, s3.options());
        // Shard (0, 0) with its inner chunk (0, 1) all fill (not stored); shard (1, 0) never written.
        Chunk shard = reference(new long[] {0, 0}, new int[] {16, 16});
        for (int r = 0; r < 8; r++) {
            for (int k = 8; k < 16; k++) {
                shard.doubles()[r * 16 + k] = -7.5;
            }
        }
        a.writeChunk(shard, 0, 0);
        s3.resetStats();
        Chunk box = a.readRegion(new long[] {4, 4}, new int[] {24, 12});
        S3ServerStats stats = s3.stats();
        for (int r = 0; r < 24; r++) {
            for (int k = 0; k < 12; k++) {
                long i = 4 + r;
                long j = 4 + k;
                double expected = i >= 16 || (i < 8 && j >= 8) ? -7.5 : value(i, j);
                assertThat(box.doubles()[r * 12 + k]).as("(%d, %d)", i, j).isEqualTo(expected);
            }
        }
        assertThat(stats.count(S3Operation.HEAD_OBJECT)).isZero();
        assertThat(stats.keyCounts("holes.zarr/c/1/0")).isEqualTo(Map.of(S3Operation.GET_OBJECT, 1L));
        // Shard (0, 0): its index, then the three stored inner chunks the box needs, one after another in the shard
        // (the one not stored takes no bytes): one range.
        assertThat(stats.keyCounts("holes.zarr/c/0/0")).isEqualTo(Map.of(S3Operation.GET_OBJECT, 2L));
        assertThat(stats.total()).isEqualTo(3);
    }
}
