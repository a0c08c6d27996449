package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.V3Codec;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrV3Group;
import io.cubed.storage.zarr.ZarrV3Metadata;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cubed info} on Zarr v2 and v3 arrays, sharded or not, and its one-line errors. */
class InfoCommandTest {
    @TempDir
    Path tmp;

    @Test
    void describesAV3Array() {
        String url = tmp.resolve("v3.zarr").toString();
        V3Arrays.create(
                url,
                new long[] {10, 7},
                new int[] {4, 7},
                DType.FLOAT64,
                Scalar.ofDouble(Double.NaN),
                List.of(new V3Codec.Bytes(false), new V3Codec.Zstd(3, false)),
                Set.of(1L));
        CliRun r = CliRun.of("info", url);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .isEqualTo(String.join(
                        System.lineSeparator(),
                        "url:          " + url,
                        "zarr_format:  3",
                        "shape:        [10, 7]",
                        "chunks:       [4, 7]",
                        "dtype:        float64",
                        "codecs:       [{name=bytes, configuration={endian=little}}, {name=zstd, configuration={level=3,"
                                + " checksum=false}}]",
                        "fill_value:   NaN",
                        // 10 x 7 float64 = 560 bytes; a chunk 4 x 7 x 8 = 224 bytes; chunks 0 and 2 of 3 written.
                        "size:         560 B uncompressed",
                        "chunk size:   224 B",
                        "chunks:       2 written of 3",
                        "status:       complete",
                        ""));
    }

    @Test
    void describesAShardedV3ArrayWithItsShardsAndInnerChunks() {
        String url = tmp.resolve("sharded.zarr").toString();
        V3Arrays.create(
                url,
                new long[] {10, 9},
                new int[] {4, 6},
                DType.INT32,
                Scalar.ofLong(-1),
                ZarrV3Metadata.sharding(new int[] {2, 3}, List.of(new V3Codec.Gzip(1))),
                Set.of(0L, 5L));
        CliRun r = CliRun.of("info", url);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("zarr_format:  3")
                .contains("shape:        [10, 9]")
                .contains("chunks:       [2, 3] (inner chunks)")
                // 4 x 6 shards of 2 x 3 inner chunks: 2 x 2 = 4 per shard.
                .contains("shards:       [4, 6] (4 inner chunks each, index at the end)")
                .contains("dtype:        int32")
                .contains("{name=sharding_indexed, configuration={chunk_shape=[2, 3], codecs=[{name=bytes,")
                .contains("{name=gzip, configuration={level=1}}")
                .contains("index_location=end")
                .contains("fill_value:   -1")
                // 90 int32 = 360 bytes; an inner chunk 6 x 4 = 24 bytes, a shard 24 x 4 = 96 bytes.
                .contains("size:         360 B uncompressed")
                .contains("chunk size:   24 B")
                .contains("shard size:   96 B")
                // 3 x 2 shards, 2 left out; 5 x 3 inner chunks.
                .contains("shards:       4 written of 6 (15 inner chunks in all)");
    }

    @Test
    void aV2ArraySaysItsFormatToo() {
        String url = tmp.resolve("v2.zarr").toString();
        ZarrArray a = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {10, 7}, new int[] {4, 7}, DType.FLOAT32)
                        .compressor(new Compressor.Zstd(3, false))
                        .build());
        V3Arrays.write(a, Set.of());
        CliRun r = CliRun.of("info", url);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .startsWith("url:          " + url + System.lineSeparator() + "zarr_format:  2")
                .contains("chunks:       [4, 7]")
                .contains("dtype:        float32 (<f4, order C)")
                .contains("compressor:   {id=zstd, level=3}")
                .contains("size:         280 B uncompressed")
                .contains("chunks:       3 written of 3");
    }

    @Test
    void neitherV2NorV3IsAOneLineErrorNamingWhatWasLookedFor() {
        String url = tmp.resolve("nothing.zarr").toString();
        CliRun r = CliRun.of("info", url);
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().strip())
                .startsWith("cubed: no Zarr array at " + url + ": ")
                .contains(url + "/.zarray is missing (Zarr v2)")
                .contains(url + "/zarr.json (v3)")
                .doesNotContain("\n");
        String group = tmp.resolve("group.zarr").toString();
        ZarrV3Group.create(group, StoreOptions.empty());
        CliRun g = CliRun.of("info", group);
        assertThat(g.code()).isEqualTo(1);
        assertThat(g.err().strip())
                .isEqualTo("cubed: no Zarr array at " + group + ": " + group + "/zarr.json describes a group");
    }
}
