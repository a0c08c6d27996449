package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.StorageException;
import io.cubed.storage.RetryingStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrV3Array;
import io.cubed.storage.zarr.ZarrV3Metadata;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The requests {@link HadoopStore} makes through Hadoop's S3A 3.3.4 ({@code cubed.store.s3.client=hadoop}), as the S3
 * test server counts them, with the bytes checked against those written: a ranged read (a v3 shard's inner chunks) one
 * {@code GET} and no {@code HEAD}; the tail of a value (a v3 shard's index) one {@code HEAD} and one {@code GET} (its
 * size and then a range would be three); a value read whole (a v2 chunk) S3A's {@code HEAD} and then its {@code GET},
 * a missing one the {@code HEAD} alone (docs/cloud.md says why a whole value keeps its {@code HEAD}).
 */
class HadoopS3aRequestsIT {
    private static S3TestServer s3;
    private static StoreOptions hadoop;
    private Store store;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3TestServer.builder().bucket("hadoop-reads").start();
        hadoop = S3StoreIT.s3Options(s3.port()).with(Stores.S3_CLIENT_OPTION, "hadoop");
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    @BeforeEach
    void open() {
        store = Stores.open("s3a://hadoop-reads/v", hadoop);
        assertThat(RetryingStore.unwrapAll(store)).isInstanceOf(HadoopStore.class);
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void aWholeValueIsAHeadAndAGet() {
        byte[] value = random(300_000, 1);
        store.put("w/0", value);
        store.put("w/empty", new byte[0]);
        s3.resetStats();
        for (int i = 0; i < 3; i++) {
            assertThat(store.get("w/0")).isEqualTo(value);
        }
        assertThat(store.get("w/empty")).isEmpty();
        assertThat(store.get("w/missing")).isNull();
        S3ServerStats stats = s3.stats();
        assertThat(stats.keyCounts("v/w/0")).isEqualTo(Map.of(S3Operation.HEAD_OBJECT, 3L, S3Operation.GET_OBJECT, 3L));
        // S3A reads nothing of a value its HEAD found empty, and gives up on a missing one after the HEAD.
        assertThat(stats.keyCounts("v/w/empty")).isEqualTo(Map.of(S3Operation.HEAD_OBJECT, 1L));
        assertThat(stats.keyCounts("v/w/missing")).isEqualTo(Map.of(S3Operation.HEAD_OBJECT, 1L));
        assertThat(stats.total()).isEqualTo(8);
    }

    @Test
    void aRangedReadIsOneGetAndNoHead() {
        byte[] value = random(100_000, 2);
        store.put("r/0", value);
        s3.resetStats();
        long[][] ranges = {{0, 10}, {1_234, 4_321}, {99_990, 10}, {0, 100_000}, {50_000, 1}};
        for (long[] r : ranges) {
            assertThat(store.getRange("r/0", r[0], (int) r[1]))
                    .as("[%d, +%d)", r[0], r[1])
                    .isEqualTo(Arrays.copyOfRange(value, (int) r[0], (int) (r[0] + r[1])));
        }
        assertThat(store.getRange("r/missing", 10, 20)).isNull();
        S3ServerStats stats = s3.stats();
        assertThat(stats.keyCounts("v/r/0")).isEqualTo(Map.of(S3Operation.GET_OBJECT, (long) ranges.length));
        assertThat(stats.keyCounts("v/r/missing")).isEqualTo(Map.of(S3Operation.GET_OBJECT, 1L));
        assertThat(stats.total()).isEqualTo(ranges.length + 1);
    }

    /**
     * A range that runs past the end fails as it did with S3A's {@code HEAD}: in one {@code GET} when it starts inside
     * the value (S3 answers with the bytes it has); one that starts at or after the end gets S3's 416, which S3A 3.3.4
     * retries as a failed first read ({@code fs.s3a.retry.limit} times, 1 here) before it too is the end of the value.
     */
    @Test
    void aRangePastTheEndFailsAsBefore() {
        store.put("e/0", random(100, 3));
        s3.resetStats();
        assertThatThrownBy(() -> store.getRange("e/0", 95, 10))
                .isInstanceOf(StorageException.class)
                .hasMessage("cannot read bytes [95, 105) of 'e/0' in " + store.uri() + ": the value is shorter");
        assertThat(s3.stats().keyCounts("v/e/0")).isEqualTo(Map.of(S3Operation.GET_OBJECT, 1L));
        s3.resetStats();
        assertThatThrownBy(() -> store.getRange("e/0", 5_000, 1))
                .isInstanceOf(StorageException.class)
                .hasMessage("cannot read bytes [5000, 5001) of 'e/0' in " + store.uri() + ": the value is shorter");
        assertThat(s3.stats().keyCounts("v/e/0")).isEqualTo(Map.of(S3Operation.GET_OBJECT, 2L));
    }

    @Test
    void aTailIsOneHeadAndOneGet() {
        byte[] value = random(100_000, 4);
        store.put("t/0", value);
        store.put("t/small", Arrays.copyOf(value, 20));
        s3.resetStats();
        Store.Part tail = store.getTail("t/0", 1_028);
        assertThat(tail.size()).isEqualTo(100_000);
        assertThat(tail.bytes()).isEqualTo(Arrays.copyOfRange(value, 100_000 - 1_028, 100_000));
        Store.Part whole = store.getTail("t/small", 64);
        assertThat(whole.size()).isEqualTo(20);
        assertThat(whole.bytes()).isEqualTo(Arrays.copyOf(value, 20));
        S3ServerStats stats = s3.stats();
        assertThat(stats.keyCounts("v/t/0")).isEqualTo(Map.of(S3Operation.HEAD_OBJECT, 1L, S3Operation.GET_OBJECT, 1L));
        assertThat(stats.keyCounts("v/t/small"))
                .isEqualTo(Map.of(S3Operation.HEAD_OBJECT, 1L, S3Operation.GET_OBJECT, 1L));
        assertThat(stats.total()).isEqualTo(4);
    }

    /** A value's first bytes (a shard's index at its start), as its last ones: its status, then one GET. */
    @Test
    void aHeadIsOneHeadAndOneGet() {
        byte[] value = random(100_000, 5);
        store.put("h/0", value);
        store.put("h/small", Arrays.copyOf(value, 20));
        s3.resetStats();
        Store.Part head = store.getHead("h/0", 1_028);
        assertThat(head.size()).isEqualTo(100_000);
        assertThat(head.bytes()).isEqualTo(Arrays.copyOf(value, 1_028));
        Store.Part whole = store.getHead("h/small", 64);
        assertThat(whole.size()).isEqualTo(20);
        assertThat(whole.bytes()).isEqualTo(Arrays.copyOf(value, 20));
        assertThat(store.getHead("h/missing", 64)).isNull();
        S3ServerStats stats = s3.stats();
        assertThat(stats.keyCounts("v/h/0")).isEqualTo(Map.of(S3Operation.HEAD_OBJECT, 1L, S3Operation.GET_OBJECT, 1L));
        assertThat(stats.keyCounts("v/h/small"))
                .isEqualTo(Map.of(S3Operation.HEAD_OBJECT, 1L, S3Operation.GET_OBJECT, 1L));
        assertThat(stats.count(S3Operation.GET_OBJECT)).isEqualTo(2);
    }

    /**
     * Ranges and tails at locations whose characters Hadoop's {@code Path} keeps literally: the status given to S3A
     * names the path as S3A qualifies it (S3A refuses a status for another path).
     */
    @Test
    void rangesAndTailsAtLocationsOfAnySpelling() {
        List<String> spellings = List.of("my run/x.zarr", "a%41", "a#b", "a?b", "é 日本", "x//y/", "p/./q/../r");
        byte[] value = random(1_000, 5);
        for (int i = 0; i < spellings.size(); i++) {
            String url = "s3a://hadoop-reads/spell/" + i + "/" + spellings.get(i);
            try (Store at = Stores.open(url, hadoop)) {
                at.put("c/0", value);
                s3.resetStats();
                assertThat(at.getRange("c/0", 10, 20)).as(url).isEqualTo(Arrays.copyOfRange(value, 10, 30));
                Store.Part tail = at.getTail("c/0", 16);
                assertThat(tail.bytes()).as(url).isEqualTo(Arrays.copyOfRange(value, 984, 1_000));
                assertThat(tail.size()).isEqualTo(1_000);
                S3ServerStats stats = s3.stats();
                assertThat(stats.count(S3Operation.GET_OBJECT)).as(url).isEqualTo(2);
                assertThat(stats.count(S3Operation.HEAD_OBJECT)).as(url).isEqualTo(1);
                assertThat(stats.total()).as(url).isEqualTo(3);
            }
        }
    }

    /** Element (i, j) of the arrays below. */
    private static double value(long i, long j) {
        return 1000.0 * i + j + 0.5;
    }

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
    void aZarrChunkIsAHeadAndAGetAndAMissingOneAHead() {
        ZarrArray a = ZarrArray.create(
                s3.url("v2.zarr"),
                ZarrCreateOptions.builder(new long[] {32, 32}, new int[] {16, 16}, DType.FLOAT64)
                        .fillValue(Scalar.ofDouble(-1))
                        .build(),
                hadoop);
        for (long k = 0; k < a.grid().numChunks(); k++) {
            long[] c = a.grid().chunkCoordsOf(k);
            if (k != 3) {
                a.writeChunk(reference(a.grid().chunkOffset(c), a.grid().chunkShapeAt(c)), c);
            }
        }
        s3.resetStats();
        Chunk all = a.readRegion(new long[2], new int[] {32, 32});
        S3ServerStats stats = s3.stats();
        for (int i = 0; i < 32; i++) {
            for (int j = 0; j < 32; j++) {
                double expected = i >= 16 && j >= 16 ? -1 : value(i, j);
                assertThat(all.doubles()[i * 32 + j]).as("(%d, %d)", i, j).isEqualTo(expected);
            }
        }
        for (String key : List.of("0.0", "0.1", "1.0")) {
            assertThat(stats.keyCounts("v2.zarr/" + key))
                    .as("requests on chunk %s", key)
                    .isEqualTo(Map.of(S3Operation.HEAD_OBJECT, 1L, S3Operation.GET_OBJECT, 1L));
        }
        assertThat(stats.keyCounts("v2.zarr/1.1")).isEqualTo(Map.of(S3Operation.HEAD_OBJECT, 1L));
        assertThat(stats.total()).isEqualTo(7);
    }

    @Test
    void aShardIndexIsOneHeadAndOneGetAndARowOfInnerChunksOneGet() {
        ZarrV3Metadata m = ZarrV3Metadata.create(
                new long[] {64, 64},
                new int[] {64, 64},
                DType.FLOAT64,
                Scalar.zero(),
                ZarrV3Metadata.sharding(new int[] {8, 8}, List.of()));
        ZarrV3Array a = ZarrV3Array.create(s3.url("v3.zarr"), m, true, hadoop);
        a.writeChunk(reference(new long[2], new int[] {64, 64}), 0, 0);
        s3.resetStats();
        Chunk row = a.readRegion(new long[] {8, 0}, new int[] {8, 64});
        S3ServerStats stats = s3.stats();
        assertThat(row.doubles())
                .containsExactly(reference(new long[] {8, 0}, new int[] {8, 64}).doubles());
        // The index (64 entries of 16 bytes and a crc32c): its size, then its bytes; inner chunks (1, 0) .. (1, 7),
        // one after another in the shard: one range.
        assertThat(stats.keyCounts("v3.zarr/c/0/0"))
                .isEqualTo(Map.of(S3Operation.HEAD_OBJECT, 1L, S3Operation.GET_OBJECT, 2L));
        assertThat(stats.total()).isEqualTo(3);
    }
}
