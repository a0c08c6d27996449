package io.cubed.storage.zarr;

import static io.cubed.storage.zarr.ZarrTestValues.assertSameValues;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.array.ComputeOptions;
import io.cubed.array.CubedArray;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.ChunkStores;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.blosc.BloscCname;
import io.cubed.storage.zarr.blosc.BloscShuffle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Round trips of Cubed's own Zarr v3 writes, ranged shard reads, groups, version detection and sharded toZarr. */
class ZarrV3ArrayTest {
    @TempDir
    Path tmp;

    static Stream<Named<List<V3Codec>>> chains() {
        V3Codec.Sharding nested = new V3Codec.Sharding(
                List.of(4, 3),
                ZarrV3Metadata.sharding(new int[] {2, 3}, List.of(new V3Codec.Gzip(1))),
                List.of(new V3Codec.Bytes(true), new V3Codec.Crc32c()),
                false);
        return Stream.of(
                Named.of("default", ZarrV3Metadata.defaultCodecs()),
                Named.of(
                        "transpose big gzip crc",
                        List.of(
                                new V3Codec.Transpose(List.of(1, 0)),
                                new V3Codec.Bytes(true),
                                new V3Codec.Gzip(3),
                                new V3Codec.Crc32c())),
                Named.of(
                        "blosc bitshuffle",
                        List.of(
                                new V3Codec.Bytes(false),
                                new V3Codec.Blosc(BloscCname.ZSTD, 3, BloscShuffle.BITSHUFFLE, 8, 0))),
                Named.of(
                        "sharded end zstd",
                        ZarrV3Metadata.sharding(new int[] {2, 3}, List.of(new V3Codec.Zstd(1, true)))),
                Named.of(
                        "sharded start, index crc",
                        List.of(new V3Codec.Sharding(
                                List.of(4, 1),
                                List.of(new V3Codec.Bytes(false)),
                                List.of(new V3Codec.Bytes(false), new V3Codec.Crc32c()),
                                false))),
                Named.of("nested sharding", List.of(nested)),
                Named.of(
                        "sharded then gzip",
                        List.of(
                                ZarrV3Metadata.sharding(new int[] {2, 2}, List.of())
                                        .get(0),
                                new V3Codec.Gzip(1))));
    }

    static Chunk values(DType dtype, int rows, int cols) {
        Chunk c = Chunk.allocate(dtype, rows, cols);
        for (int i = 0; i < rows * cols; i++) {
            switch (dtype) {
                case FLOAT64 -> c.doubles()[i] = i % 5 == 0 ? 0 : i * 1.25 - 7;
                case INT32 -> c.ints()[i] = i % 5 == 0 ? 0 : i * 31 - 100;
                default -> throw new IllegalArgumentException();
            }
        }
        return c;
    }

