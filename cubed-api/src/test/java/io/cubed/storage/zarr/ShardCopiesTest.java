package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.memory.BufferCopies;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The copies a task holds reading and writing shards besides the stored shard and the shard ({@link
 * ZarrFormat#v3ShardCopies}), counted by hand from what V3Codecs' shard reads and writes hold per inner chunk and
 * rounded up to whole shards.
 */
class ShardCopiesTest {
    private static final int[] SHARD = {700, 700};

    private static BufferCopies copies(int[] inner, List<V3Codec> compressors, boolean putsInPieces) {
        V3Codec.Sharding s =
                (V3Codec.Sharding) ZarrV3Metadata.sharding(inner, compressors).get(0);
        return ZarrFormat.v3ShardCopies(s, SHARD, putsInPieces);
    }

    @Test
    void quarterShardInnerChunks() {
        int[] quarter = {350, 350};
        // bytes alone: nothing read beside the shard; streamed: one inner chunk (a quarter shard), within the stored
        // shard's copy the store's figure counts; gathered: the encoded inner chunks (a shard) and one inner chunk.
        assertThat(copies(quarter, List.of(), false)).isEqualTo(new BufferCopies(0, 2));
        assertThat(copies(quarter, List.of(), true)).isEqualTo(new BufferCopies(0, 0));
        // zstd decodes in order: one inner chunk's compressed bytes.
        assertThat(copies(quarter, List.of(new V3Codec.Zstd(0, false)), true)).isEqualTo(new BufferCopies(1, 0));
        // gzip: compressed and decompressed bytes (half a shard: one); written: the inner chunk, its element bytes,
        // compressed bytes and their copy (one shard, within the store's copy when streamed).
        assertThat(copies(quarter, List.of(new V3Codec.Gzip(1)), true)).isEqualTo(new BufferCopies(1, 0));
        assertThat(copies(quarter, List.of(new V3Codec.Gzip(1)), false)).isEqualTo(new BufferCopies(1, 2));
    }

    @Test
    void oneInnerChunkPerShard() {
        int[] whole = {700, 700};
        assertThat(copies(whole, List.of(), true)).isEqualTo(new BufferCopies(0, 0));
        assertThat(copies(whole, List.of(), false)).isEqualTo(new BufferCopies(0, 2));
        assertThat(copies(whole, List.of(new V3Codec.Gzip(1)), true)).isEqualTo(new BufferCopies(2, 3));
        assertThat(copies(whole, List.of(new V3Codec.Gzip(1)), false)).isEqualTo(new BufferCopies(2, 5));
    }

    @Test
    void shardsOfManyInnerChunks() {
        // 100 inner chunks of (70, 70): any chain's temporaries of one inner chunk fit in one shard.
        int[] small = {70, 70};
        assertThat(copies(small, List.of(new V3Codec.Gzip(1)), true)).isEqualTo(new BufferCopies(1, 0));
        assertThat(copies(small, List.of(new V3Codec.Gzip(1)), false)).isEqualTo(new BufferCopies(1, 2));
    }
}
