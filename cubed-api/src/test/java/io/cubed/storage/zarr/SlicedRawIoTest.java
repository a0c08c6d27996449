package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.CorruptDataException;
import io.cubed.storage.Store;
import io.cubed.storage.fs.Stores;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Uncompressed Zarr v2 chunks go to and from a local file a {@linkplain io.cubed.storage.DirectSlices slice} at a time
 * ({@code ChunkBytes.writeInSlices}, {@link SlicedRawReads}): the bytes stored are those an in-memory store (which
 * takes whole arrays) holds for the same chunks and those a hand-written little-endian encoding gives; reads into
 * boxes of other chunks, whose rows cross the slices' edges, give the values a reference formula gives, for every kind
 * of element, for big-endian chunks written by hand, at the array's edges; a truncated chunk is an error naming it, a
 * missing one reads as the fill value.
 */
class SlicedRawIoTest {
    @TempDir
    Path tmp;

    /** An array of {@code shape} in {@code chunks}, uncompressed, in a local directory or in memory. */
    private ZarrArray create(String url, DType dtype, long[] shape, int[] chunks) {
        return ZarrArray.create(
                url,
                ZarrCreateOptions.builder(shape, chunks, dtype).compressor(null).build());
    }

    /** Element {@code g} (its index in the whole array, C order) of the reference array. */
    private static void set(Chunk c, int flat, long g) {
        switch (c.dtype()) {
            case BOOL -> c.booleans()[flat] = g % 3 == 0;
            case UINT8, INT8 -> c.bytes()[flat] = (byte) (g * 5 + 1);
            case INT16, UINT16 -> c.shorts()[flat] = (short) (g * 7 - 3);
            case INT32, UINT32 -> c.ints()[flat] = (int) (g * 11 + 2);
            case INT64, UINT64 -> c.longs()[flat] = g * 1_000_003L - 9;
            case FLOAT32 -> c.floats()[flat] = g * 0.5f + 0.25f;
            case FLOAT64 -> c.doubles()[flat] = g * 0.5 + 0.25;
            case COMPLEX64 -> {
                c.floats()[2 * flat] = g;
                c.floats()[2 * flat + 1] = -g - 0.5f;
            }
            case COMPLEX128 -> {
                c.doubles()[2 * flat] = g;
                c.doubles()[2 * flat + 1] = -g - 0.5;
            }
        }
    }

    /** The chunk at {@code coords} of the reference array of {@code shape} in {@code chunks} (clipped at the edge). */
    private static Chunk reference(DType dtype, long[] shape, int[] chunks, long[] coords) {
        int nd = shape.length;
        int[] size = new int[nd];
        long[] origin = new long[nd];
        for (int i = 0; i < nd; i++) {
            origin[i] = coords[i] * chunks[i];
            size[i] = (int) Math.min(chunks[i], shape[i] - origin[i]);
        }
        Chunk c = Chunk.allocate(dtype, size);
        int[] idx = new int[nd];
        for (int flat = 0; flat < c.size(); flat++) {
            int rest = flat;
            for (int i = nd - 1; i >= 0; i--) {
                idx[i] = rest % size[i];
                rest /= size[i];
            }
            long g = 0;
            for (int i = 0; i < nd; i++) {
                g = g * shape[i] + origin[i] + idx[i];
            }
            set(c, flat, g);
        }
        return c;
    }

    private static void writeAll(ZarrArray a, long[] shape, int[] chunks) {
        long[] grid = {(shape[0] + chunks[0] - 1) / chunks[0], (shape[1] + chunks[1] - 1) / chunks[1]};
        for (long i = 0; i < grid[0]; i++) {
            for (long j = 0; j < grid[1]; j++) {
                a.writeChunk(reference(a.dtype(), shape, chunks, new long[] {i, j}), i, j);
            }
        }
    }

    @Test
    void slicedWritesStoreTheBytesWholeArraysGiveAndSlicedReadsGiveTheValuesBack() {
        // Chunks of 300 x 217 elements: 65,100 of them, a slice of 256 kB ends inside a row for every kind of element,
        // and the edge chunks (700 x 500 is not a multiple) are stored padded.
        long[] shape = {700, 500};
        int[] chunks = {300, 217};
        for (DType dtype : DType.values()) {
            String name = dtype.name().toLowerCase();
            ZarrArray local = create(tmp.resolve(name).toString(), dtype, shape, chunks);
            String memoryUrl = "memory://sliced-" + UUID.randomUUID() + "/" + name;
            ZarrArray memory = create(memoryUrl, dtype, shape, chunks);
            writeAll(local, shape, chunks);
            writeAll(memory, shape, chunks);
            Store file = Stores.open(tmp.resolve(name).toString());
            Store mem = Stores.open(memoryUrl);
            for (long i = 0; i < 3; i++) {
                for (long j = 0; j < 3; j++) {
                    String key = i + "." + j;
                    assertThat(file.get(key)).as("%s chunk %s", dtype, key).isEqualTo(mem.get(key));
                    Chunk back = ZarrArray.open(tmp.resolve(name).toString()).readChunk(i, j);
                    assertThat(back.contentEquals(reference(dtype, shape, chunks, new long[] {i, j})))
                            .as("%s chunk %s read back", dtype, key)
                            .isTrue();
                }
            }
        }
        // Independently of our encoders: the first chunk of the float64 array, element by element, little-endian.
        ByteBuffer expected = ByteBuffer.allocate(300 * 217 * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < 300; r++) {
            for (int c = 0; c < 217; c++) {
                expected.putDouble((r * 500L + c) * 0.5 + 0.25);
            }
        }
        assertThat(Stores.open(tmp.resolve("float64").toString()).get("0.0")).isEqualTo(expected.array());
    }

