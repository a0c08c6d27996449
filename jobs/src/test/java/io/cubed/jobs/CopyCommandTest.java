package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.V3Codec;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrV3Array;
import io.cubed.storage.zarr.ZarrV3Metadata;
import io.cubed.storage.zarr.blosc.BloscCname;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cubed copy} with Zarr v3 sources and targets: v3 to v3 in the source's codecs, v3 to v2, v2 to v3, other codecs,
 * chunks and data types, resuming, and the errors that stop a copy before it writes anything. Every copy is checked
 * element by element against the formula the source was written with ({@link V3Arrays#value}).
 */
class CopyCommandTest {
    private static final long[] SHAPE = {10, 9};
    private static final int[] SHARD = {4, 6};
    private static final int[] INNER = {2, 3};
    /** Shards 1 and 4 of the 3 x 2 are never written: their elements read as the fill value. */
    private static final Set<Long> SKIPPED = Set.of(1L, 4L);

    @TempDir
    Path tmp;

    private String url(String name) {
        return tmp.resolve(name).toString();
    }

    private ZarrV3Array sharded(String name) {
        return V3Arrays.create(
                url(name),
                SHAPE,
                SHARD,
                DType.FLOAT32,
                Scalar.ofDouble(-2.5),
                ZarrV3Metadata.sharding(INNER, List.of(new V3Codec.Zstd(2, false))),
                SKIPPED);
    }

    private static ZarrV3Array openV3(String url) {
        return ZarrV3Array.open(url, StoreOptions.empty());
    }

    private static void ok(CliRun r) {
        assertThat(r.code()).as(r.err()).isZero();
    }

    /** The input was refused before anything was written (exit 2) with one line containing {@code messagePart}. */
    private static void refused(CliRun r, String messagePart) {
        assertThat(r.code()).as(r.out()).isEqualTo(2);
        assertThat(r.err()).contains(messagePart);
        assertThat(r.err().strip()).doesNotContain("\n");
    }

    @Test
    void v3ToV3KeepsTheSourcesCodecsFillValueAndChunkKeys() {
        String src = url("src.zarr");
        ZarrV3Metadata m = ZarrV3Metadata.create(
                SHAPE,
                new int[] {3, 9},
                DType.INT32,
                Scalar.ofLong(-7),
                List.of(new V3Codec.Bytes(true), new V3Codec.Gzip(4), new V3Codec.Crc32c()),
                true,
                ".");
        ZarrV3Array a = ZarrV3Array.create(src, m, false, StoreOptions.empty());
        V3Arrays.write(a, Set.of(2L));
        String dst = url("dst.zarr");
        CliRun r = CliRun.of("copy", src, dst, "--threads", "2");
        ok(r);
        assertThat(r.out()).contains("copied 3 of 4 chunks").contains("to " + dst + " (Zarr v3)");
        ZarrV3Array b = openV3(dst);
        assertThat(b.metadata()).isEqualTo(m);
        assertThat(Files.exists(Path.of(dst, "3.0")))
                .as("v2 chunk keys with '.'")
                .isTrue();
        assertThat(b.chunkExists(2, 0)).isFalse();
        V3Arrays.assertValues(b, a.grid(), Set.of(2L), -7);
    }

    @Test
    void shardedV3ToV3StaysShardedShardForShard() {
        ZarrV3Array a = sharded("src.zarr");
        String dst = url("dst.zarr");
        ok(CliRun.of("copy", a.url(), dst));
        ZarrV3Array b = openV3(dst);
        assertThat(b.metadata()).isEqualTo(a.metadata());
        assertThat(b.innerGrid().chunkShape()).containsExactly(INNER);
        assertThat(b.writtenChunkCount()).isEqualTo(4);
        V3Arrays.assertValues(b, a.grid(), SKIPPED, -2.5);
        // Another codec compresses the inner chunks; the sharding stays.
        String gz = url("gzip.zarr");
        ok(CliRun.of("copy", a.url(), gz, "--codec", "gzip:5"));
        V3Codec.Sharding s = openV3(gz).metadata().shardingOnly();
        assertThat(s.chunkShape()).containsExactly(2, 3);
        assertThat(s.codecs()).containsExactly(new V3Codec.Bytes(false), new V3Codec.Gzip(5));
        V3Arrays.assertValues(openV3(gz), a.grid(), SKIPPED, -2.5);
        CliRun info = CliRun.of("info", gz);
        ok(info);
        assertThat(info.out()).contains("chunks:       [2, 3] (inner chunks)").contains("shards:       4 written of 6");
    }

    @Test
    void shardedV3ToV2TakesTheShardsAsChunksAndTheInnerCompressor() {
        ZarrV3Array a = sharded("src.zarr");
        String dst = url("v2.zarr");
        CliRun r = CliRun.of("copy", a.url(), dst, "--zarr-format", "2");
        ok(r);
        assertThat(r.out()).contains("copied 4 of 6 chunks").contains("(Zarr v2)");
        ZarrArray b = ZarrArray.open(dst);
        assertThat(b.metadata().chunks()).containsExactly(SHARD);
        assertThat(b.metadata().dtype()).isEqualTo(DType.FLOAT32);
        assertThat(b.metadata().compressor()).isEqualTo(new Compressor.Zstd(2, false));
        assertThat(b.metadata().fillValue().doubleValue()).isEqualTo(-2.5);
        assertThat(Files.exists(Path.of(dst, "zarr.json"))).isFalse();
        V3Arrays.assertValues(b, a.grid(), SKIPPED, -2.5);
        // With --codec zlib, which only v2 has.
        ok(CliRun.of("copy", a.url(), url("zlib.zarr"), "--zarr-format", "2", "--codec", "zlib:2"));
        assertThat(ZarrArray.open(url("zlib.zarr")).metadata().compressor()).isEqualTo(new Compressor.Zlib(2));
        V3Arrays.assertValues(ZarrArray.open(url("zlib.zarr")), a.grid(), SKIPPED, -2.5);
    }

    @Test
    void v2ToV3StoresBytesThenTheSourcesCompressor() {
        String src = url("v2.zarr");
        ZarrArray a = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(SHAPE, new int[] {5, 5}, DType.FLOAT64)
                        .fillValue(Scalar.ofDouble(Double.NaN))
                        .build());
        V3Arrays.write(a, Set.of(3L));
        String dst = url("v3.zarr");
        CliRun r = CliRun.of("copy", src, dst, "--zarr-format", "3");
        ok(r);
        assertThat(r.out()).contains("copied 3 of 4 chunks").contains("(Zarr v3)");
        ZarrV3Array b = openV3(dst);
        // Cubed's default v2 compressor, Blosc LZ4 with byte shuffle at level 5, as a v3 codec of 8-byte elements.
        assertThat(b.metadata().codecs())
                .containsExactly(
                        new V3Codec.Bytes(false), new V3Codec.Blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 8, 0));
        assertThat(b.metadata().chunks()).containsExactly(5, 5);
        assertThat(b.fillValue().doubleValue()).isNaN();
        assertThat(Files.exists(Path.of(dst, "c", "0", "1")))
                .as("default chunk keys")
                .isTrue();
        V3Arrays.assertValues(b, a.grid(), Set.of(3L), Double.NaN);
    }

    @Test
    void aCompressorV3LacksIsRefusedBeforeAnythingIsWritten() {
        String src = url("lz4.zarr");
        ZarrArray a = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(SHAPE, new int[] {5, 5}, DType.INT32)
                        .compressor(new Compressor.Lz4(1))
                        .build());
        V3Arrays.write(a, Set.of());
        String dst = url("dst.zarr");
        refused(
                CliRun.of("copy", src, dst, "--zarr-format", "3"),
                "cannot copy " + src + " to " + dst + " as Zarr v3: the lz4 compressor has no Zarr v3 codec");
        refused(CliRun.of("copy", src, dst, "--zarr-format", "3"), "choose a compressor with --codec");
        refused(CliRun.of("copy", sharded("v3.zarr").url(), dst, "--codec", "bz2"), "the bz2 compressor has no Zarr");
        refused(CliRun.of("copy", src, dst, "--zarr-format", "4"), "--zarr-format must be 2 or 3, got 4");
        assertThat(Path.of(dst)).doesNotExist();
        ok(CliRun.of("copy", src, dst, "--zarr-format", "3", "--codec", "zstd:2"));
        assertThat(openV3(dst).metadata().codecs())
                .containsExactly(new V3Codec.Bytes(false), new V3Codec.Zstd(2, false));
        V3Arrays.assertValues(openV3(dst), a.grid(), Set.of(), 0);
    }

    @Test
    void otherChunksAndDtypeOfAShardedSourceKeepItsInnerChunks() {
        ZarrV3Array a = sharded("src.zarr");
        String dst = url("wide.zarr");
        CliRun r = CliRun.of(
                "copy",
                a.url(),
                dst,
                "--chunks",
                "6,-1",
                "--dtype",
                "float64",
                "--threads",
                "2",
                "--work-dir",
                url("work"));
        ok(r);
        assertThat(r.out()).contains("to " + dst + " float64 in chunks [6, 9] (Zarr v3)");
        ZarrV3Array b = openV3(dst);
        assertThat(b.grid().chunkShape()).containsExactly(6, 9);
        assertThat(b.innerGrid().chunkShape()).containsExactly(INNER);
        assertThat(b.dtype()).isEqualTo(DType.FLOAT64);
        assertThat(b.fillValue().doubleValue()).isEqualTo(-2.5);
        V3Arrays.assertValues(b, a.grid(), SKIPPED, -2.5);

        // Shards that are not a multiple of the inner chunks: refused before anything is written.
        String bad = url("bad.zarr");
        refused(
                CliRun.of("copy", a.url(), bad, "--chunks", "5,9", "--work-dir", url("work")),
                "must be multiples of the inner chunks [2, 3]");
        assertThat(Path.of(bad)).doesNotExist();
        // As v2 those chunks are fine.
        String v2 = url("v2.zarr");
        ok(CliRun.of("copy", a.url(), v2, "--chunks", "5,9", "--zarr-format", "2", "--work-dir", url("work")));
        ZarrArray c = ZarrArray.open(v2);
        assertThat(c.metadata().chunks()).containsExactly(5, 9);
        assertThat(c.metadata().compressor()).isEqualTo(new Compressor.Zstd(2, false));
        V3Arrays.assertValues(c, a.grid(), SKIPPED, -2.5);
    }

    @Test
    void resumingAV3CopyCopiesTheMissingShardsOnlyOntoTheArrayItWouldCreate() throws Exception {
        ZarrV3Array a = sharded("src.zarr");
        String dst = url("dst.zarr");
        ok(CliRun.of("copy", a.url(), dst));
        Files.delete(Path.of(dst, "c", "2", "1"));
        CliRun resumed = CliRun.of("copy", a.url(), dst, "--resume");
        ok(resumed);
        assertThat(resumed.out()).contains("copied 1 of 6 chunks").contains("tasks: 1 run, 3 skipped");
        V3Arrays.assertValues(openV3(dst), a.grid(), SKIPPED, -2.5);
        CliRun other = CliRun.of("copy", a.url(), dst, "--codec", "gzip:1", "--resume");
        refused(other, "cannot resume the copy to " + dst + ": the array there is ZarrV3Metadata{");
        assertThat(other.err())
                .contains("{name=zstd, configuration={level=2")
                .contains("{name=gzip, configuration={level=1}}");
        CliRun v2 = CliRun.of("copy", a.url(), dst, "--zarr-format", "2", "--resume");
        refused(v2, "this copy writes ZarrV2Metadata");
        // Without --resume or --overwrite the array there stays; with --overwrite it is replaced, here by v2.
        refused(CliRun.of("copy", a.url(), dst, "--zarr-format", "2"), "already holds a Zarr array");
        ok(CliRun.of("copy", a.url(), dst, "--zarr-format", "2", "--overwrite"));
        assertThat(Zarr.open(dst, StoreOptions.empty())).isInstanceOf(ZarrArray.class);
        assertThat(Files.exists(Path.of(dst, "zarr.json"))).isFalse();
        V3Arrays.assertValues(ZarrArray.open(dst), a.grid(), SKIPPED, -2.5);
    }

    /**
     * A v3 array written by the fixtures' generator (Python, following the v3 specification) copied to v2 and back to
     * v3: every element equals the generator's expected values.
     */
    @Test
    void aPythonWrittenShardedFixtureCopiesToV2AndBack() throws Exception {
        Path root = Path.of("..", "cubed-api", "src", "test", "resources", "zarr3-fixtures");
        // Maven runs the module's tests in jobs/, beside cubed-api/ in the same checkout: the fixtures are always
        // there.
        assertThat(root.resolve("arrays/shard_blosc_crc_inner"))
                .as("the v3 fixtures of cubed-api")
                .isDirectory();
        String src = root.resolve("arrays/shard_blosc_crc_inner").toString();
        byte[] expected = Files.readAllBytes(root.resolve("expected/shard_blosc_crc_inner.bin"));
        String v2 = url("v2.zarr");
        String v3 = url("v3.zarr");
        ok(CliRun.of("copy", src, v2, "--zarr-format", "2"));
        ok(CliRun.of("copy", v2, v3, "--zarr-format", "3"));
        ChunkGrid g = openV3(src).grid();
        assertThat(openV3(v3).metadata().chunks()).containsExactly(g.chunkShape());
        for (io.cubed.storage.ChunkStore copy : List.of(ZarrArray.open(v2), openV3(v3))) {
            assertThat(copy.dtype()).isEqualTo(DType.FLOAT32);
            Chunk all = copy.readRegion(new long[2], new int[] {(int) g.shape()[0], (int) g.shape()[1]});
            ByteBuffer want = ByteBuffer.wrap(expected).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(expected.length).isEqualTo(all.floats().length * 4);
            for (int k = 0; k < all.floats().length; k++) {
                assertThat(Float.valueOf(all.floats()[k]))
                        .as("element %d of %s", k, copy.url())
                        .isEqualTo(Float.valueOf(want.getFloat(4 * k)));
            }
        }
    }

    /**
     * A copy of fewer chunks than threads codes each chunk's Blosc blocks on the idle threads: one 4 MB chunk (several
     * blocks) copied with 4 threads to Blosc-Zstandard and to Blosc-LZ4 holds every value.
     */
    @Test
    void aCopyOfFewerChunksThanThreadsSplitsEachChunksBlocks() {
        String src = tmp.resolve("one-chunk.zarr").toString();
        ZarrArray a = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(new long[] {512, 1024}, new int[] {512, 1024}, DType.FLOAT64)
                        .build());
        Chunk c = Chunk.allocate(DType.FLOAT64, 512, 1024);
        for (int i = 0; i < c.doubles().length; i++) {
            c.doubles()[i] = 280 + Math.sin(i / 700.0) + (i % 13) * 1e-3;
        }
        a.writeChunk(c, 0, 0);
        for (String codec : List.of("blosc:zstd:1:1", "blosc:lz4:5:1")) {
            String dst = tmp.resolve("one-" + codec.replace(':', '-') + ".zarr").toString();
            ok(CliRun.of("copy", src, dst, "--codec", codec, "--threads", "4"));
            assertThat(ZarrArray.open(dst).readChunk(0, 0).doubles()).as(codec).isEqualTo(c.doubles());
        }
    }
}