    @ParameterizedTest
    @MethodSource("chains")
    void roundTrip(List<V3Codec> codecs) {
        for (DType dtype : List.of(DType.FLOAT64, DType.INT32)) {
            List<V3Codec> chain = codecs;
            if (dtype == DType.INT32 && codecs.get(codecs.size() - 1) instanceof V3Codec.Blosc) {
                chain = List.of(
                        new V3Codec.Bytes(false), new V3Codec.Blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 4, 0));
            }
            String url = tmp.resolve("rt-" + dtype + "-" + Math.abs(codecs.hashCode()))
                    .toString();
            ZarrV3Metadata m = ZarrV3Metadata.create(
                    new long[] {10, 13}, new int[] {4, 6}, dtype, Scalar.zero(), chain, true, "/");
            ZarrV3Array a = ZarrV3Array.create(url, m, false, StoreOptions.empty());
            Chunk data = values(dtype, 10, 13);
            ChunkGrid g = a.grid();
            for (long i = 0; i < g.numChunks(); i++) {
                long[] c = g.chunkCoordsOf(i);
                a.writeChunk(ZarrTestValues.region(data, g.chunkOffset(c), g.chunkShapeAt(c)), c);
            }
            ZarrV3Array back = ZarrV3Array.open(url, StoreOptions.empty());
            assertThat(back.metadata().toJson()).isEqualTo(m.toJson());
            assertSameValues(back.readRegion(new long[2], new int[] {10, 13}), data, "region " + dtype);
            assertSameValues(
                    ChunkStores.readRegion(back, new long[2], new int[] {10, 13}), data, "stored chunks " + dtype);
            assertThat(Files.exists(Path.of(url, "1/2")))
                    .as("v2 key encoding with '/'")
                    .isTrue();
        }
    }

    /**
     * A shard goes to a local file as its inner chunks are encoded, and to other stores (memory, object stores) as one
     * array: both give the same bytes, chunk by chunk, whole and edge, with inner chunks of the fill value left out of
     * the index; and both read back as written, with inner chunks decoded straight into the shard.
     */
    @ParameterizedTest
    @MethodSource("chains")
    void shardsStreamedToFilesAreTheBytesOfShardsEncodedWhole(List<V3Codec> codecs) throws IOException {
        for (DType dtype : List.of(DType.FLOAT64, DType.INT32)) {
            List<V3Codec> chain = codecs;
            if (dtype == DType.INT32 && codecs.get(codecs.size() - 1) instanceof V3Codec.Blosc) {
                chain = List.of(
                        new V3Codec.Bytes(false), new V3Codec.Blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 4, 0));
            }
            ZarrV3Metadata m = ZarrV3Metadata.create(
                    new long[] {10, 13}, new int[] {4, 6}, dtype, Scalar.zero(), chain, true, "/");
            String name = "same-" + dtype + "-" + Math.abs(codecs.hashCode());
            String file = tmp.resolve(name).toString();
            String memory = "memory://" + getClass().getSimpleName() + "-" + java.util.UUID.randomUUID() + "/" + name;
            ZarrV3Array local = ZarrV3Array.create(file, m, false, StoreOptions.empty());
            ZarrV3Array inMemory = ZarrV3Array.create(memory, m, false, StoreOptions.empty());
            Chunk data = values(dtype, 10, 13);
            // Blocks of fill values: an inner chunk of (2, 3) at the corner (empty in its shard), and the whole second
            // chunk (a shard not stored).
            for (int i = 0; i < 4; i++) {
                for (int j = 0; j < 12; j++) {
                    if (j >= 3 && j < 6 || i >= 2 && j < 6) {
                        continue;
                    }
                    if (dtype == DType.FLOAT64) {
                        data.doubles()[i * 13 + j] = 0;
                    } else {
                        data.ints()[i * 13 + j] = 0;
                    }
                }
            }
            ChunkGrid g = local.grid();
            io.cubed.storage.Store files = io.cubed.storage.fs.Stores.open(file, StoreOptions.empty());
            io.cubed.storage.Store memories = io.cubed.storage.fs.Stores.open(memory, StoreOptions.empty());
            for (long i = 0; i < g.numChunks(); i++) {
                long[] c = g.chunkCoordsOf(i);
                Chunk part = ZarrTestValues.region(data, g.chunkOffset(c), g.chunkShapeAt(c));
                local.writeChunk(part, c);
                inMemory.writeChunk(part, c);
                String key = m.chunkKey(c);
                assertThat(files.get(key)).as("chunk %s", key).isEqualTo(memories.get(key));
            }
            assertSameValues(
                    ChunkStores.readRegion(
                            ZarrV3Array.open(file, StoreOptions.empty()), new long[2], new int[] {10, 13}),
                    data,
                    "file " + dtype);
            assertSameValues(
                    ChunkStores.readRegion(
                            ZarrV3Array.open(memory, StoreOptions.empty()), new long[2], new int[] {10, 13}),
                    data,
                    "memory " + dtype);
        }
    }

    /**
     * A sharded array opened with chunks of whole inner chunks ({@code fromZarr(url, spec, chunks)}) is read by its
     * inner chunks with ranged reads, never a whole shard: 64 x 64 float64 in one shard of 8 x 8 inner chunks, seen in
     * chunks of (16, 64), four tasks each reading the shard's index and its 16 inner chunks.
     */
    @Test
    void shardedArraysOpenInChunksOfWholeInnerChunks() {
        String url = tmp.resolve("inner-view").toString();
        ZarrV3Metadata m = ZarrV3Metadata.create(
                new long[] {64, 64},
                new int[] {64, 64},
                DType.FLOAT64,
                Scalar.zero(),
                ZarrV3Metadata.sharding(new int[] {8, 8}, List.of()));
        Chunk data = Chunk.allocate(DType.FLOAT64, 64, 64);
        double expected = 0;
        for (int i = 0; i < 64 * 64; i++) {
            data.doubles()[i] = i * 0.5 + 1;
            expected += data.doubles()[i];
        }
        ZarrV3Array.create(url, m, false, StoreOptions.empty()).writeChunk(data, 0, 0);
        CountingStore counting = new CountingStore(io.cubed.storage.fs.Stores.open(url, StoreOptions.empty()));
        ZarrV3Array a = new ZarrV3Array(url, () -> counting, m);
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("inner-view-work").toString())
                .executor(new LocalExecutor(2, 1))
                .build();
        CubedArray x = CubedArray.of(
                io.cubed.plan.ArrayNode.source(io.cubed.storage.RegroupedChunkStore.of(a, new int[] {16, 64})), spec);
        assertThat(x.chunkShape()).containsExactly(16, 64);
        double sum = io.cubed.array.Statistical.sum(x).compute().doubles()[0];
        assertThat(sum).isEqualTo(expected);
        assertThat(counting.wholeGets.get()).as("whole-shard reads").isZero();
        // Each task: the index (64 entries of 16 bytes and a crc32c) and 16 inner chunks of 512 bytes.
        assertThat(counting.bytesRead.get()).isEqualTo(4 * (64 * 16 + 4 + 16 * 512L));
        assertSameValues(x.compute(), data, "inner-chunk view");
        // By URL, and in chunks of one inner chunk.
        assertSameValues(Cubed.fromZarr(url, spec, 8, 8).compute(), data, "fromZarr in inner chunks");
        assertThatThrownBy(() -> Cubed.fromZarr(url, spec, 12, 64))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("must be multiples of its inner chunks [8, 8] (axis 0), the inner chunks of its"
                        + " shards [64, 64]");
    }

    /**
     * A shard streamed to a local file that fails part-way (the disk full after one and a half inner chunks) leaves the
     * shard that was there, whole, and no temporary file; the error names the chunk.
     */
    @Test
    void aShardWriteThatFailsPartWayLeavesTheShardBefore() throws IOException {
        String url = tmp.resolve("failing-shard").toString();
        ZarrV3Metadata m = ZarrV3Metadata.create(
                new long[] {64, 64},
                new int[] {64, 64},
                DType.FLOAT64,
                Scalar.zero(),
                ZarrV3Metadata.sharding(new int[] {32, 32}, List.of()));
        Chunk before = values(DType.FLOAT64, 64, 64);
        ZarrV3Array.create(url, m, false, StoreOptions.empty()).writeChunk(before, 0, 0);
        io.cubed.storage.Store local = io.cubed.storage.fs.Stores.open(url, StoreOptions.empty());
        long limit = 32 * 32 * 8 * 3 / 2;
        io.cubed.storage.Store failing = new io.cubed.storage.ForwardingStore(local) {
            @Override
            public boolean putsInPieces() {
                return store.putsInPieces();
            }

            @Override
            public void put(String key, ValueWriter value) {
                store.put(
                        key,
                        out -> value.writeTo(new java.nio.channels.WritableByteChannel() {
                            private long written;

                            @Override
                            public int write(java.nio.ByteBuffer src) throws IOException {
                                if (written + src.remaining() > limit) {
                                    throw new IOException("No space left on device");
                                }
                                written += src.remaining();
                                return out.write(src);
                            }

                            @Override
                            public boolean isOpen() {
                                return out.isOpen();
                            }

                            @Override
                            public void close() {}
                        }));
            }
        };
        assertThat(failing.putsInPieces()).isTrue();
        ZarrV3Array a = new ZarrV3Array(url, () -> failing, m);
        Chunk after = Chunk.allocate(DType.FLOAT64, 64, 64);
        java.util.Arrays.fill(after.doubles(), 3.5);
        assertThatThrownBy(() -> a.writeChunk(after, 0, 0))
                .isInstanceOf(io.cubed.error.StorageException.class)
                .hasMessageContaining("c/0/0")
                .hasMessageContaining("No space left on device");
        assertSameValues(ZarrV3Array.open(url, StoreOptions.empty()).readChunk(0, 0), before, "the shard before");
        try (Stream<Path> files = Files.walk(Path.of(url))) {
            assertThat(files.filter(Files::isRegularFile)
                            .map(f -> Path.of(url).relativize(f).toString()))
                    .containsExactlyInAnyOrder("zarr.json", "c/0/0");
        }
    }

    @Test
    void allFillShardIsNotStoredAndEmptyInnerChunksAreNot() throws IOException {
        String url = tmp.resolve("sparse").toString();
        ZarrV3Metadata m = ZarrV3Metadata.create(
                new long[] {8},
                new int[] {4},
                DType.INT32,
                Scalar.ofLong(7),
                ZarrV3Metadata.sharding(new int[] {2}, List.of()));
        ZarrV3Array a = ZarrV3Array.create(url, m, false, StoreOptions.empty());
        a.writeChunk(Chunk.full(DType.INT32, Scalar.ofLong(7), 4), 0);
        assertThat(a.chunkExists(0)).isFalse();
        Chunk half = Chunk.full(DType.INT32, Scalar.ofLong(7), 4);
        half.ints()[3] = 1;
        a.writeChunk(half, 1);
        // One stored inner chunk of 8 bytes, the index (2 entries) and its crc32c.
        assertThat(Files.size(Path.of(url, "c", "1"))).isEqualTo(8 + 32 + 4);
        assertThat(a.readRegion(new long[] {0}, new int[] {8}).ints()).containsExactly(7, 7, 7, 7, 7, 7, 7, 1);
    }

    @Test
    void rangedInnerChunkReadsOnLocalStore() {
        ShardedRangedReads.check(tmp.resolve("ranged").toString(), StoreOptions.empty(), tmp.resolve("ranged-work"));
    }

    @Test
    void badWritesAndOptionsAreClearErrors() {
        assertThatThrownBy(() -> ZarrV3Metadata.create(
                        new long[] {8},
                        new int[] {4},
                        DType.INT32,
                        Scalar.zero(),
                        ZarrV3Metadata.sharding(new int[] {3}, List.of())))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("[3]")
                .hasMessageContaining("does not divide");
        String url = tmp.resolve("exists").toString();
        ZarrV3Metadata m = ZarrV3Metadata.create(
                new long[] {4}, new int[] {2}, DType.INT32, Scalar.zero(), ZarrV3Metadata.defaultCodecs());
        ZarrV3Array.create(url, m, false, StoreOptions.empty());
        assertThatThrownBy(() -> ZarrV3Array.create(url, m, false, StoreOptions.empty()))
                .hasMessageContaining(url)
                .hasMessageContaining("already exists");
    }

    @Test
    void v3GroupsWithAndWithoutConsolidatedMetadata() throws IOException {
        for (String name : List.of("v3group.zarr", "v3group_plain.zarr")) {
            ZarrV3Group g = ZarrV3Group.open(
                    ZarrV3FixturesTest.ROOT.resolve("groups/" + name).toString(), StoreOptions.empty());
            assertThat(g.isConsolidated()).isEqualTo(name.equals("v3group.zarr"));
            assertThat(g.attributes()).containsEntry("title", "fixture").containsEntry("version", 3L);
            assertThat(g.arrayNames()).containsExactly("temperature");
            assertThat(g.groupNames()).containsExactly("sub");
            ZarrV3Array t = g.openArray("temperature");
            assertThat(t.attributes()).containsEntry("units", "K");
            assertThat(t.fillValue().doubleValue()).isNaN();
            assertSameValues(
                    t.readRegion(new long[2], new int[] {4, 4}),
                    ZarrV3FixturesTest.expected("v3group_temperature", DType.FLOAT64, new int[] {4, 4}),
                    name + " temperature");
            assertThat(g.openArray("sub/counts")
                            .readRegion(new long[1], new int[] {5})
                            .ints()[2])
                    .isEqualTo(3);
            assertThat(g.openGroup("sub").attributes()).containsEntry("level", 2L);
        }
    }

    @Test
    void v3GroupWrittenAndConsolidatedByCubed() {
        String url = tmp.resolve("g.zarr").toString();
        ZarrV3Group g = ZarrV3Group.create(url, StoreOptions.empty()).writeAttributes(Map.of("k", "v"));
        ZarrV3Metadata m = ZarrV3Metadata.create(
                new long[] {3}, new int[] {3}, DType.INT32, Scalar.zero(), ZarrV3Metadata.defaultCodecs());
        ZarrV3Array x = g.createArray("x", m, false).writeAttributes(Map.of("a", 1L));
        x.writeChunk(Chunk.wrap(DType.INT32, new int[] {3}, new int[] {4, 5, 6}), 0);
        g.createGroup("inner").createArray("y", m, false);
        ZarrV3Group c = ZarrV3Group.open(url, StoreOptions.empty()).consolidate();
        assertThat(c.isConsolidated()).isTrue();
        assertThat(c.attributes()).containsEntry("k", "v");
        assertThat(c.arrayNames()).containsExactly("x");
        assertThat(c.groupNames()).containsExactly("inner");
        assertThat(c.openArray("x").attributes()).containsEntry("a", 1L);
        assertThat(c.openArray("x").readChunk(0).ints()).containsExactly(4, 5, 6);
        assertThat(c.openArray("inner/y").grid().shape()).containsExactly(3);
    }

    @Test
    void v2ConsolidatedGroupFromZarrPython() {
        String url = ZarrV3FixturesTest.ROOT.resolve("groups/v2group.zarr").toString();
        ZarrGroup g = ZarrGroup.open(url, StoreOptions.empty());
        assertThat(g.isConsolidated()).isTrue();
        assertThat(g.attributes()).containsEntry("title", "v2 fixture");
        assertThat(g.arrayNames()).containsExactly("a");
        assertThat(g.groupNames()).containsExactly("inner");
        ZarrArray a = g.openArray("a");
        assertThat(a.readRegion(new long[2], new int[] {4, 3}).ints())
                .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        assertThat(a.attributes()).containsEntry("note", "hello");
    }

    @Test
    void zarrOpenDetectsTheVersion() {
        ChunkStore v3 =
                Zarr.open(ZarrV3FixturesTest.ROOT.resolve("arrays/shard_end").toString(), StoreOptions.empty());
        assertThat(v3).isInstanceOf(ZarrV3Array.class);
        ChunkStore v2 = Zarr.open(
                ZarrV3FixturesTest.ROOT.resolve("groups/v2group.zarr/a").toString(), StoreOptions.empty());
        assertThat(v2).isInstanceOf(ZarrArray.class);
        String none = tmp.resolve("nothing").toString();
        assertThatThrownBy(() -> Zarr.open(none, StoreOptions.empty()))
                .hasMessageContaining(none)
                .hasMessageContaining("zarr.json");
    }

    @Test
    void toZarrShardedWritesOneTaskPerShard() {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
        CubedArray x = Cubed.fromZarr(
                ZarrV3FixturesTest.ROOT.resolve("arrays/shard_end").toString(), spec);
        assertThat(x.chunkShape()).containsExactly(4, 6);
        CubedArray y = io.cubed.array.Elementwise.negative(x);
        String out = tmp.resolve("out.zarr").toString();
        Map<String, AtomicInteger> tasks = new ConcurrentHashMap<>();
        Callback count = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                tasks.computeIfAbsent(String.valueOf(event.stage()), k -> new AtomicInteger())
                        .incrementAndGet();
            }
        };
        y.toZarr(
                out,
                ComputeOptions.builder().zarrFormat(ZarrFormat.v3Sharded(2, 3)).build(),
                count);
        ZarrV3Array written = ZarrV3Array.open(out, StoreOptions.empty());
        assertThat(written.grid().chunkShape()).containsExactly(4, 6);
        assertThat(written.innerGrid().chunkShape()).containsExactly(2, 3);
        // 3 x 2 shards, each written by exactly one task.
        assertThat(new ArrayList<>(tasks.values())
                        .stream().mapToInt(AtomicInteger::get).sum())
                .isEqualTo(6);
        Chunk in = ZarrV3FixturesTest.open("shard_end").readRegion(new long[2], new int[] {10, 9});
        Chunk got = written.readRegion(new long[2], new int[] {10, 9});
        for (int i = 0; i < 90; i++) {
            assertThat(Float.valueOf(got.floats()[i])).isEqualTo(Float.valueOf(-in.floats()[i]));
        }
        assertThatThrownBy(() -> y.toZarr(
                        tmp.resolve("bad.zarr").toString(),
                        ComputeOptions.builder()
                                .zarrFormat(ZarrFormat.v3Sharded(3, 3))
                                .build()))
                .hasMessageContaining("do not divide");
    }
}