    @Test
    void edgeChunksAreStoredPaddedWithTheFillValue() throws IOException {
        // Padded into an array the writer may have had before (NaN or garbage under the tests' poisoning): the part
        // past the array's edge is the fill value, checked in the stored bytes themselves, twice over.
        Path dir = tmp.resolve("padded");
        long[] shape = {700, 500};
        int[] chunks = {300, 217};
        ZarrArray a = ZarrArray.create(
                dir.toString(),
                ZarrCreateOptions.builder(shape, chunks, DType.FLOAT64)
                        .compressor(null)
                        .fillValue(io.cubed.dtype.Scalar.ofDouble(7.5))
                        .build());
        for (int round = 0; round < 2; round++) {
            a.writeChunk(reference(DType.FLOAT64, shape, chunks, new long[] {2, 2}), 2, 2);
            a.writeChunk(reference(DType.FLOAT64, shape, chunks, new long[] {2, 1}), 2, 1);
            ByteBuffer stored =
                    ByteBuffer.wrap(Files.readAllBytes(dir.resolve("2.2"))).order(ByteOrder.LITTLE_ENDIAN);
            for (int r = 0; r < 300; r++) {
                for (int c = 0; c < 217; c++) {
                    double expected = r < 100 && c < 66 ? (600L + r) * 500 + 434 + c : -1;
                    double v = stored.getDouble((r * 217 + c) * 8);
                    if (expected >= 0) {
                        assertThat(v).isEqualTo(expected * 0.5 + 0.25);
                    } else {
                        assertThat(v).as("padding at (%d, %d)", r, c).isEqualTo(7.5);
                    }
                }
            }
        }
    }

    @Test
    void readsIntoBoxesOfOtherChunksGiveTheReferenceValues() {
        // 3-d float64 and int16 arrays; each stored chunk is read into the boxes of several target chunks of another
        // grid that it overlaps, rows of 64 and 45 elements crossing the slices' edges.
        long[] shape = {40, 90, 70};
        int[] chunks = {16, 45, 64};
        int[] targetChunks = {10, 30, 25};
        for (DType dtype : new DType[] {DType.FLOAT64, DType.INT16, DType.COMPLEX128, DType.BOOL}) {
            String url = tmp.resolve("box-" + dtype.name().toLowerCase()).toString();
            ZarrArray a = create(url, dtype, shape, chunks);
            for (long i = 0; i < 3; i++) {
                for (long j = 0; j < 2; j++) {
                    for (long k = 0; k < 2; k++) {
                        a.writeChunk(reference(dtype, shape, chunks, new long[] {i, j, k}), i, j, k);
                    }
                }
            }
            ZarrArray read = ZarrArray.open(url);
            for (long ti = 0; ti < 4; ti++) {
                for (long tj = 0; tj < 3; tj++) {
                    for (long tk = 0; tk < 3; tk++) {
                        long[] t = {ti, tj, tk};
                        Chunk target = Chunk.allocate(
                                dtype, (int) Math.min(10, 40 - 10 * ti), (int) Math.min(30, 90 - 30 * tj), (int)
                                        Math.min(25, 70 - 25 * tk));
                        long[] offset = {10 * ti, 30 * tj, 25 * tk};
                        // Every stored chunk the target overlaps, each into the target's box of it.
                        for (long i = offset[0] / 16; i <= (offset[0] + target.shape(0) - 1) / 16; i++) {
                            for (long j = offset[1] / 45; j <= (offset[1] + target.shape(1) - 1) / 45; j++) {
                                for (long k = offset[2] / 64; k <= (offset[2] + target.shape(2) - 1) / 64; k++) {
                                    read.readChunkInto(
                                            new long[] {i, j, k}, new Chunk[] {target}, new long[][] {offset});
                                }
                            }
                        }
                        assertThat(target.contentEquals(reference(dtype, shape, targetChunks, t)))
                                .as("%s target %s", dtype, java.util.Arrays.toString(t))
                                .isTrue();
                    }
                }
            }
            // One stored chunk into four targets at once (the rechunk's region), all within it: each gets its part.
            int[] quarter = {8, 20, 30};
            long[][] coords = {{0, 0, 0}, {1, 0, 0}, {0, 1, 1}, {1, 1, 1}};
            Chunk[] four = new Chunk[4];
            long[][] offsets = new long[4][];
            for (int q = 0; q < 4; q++) {
                four[q] = Chunk.allocate(dtype, quarter);
                offsets[q] = new long[] {8 * coords[q][0], 20 * coords[q][1], 30 * coords[q][2]};
            }
            read.readChunkInto(new long[] {0, 0, 0}, four, offsets);
            for (int q = 0; q < 4; q++) {
                assertThat(four[q].contentEquals(reference(dtype, shape, quarter, coords[q])))
                        .as("%s quarter %d", dtype, q)
                        .isTrue();
            }
        }
    }

