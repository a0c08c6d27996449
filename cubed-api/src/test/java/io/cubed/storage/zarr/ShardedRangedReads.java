package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import java.util.List;

/**
 * The ranged-read contract of sharded v3 arrays on any store: reading one inner chunk reads the shard index and that
 * inner chunk's bytes only, never the whole shard. Shared by the local test and the S3 integration test.
 */
final class ShardedRangedReads {
    private ShardedRangedReads() {}

    /**
     * Writes a 64x64 float64 array as one shard of 8x8 inner chunks at {@code url} and checks ranged reads, then those
     * of a slice computed with work directory {@code workDir}.
     */
    static void check(String url, StoreOptions options, java.nio.file.Path workDir) {
        ZarrV3Metadata m = ZarrV3Metadata.create(
                new long[] {64, 64},
                new int[] {64, 64},
                DType.FLOAT64,
                Scalar.zero(),
                ZarrV3Metadata.sharding(new int[] {8, 8}, List.of()));
        ZarrV3Array written = ZarrV3Array.create(url, m, true, options);
        Chunk data = Chunk.allocate(DType.FLOAT64, 64, 64);
        for (int i = 0; i < 64 * 64; i++) {
            data.doubles()[i] = i * 0.5 + 1;
        }
        written.writeChunk(data, 0, 0);
        Store real = Stores.supplier(url, options).open();
        long shardBytes = real.size("c/0/0");
        // 64 inner chunks of 512 bytes, an index of 64 * 16 bytes and its 4-byte crc32c.
        assertThat(shardBytes).isEqualTo(64 * 512 + 64 * 16 + 4);
        CountingStore counting = new CountingStore(real);
        ZarrV3Array a = new ZarrV3Array(url, () -> counting, m);
        Chunk inner = a.readInnerChunk(3, 5);
        for (int r = 0; r < 8; r++) {
            for (int c = 0; c < 8; c++) {
                int i = (3 * 8 + r) * 64 + 5 * 8 + c;
                assertThat(inner.doubles()[r * 8 + c]).isEqualTo(i * 0.5 + 1);
            }
        }
        assertThat(counting.wholeGets.get()).as("whole-value reads").isZero();
        assertThat(counting.rangedGets.get())
                .as("ranged reads: index, then the inner chunk")
                .isEqualTo(2);
        assertThat(counting.bytesRead.get()).isEqualTo(64 * 16 + 4 + 512);
        assertThat(counting.bytesRead.get()).isLessThan(shardBytes / 10);
        // A region inside two inner chunks reads the index once and those two chunks.
        counting.reset();
        Chunk box = a.readRegion(new long[] {8, 4}, new int[] {3, 8});
        assertThat(box.doubles()[0]).isEqualTo((8 * 64 + 4) * 0.5 + 1);
        assertThat(box.doubles()[3 * 8 - 1]).isEqualTo((10 * 64 + 11) * 0.5 + 1);
        assertThat(counting.wholeGets.get()).isZero();
        assertThat(counting.rangedGets.get()).isEqualTo(3);
        assertThat(counting.bytesRead.get()).isEqualTo(64 * 16 + 4 + 2 * 512);
        checkSlice(url, options, real, workDir);
    }

    /**
     * A slice {@code x[3:5, 40:50]} of the array {@link #check} wrote, computed by the in-process executor (which
     * reads chunks ahead of their tasks on a store that keeps requests in flight): its task reads the index and the
     * two inner chunks holding the slice, no whole shard.
     */
    private static void checkSlice(String url, StoreOptions options, Store real, java.nio.file.Path workDir) {
        CountingStore counting = new CountingStore(real, real.concurrency());
        ZarrV3Array a = new ZarrV3Array(
                url, () -> counting, ZarrV3Array.open(url, options).metadata());
        io.cubed.plan.Spec spec = io.cubed.plan.Spec.builder()
                .workDir(workDir.toString())
                .executor(new io.cubed.runtime.LocalExecutor(2, 1))
                .build();
        Chunk got = io.cubed.array.Indexing.index(
                        io.cubed.array.CubedArray.of(io.cubed.plan.ArrayNode.source(a), spec),
                        io.cubed.array.Index.slice(3L, 5L),
                        io.cubed.array.Index.slice(40L, 50L))
                .compute();
        for (int r = 0; r < 2; r++) {
            for (int c = 0; c < 10; c++) {
                assertThat(got.doubles()[r * 10 + c]).isEqualTo(((3 + r) * 64 + 40 + c) * 0.5 + 1);
            }
        }
        assertThat(counting.wholeGets.get()).as("whole-shard reads").isZero();
        // The index, and the inner chunks of rows 0-7 and columns 40-47 and 48-55.
        assertThat(counting.bytesRead.get()).isEqualTo(64 * 16 + 4 + 2 * 512);
    }
}
