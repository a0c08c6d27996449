package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.Store;
import io.cubed.storage.fs.Stores;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ZarrArrayTest {
    @TempDir
    Path tmp;

    private static String memoryUrl() {
        return "memory://zarr-array-test-" + UUID.randomUUID() + "/a.zarr";
    }

    /** The reference value of element {@code flat} of a test array, as a chunk element of {@code dtype}. */
    static void setReference(Chunk c, int dst, long flat) {
        switch (c.dtype()) {
            case BOOL -> c.booleans()[dst] = flat % 3 == 0;
            case INT8, UINT8 -> c.bytes()[dst] = (byte) (flat * 7 - 100);
            case INT16, UINT16 -> c.shorts()[dst] = (short) (flat * 301 - 20000);
            case INT32, UINT32 -> c.ints()[dst] = (int) (flat * 1_000_003L - 7);
            case INT64, UINT64 -> c.longs()[dst] = flat * 1_000_000_007L - (1L << 62);
            case FLOAT32 -> c.floats()[dst] = flat * 0.5f - 3;
            case FLOAT64 -> c.doubles()[dst] = flat / 3.0 - 2;
            case COMPLEX64 -> {
                c.floats()[2 * dst] = flat;
                c.floats()[2 * dst + 1] = -flat * 0.25f;
            }
            case COMPLEX128 -> {
                c.doubles()[2 * dst] = flat * 1.5;
                c.doubles()[2 * dst + 1] = 1.0 / (flat + 1);
            }
        }
    }

    /** The reference box of an array of {@code shape} at {@code offset}, filled by a plain loop. */
    static Chunk reference(DType dtype, long[] shape, long[] offset, int[] box) {
        Chunk c = Chunk.allocate(dtype, box);
        int[] idx = new int[box.length];
        for (int i = 0; i < c.size(); i++) {
            long flat = 0;
            for (int a = 0; a < box.length; a++) {
                flat = flat * shape[a] + offset[a] + idx[a];
            }
            setReference(c, i, flat);
            for (int a = box.length - 1; a >= 0; a--) {
                if (++idx[a] < box[a]) {
                    break;
                }
                idx[a] = 0;
            }
        }
        return c;
    }

    static void writeAll(ZarrArray a) {
        ChunkGrid g = a.grid();
        long[] shape = g.shape();
        for (long i = 0; i < g.numChunks(); i++) {
            long[] coords = g.chunkCoordsOf(i);
            a.writeChunk(reference(a.dtype(), shape, g.chunkOffset(coords), g.chunkShapeAt(coords)), coords);
        }
    }

    @ParameterizedTest
    @EnumSource(DType.class)
    void everyDtypeRoundTripsWithEdgeChunks(DType dtype) {
        long[] shape = {7, 5};
        ZarrArray a = ZarrArray.create(
                memoryUrl(),
                ZarrCreateOptions.builder(shape, new int[] {3, 2}, dtype)
                        .compressor(new Compressor.Zlib(1))
                        .build());
        writeAll(a);
        ZarrArray b = ZarrArray.open(a.url());
        assertThat(b.dtype()).isEqualTo(dtype);
        for (long i = 0; i < b.grid().numChunks(); i++) {
            long[] c = b.grid().chunkCoordsOf(i);
            Chunk expected =
                    reference(dtype, shape, b.grid().chunkOffset(c), b.grid().chunkShapeAt(c));
            assertThat(b.readChunk(c).contentEquals(expected)).as("chunk %d", i).isTrue();
        }
        Chunk all = b.readRegion(new long[] {0, 0}, new int[] {7, 5});
        assertThat(all.contentEquals(reference(dtype, shape, new long[2], new int[] {7, 5})))
                .isTrue();
        Chunk middle = b.readRegion(new long[] {2, 1}, new int[] {4, 3});
        assertThat(middle.contentEquals(reference(dtype, shape, new long[] {2, 1}, new int[] {4, 3})))
                .isTrue();
    }

    @Test
    void chunksReadToGiveBackReuseOneArrayInsideARecyclerScopeAndNewOnesOutside() {
        long[] shape = {64, 48};
        ZarrArray a = ZarrArray.create(
                memoryUrl(),
                ZarrCreateOptions.builder(shape, new int[] {32, 16}, DType.FLOAT64)
                        .compressor(Compressor.parseSpec("blosc:lz4:5:shuffle"))
                        .build());
        writeAll(a);
        ZarrArray b = ZarrArray.open(a.url());
        ChunkGrid g = b.grid();
        java.util.List<Object> arrays = new java.util.ArrayList<>();
        try (ArrayRecycler.Scope scope = ArrayRecycler.open("read-to-give-back", 1 << 20)) {
            for (long i = 0; i < g.numChunks(); i++) {
                long[] c = g.chunkCoordsOf(i);
                Chunk read = b.readChunkIfStoredToGiveBack(c);
                assertThat(read.contentEquals(reference(DType.FLOAT64, shape, g.chunkOffset(c), g.chunkShapeAt(c))))
                        .as("chunk %d", i)
                        .isTrue();
                arrays.add(read.data());
                ArrayRecycler.giveBack(read.data());
            }
        }
        // One array served every chunk (the tests poison recycled arrays, so a value left over would show above).
        assertThat(arrays).allSatisfy(x -> assertThat(x).isSameAs(arrays.get(0)));
        Chunk outside1 = b.readChunkIfStoredToGiveBack(0, 0);
        Chunk outside2 = b.readChunkIfStoredToGiveBack(0, 0);
        assertThat(outside1.data()).isNotSameAs(outside2.data()).isNotSameAs(arrays.get(0));
        assertThat(outside1.contentEquals(outside2)).isTrue();
    }

    @Test
    void missingChunksReadAsTheFillValue() {
        ZarrArray a = ZarrArray.create(
                memoryUrl(),
                ZarrCreateOptions.builder(new long[] {4, 4}, new int[] {2, 2}, DType.FLOAT64)
                        .fillValue(Scalar.ofDouble(Double.NaN))
                        .compressor(null)
                        .build());
        a.writeChunk(Chunk.full(DType.FLOAT64, Scalar.ofDouble(1), 2, 2), 0, 0);
        assertThat(a.chunkExists(0, 0)).isTrue();
        assertThat(a.chunkExists(1, 1)).isFalse();
        Chunk region = a.readRegion(new long[] {1, 1}, new int[] {2, 2});
        assertThat(region.doubles()[0]).isEqualTo(1.0);
        assertThat(region.doubles()[1]).isNaN();
        assertThat(region.doubles()[2]).isNaN();
        assertThat(region.doubles()[3]).isNaN();
    }

    @Test
    void edgeChunksAreStoredFullSizePaddedWithTheFillValue() {
        String url = tmp.resolve("edge.zarr").toString();
        ZarrArray a = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {3}, new int[] {2}, DType.INT16)
                        .fillValue(Scalar.ofLong(-9))
                        .compressor(null)
                        .build());
        a.writeChunk(Chunk.wrap(DType.INT16, new int[] {1}, new short[] {5}), 1);
        byte[] stored = Stores.open(url).get("1");
        assertThat(stored).containsExactly(5, 0, -9, -1);
        assertThat(a.readChunk(1).shorts()).containsExactly((short) 5);
    }

    @Test
    void writeEmptyChunksFalseSkipsAndDeletesFillChunks() {
        ZarrArray a = ZarrArray.create(
                        memoryUrl(),
                        ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.INT32)
                                .build())
                .writeEmptyChunks(false);
        a.writeChunk(Chunk.wrap(DType.INT32, new int[] {2}, new int[] {1, 2}), 0);
        assertThat(a.chunkExists(0)).isTrue();
        a.writeChunk(Chunk.allocate(DType.INT32, 2), 0);
        a.writeChunk(Chunk.allocate(DType.INT32, 2), 1);
        assertThat(a.chunkExists(0)).isFalse();
        assertThat(a.chunkExists(1)).isFalse();
        assertThat(a.readChunk(0).ints()).containsExactly(0, 0);
        ZarrArray always = a.writeEmptyChunks(true);
        always.writeChunk(Chunk.allocate(DType.INT32, 2), 1);
        assertThat(always.chunkExists(1)).isTrue();
    }

    @Test
    void anArrayWithEveryChunkStoredReadsAMissingChunkAsAnError() throws Exception {
        String url = memoryUrl();
        ZarrArray a = ZarrArray.create(
                        url,
                        ZarrCreateOptions.builder(new long[] {6}, new int[] {2}, DType.INT32)
                                .build())
                .writeEmptyChunks(false)
                .everyChunkStored();
        assertThat(a.isEveryChunkStored()).isTrue();
        // Chunks of fill values are stored too, and read back.
        a.writeChunk(Chunk.allocate(DType.INT32, 2), 0);
        a.writeChunk(Chunk.wrap(DType.INT32, new int[] {2}, new int[] {3, 4}), 1);
        a.writeChunk(Chunk.wrap(DType.INT32, new int[] {2}, new int[] {5, 6}), 2);
        assertThat(a.chunkExists(0)).isTrue();
        assertThat(a.readChunk(0).ints()).containsExactly(0, 0);
        assertThat(a.readRegion(new long[] {1}, new int[] {4}).ints()).containsExactly(0, 3, 4, 5);
        assertThatThrownBy(() -> a.writeEmptyChunks(false))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(url);
        // The flag travels with the array to the JVM that runs a task.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(a);
        }
        ZarrArray shipped;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            shipped = (ZarrArray) in.readObject();
        }
        assertThat(a.deleteChunk(1)).isTrue();
        for (ZarrArray reader : List.of(a, shipped)) {
            assertThatThrownBy(() -> reader.readChunk(1))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("chunk")
                    .hasMessageContaining(url)
                    .hasMessageContaining("is missing");
            assertThatThrownBy(() -> reader.readRegion(new long[] {1}, new int[] {2}))
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining("is missing");
        }
        // The same array opened plainly reads the missing chunk as fill values, as Zarr does.
        assertThat(ZarrArray.open(url).readChunk(1).ints()).containsExactly(0, 0);
    }

    @Test
    void zeroDimensionalArrayUsesKeyZero() {
        String url = memoryUrl();
        ZarrArray a = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[0], new int[0], DType.FLOAT32)
                        .build());
        a.writeChunk(Chunk.wrap(DType.FLOAT32, new int[0], new float[] {2.5f}));
        assertThat(Stores.open(url).exists("0")).isTrue();
        assertThat(ZarrArray.open(url).readChunk().floats()).containsExactly(2.5f);
    }

    @Test
    void zeroLengthDimensionHasNoChunks() {
        ZarrArray a = ZarrArray.create(
                memoryUrl(),
                ZarrCreateOptions.builder(new long[] {0, 3}, new int[] {2, 3}, DType.UINT8)
                        .build());
        assertThat(a.grid().numChunks()).isZero();
        assertThat(a.readRegion(new long[] {0, 0}, new int[] {0, 3}).size()).isZero();
    }

    @Test
    void nestedSeparatorWritesSlashKeys() {
        String url = tmp.resolve("nested.zarr").toString();
        ZarrArray a = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {4, 4}, new int[] {2, 2}, DType.INT8)
                        .dimensionSeparator("/")
                        .build());
        writeAll(a);
        assertThat(Files.isRegularFile(tmp.resolve("nested.zarr/1/0"))).isTrue();
        assertThat(ZarrArray.open(url).readChunk(1, 0).contentEquals(a.readChunk(1, 0)))
                .isTrue();
    }

    @Test
    void readsFortranOrderBigEndianChunks() {
        String url = memoryUrl();
        Store s = Stores.open(url);
        s.put(
                ".zarray",
                ("{\"zarr_format\": 2, \"shape\": [2, 3], \"chunks\": [2, 3], \"dtype\": \">i4\", "
                                + "\"compressor\": null, \"fill_value\": 0, \"order\": \"F\", \"filters\": null}")
                        .getBytes(StandardCharsets.UTF_8));
        // Logical array [[0, 1, 2], [10, 11, 12]] stored column by column, big-endian.
        ByteBuffer b = ByteBuffer.allocate(24).order(ByteOrder.BIG_ENDIAN);
        for (int v : new int[] {0, 10, 1, 11, 2, 12}) {
            b.putInt(v);
        }
        s.put("0.0", b.array());
        ZarrArray a = ZarrArray.open(url);
        assertThat(a.readChunk(0, 0).ints()).containsExactly(0, 1, 2, 10, 11, 12);
        // Writing keeps the array's own layout: F order, big-endian.
        a.writeChunk(Chunk.wrap(DType.INT32, new int[] {2, 3}, new int[] {0, 1, 2, 10, 11, 12}), 0, 0);
        assertThat(s.get("0.0")).isEqualTo(b.array());
    }

    @Test
    void metadataIsWrittenAsZarrPythonWritesIt() {
        String url = memoryUrl();
        ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {10}, new int[] {4}, DType.FLOAT64)
                        .compressor(new Compressor.Zlib(1))
                        .fillValue(Scalar.ofDouble(Double.NaN))
                        .build());
        String json = new String(Stores.open(url).get(".zarray"), StandardCharsets.UTF_8);
        assertThat(json)
                .isEqualTo("{\n    \"chunks\": [\n        4\n    ],\n    \"compressor\": {\n        \"id\": \"zlib\",\n"
                        + "        \"level\": 1\n    },\n    \"dimension_separator\": \".\",\n    \"dtype\": \"<f8\",\n"
                        + "    \"fill_value\": \"NaN\",\n    \"filters\": null,\n    \"order\": \"C\",\n"
                        + "    \"shape\": [\n        10\n    ],\n    \"zarr_format\": 2\n}\n");
    }

    @Test
    void refusesToReplaceAnExistingArrayUnlessOverwrite() {
        String url = memoryUrl();
        ZarrCreateOptions.Builder opts = ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.INT8);
        ZarrArray a = ZarrArray.create(url, opts.build());
        a.writeChunk(Chunk.full(DType.INT8, Scalar.ofLong(3), 2), 0);
        assertThatThrownBy(() -> ZarrArray.create(url, opts.build()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(url)
                .hasMessageContaining("already exists");
        ZarrArray b = ZarrArray.create(url, opts.overwrite(true).build());
        assertThat(b.chunkExists(0)).as("old chunks are gone").isFalse();
    }

    @Test
    void badChunkWritesAreRefusedWithNames() {
        ZarrArray a = ZarrArray.create(
                memoryUrl(),
                ZarrCreateOptions.builder(new long[] {5}, new int[] {2}, DType.INT32)
                        .build());
        assertThatThrownBy(() -> a.writeChunk(Chunk.allocate(DType.INT32, 2), 2))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("a.zarr/2")
                .hasMessageContaining("[1]");
        assertThatThrownBy(() -> a.writeChunk(Chunk.allocate(DType.INT64, 2), 0))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("int64")
                .hasMessageContaining("int32 array");
        assertThatThrownBy(() -> a.readChunk(3)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void missingOrMalformedMetadataIsAStorageExceptionNamingTheUrl() {
        String url = memoryUrl();
        assertThatThrownBy(() -> ZarrArray.open(url))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(url + "/.zarray is missing");
        Store s = Stores.open(url);
        s.put(".zarray", "{\"zarr_format\": 2, \"shape\": [4".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> ZarrArray.open(url))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("malformed JSON in " + url + "/.zarray");
        s.put(
                ".zarray",
                "{\"zarr_format\": 2, \"shape\": [4, 4], \"chunks\": [2], \"dtype\": \"<f8\"}"
                        .getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> ZarrArray.open(url))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("rank");
        s.put(
                ".zarray",
                "{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [2], \"dtype\": \"<M8[ns]\"}"
                        .getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> ZarrArray.open(url))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("unsupported dtype '<M8[ns]'");
        s.put(
                ".zarray",
                ("{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [2], \"dtype\": \"<f8\", "
                                + "\"filters\": [{\"id\": \"delta\", \"dtype\": \"<f8\"}]}")
                        .getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> ZarrArray.open(url))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("unsupported filters");
        s.put(
                ".zarray",
                "{\"zarr_format\": 3, \"shape\": [4], \"chunks\": [2], \"dtype\": \"<f8\"}"
                        .getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> ZarrArray.open(url))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("zarr_format 3");
    }

    @Test
    void corruptChunksNameUrlAndKey() {
        String url = memoryUrl();
        ZarrArray raw = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {4}, new int[] {4}, DType.FLOAT64)
                        .compressor(null)
                        .build());
        Stores.open(url).put("0", new byte[10]);
        assertThatThrownBy(() -> raw.readChunk(0))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("corrupt chunk " + url + "/0")
                .hasMessageContaining("10 bytes")
                .hasMessageContaining("32");
        String url2 = memoryUrl();
        ZarrArray zlib = ZarrArray.create(
                url2,
                ZarrCreateOptions.builder(new long[] {4}, new int[] {4}, DType.FLOAT64)
                        .compressor(new Compressor.Zlib(1))
                        .build());
        Stores.open(url2).put("0", "not zlib at all".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> zlib.readChunk(0))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("corrupt chunk " + url2 + "/0");
    }

    @Test
    void serializedArrayReadsTheSameData() throws Exception {
        ZarrArray a = ZarrArray.create(
                memoryUrl(),
                ZarrCreateOptions.builder(new long[] {6}, new int[] {4}, DType.COMPLEX128)
                        .compressor(new Compressor.Zstd(1, false))
                        .build());
        writeAll(a);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(a);
        }
        ZarrArray back;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            back = (ZarrArray) in.readObject();
        }
        assertThat(back.metadata()).isEqualTo(a.metadata());
        assertThat(back.readChunk(1).contentEquals(a.readChunk(1))).isTrue();
    }

    @Test
    void groupsHoldArraysAndAttributes() {
        String url = memoryUrl();
        ZarrGroup g = ZarrGroup.create(url, io.cubed.storage.StoreOptions.empty());
        g.writeAttributes(Map.of("title", "test", "levels", List.of(1L, 2L)));
        g.createArray(
                "temp",
                ZarrCreateOptions.builder(new long[] {2}, new int[] {2}, DType.FLOAT32)
                        .build());
        g.createGroup("sub");
        ZarrGroup reopened = ZarrGroup.open(url, io.cubed.storage.StoreOptions.empty());
        assertThat(reopened.arrayNames()).containsExactly("temp");
        assertThat(reopened.groupNames()).containsExactly("sub");
        assertThat(reopened.attributes()).containsEntry("title", "test").containsEntry("levels", List.of(1L, 2L));
        assertThatThrownBy(() -> ZarrArray.open(url))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("it is a Zarr group");
    }
}