    @Test
    void bigEndianChunksWrittenByHandAreReadSliceBySlice() throws IOException {
        Path dir = tmp.resolve("big");
        Files.createDirectories(dir);
        Files.writeString(
                dir.resolve(".zarray"),
                "{\"zarr_format\": 2, \"shape\": [600, 130], \"chunks\": [400, 130], \"dtype\": \">f8\","
                        + " \"compressor\": null, \"fill_value\": 0.0, \"order\": \"C\", \"filters\": null}",
                StandardCharsets.UTF_8);
        for (int i = 0; i < 2; i++) {
            ByteBuffer b = ByteBuffer.allocate(400 * 130 * 8).order(ByteOrder.BIG_ENDIAN);
            for (int r = 0; r < 400; r++) {
                for (int c = 0; c < 130; c++) {
                    long row = 400L * i + r;
                    b.putDouble(row < 600 ? row * 1000 + c : 0);
                }
            }
            Files.write(dir.resolve(i + ".0"), b.array());
        }
        ZarrArray a = ZarrArray.open(dir.toString());
        Chunk edge = a.readChunk(1, 0);
        assertThat(edge.shape()).containsExactly(200, 130);
        for (int r = 0; r < 200; r++) {
            for (int c = 0; c < 130; c++) {
                assertThat(edge.doubles()[r * 130 + c]).isEqualTo((400.0 + r) * 1000 + c);
            }
        }
        Chunk middle = Chunk.allocate(DType.FLOAT64, 100, 50);
        a.readChunkInto(new long[] {0, 0}, new Chunk[] {middle}, new long[][] {{350, 40}});
        a.readChunkInto(new long[] {1, 0}, new Chunk[] {middle}, new long[][] {{350, 40}});
        for (int r = 0; r < 100; r++) {
            for (int c = 0; c < 50; c++) {
                assertThat(middle.doubles()[r * 50 + c]).isEqualTo((350.0 + r) * 1000 + 40 + c);
            }
        }
    }

    @Test
    void aTruncatedChunkIsAnErrorNamingItAndAMissingOneReadsAsTheFillValue() throws IOException {
        Path dir = tmp.resolve("broken");
        ZarrArray a = create(dir.toString(), DType.FLOAT64, new long[] {600, 130}, new int[] {400, 130});
        a.writeChunk(reference(DType.FLOAT64, new long[] {600, 130}, new int[] {400, 130}, new long[] {0, 0}), 0, 0);
        byte[] whole = Files.readAllBytes(dir.resolve("0.0"));
        Files.write(dir.resolve("0.0"), java.util.Arrays.copyOf(whole, whole.length - 8));
        ZarrArray read = ZarrArray.open(dir.toString());
        assertThatThrownBy(() -> read.readChunk(0, 0))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("corrupt chunk")
                .hasMessageContaining("0.0")
                .hasMessageContaining(
                        "it has " + (whole.length - 8) + " bytes but an uncompressed chunk of [400, 130]");
        Chunk target = Chunk.allocate(DType.FLOAT64, 10, 10);
        assertThatThrownBy(() -> read.readChunkInto(new long[] {0, 0}, new Chunk[] {target}, new long[][] {{0, 0}}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("0.0");
        // Missing: the fill value (0), in the chunk and in a target.
        Chunk missing = read.readChunk(1, 0);
        assertThat(missing.shape()).containsExactly(200, 130);
        assertThat(missing.isAll(io.cubed.dtype.Scalar.zero())).isTrue();
        Chunk into = Chunk.allocate(DType.FLOAT64, 10, 10);
        java.util.Arrays.fill(into.doubles(), 7);
        read.readChunkInto(new long[] {1, 0}, new Chunk[] {into}, new long[][] {{400, 0}});
        assertThat(into.isAll(io.cubed.dtype.Scalar.zero())).isTrue();
        // A directory where a chunk's file would be holds no chunk either.
        Files.createDirectories(dir.resolve("1.0"));
        assertThat(read.readChunkIfStored(1, 0)).isNull();
    }
}
