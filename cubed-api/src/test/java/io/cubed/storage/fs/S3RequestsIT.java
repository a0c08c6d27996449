package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.array.Manipulation;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The requests Cubed makes of an S3 server, as the server counts them: one GET per chunk read (a missing chunk too:
 * its 404 is the fill value), one PUT per chunk written, nothing else on a chunk's key, and many requests in flight
 * at once when each waits for the server's latency.
 */
class S3RequestsIT {
    private static S3TestServer s3;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3TestServer.builder().bucket("cubed-requests").latencyMillis(20).start();
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    /** A 48 x 48 float64 array in 8 x 8 chunks (36 chunks), element (i, j) = 100 i + j, chunk 7 never written. */
    private static ZarrArray input(String name) {
        ZarrArray a = ZarrArray.create(
                s3.url(name),
                ZarrCreateOptions.builder(new long[] {48, 48}, new int[] {8, 8}, DType.FLOAT64)
                        .fillValue(Scalar.ofDouble(-1))
                        .build(),
                s3.options());
        for (long i = 0; i < a.grid().numChunks(); i++) {
            if (i == 7) {
                continue;
            }
            long[] c = a.grid().chunkCoordsOf(i);
            long[] off = a.grid().chunkOffset(c);
            Chunk chunk = Chunk.allocate(DType.FLOAT64, a.grid().chunkShapeAt(c));
            for (int r = 0; r < 8; r++) {
                for (int k = 0; k < 8; k++) {
                    chunk.doubles()[r * 8 + k] = 100.0 * (off[0] + r) + off[1] + k;
                }
            }
            a.writeChunk(chunk, c);
        }
        return a;
    }

    private static double expected(ZarrArray a, int i, int j) {
        long chunk = a.grid().chunkIndexOf(new long[] {i / 8, j / 8});
        return chunk == 7 ? -1 : 100.0 * i + j;
    }

    /**
     * Opening an array asks for its two possible documents and the v2 attributes at once, one round trip: every
     * reader looks at the attributes next (the incomplete mark, dimension names), which had been a second round trip.
     */
    @Test
    void openingAnArrayReadsItsTwoPossibleDocumentsAndItsAttributesAtOnceAndNothingElse() {
        ZarrArray written = input("open/a.zarr");
        written.writeAttributes(Map.of("units", "m"));
        s3.resetStats();
        ChunkStore a = Zarr.open(s3.url("open/a.zarr"), s3.options());
        S3ServerStats stats = s3.stats();
        assertThat(a.grid().shape()).containsExactly(48, 48);
        assertThat(stats.total()).isEqualTo(3);
        assertThat(stats.keyCount("open/a.zarr/zarr.json", S3Operation.GET_OBJECT))
                .isEqualTo(1);
        assertThat(stats.keyCount("open/a.zarr/.zarray", S3Operation.GET_OBJECT))
                .isEqualTo(1);
        assertThat(stats.keyCount("open/a.zarr/.zattrs", S3Operation.GET_OBJECT))
                .isEqualTo(1);
        assertThat(io.cubed.storage.zarr.Attributes.of(a)).isEqualTo(Map.of("units", "m"));
        assertThat(s3.stats().total())
                .as("the attributes were read with the metadata")
                .isEqualTo(3);
    }

    /**
     * A new array marked incomplete, set up with attributes: nothing at the new place but one listing, no read of the
     * attributes it cannot have yet, and the attributes and the mark in one write of {@code .zattrs} (they were two).
     * A set-up that hands back another copy of the array still has its attributes written.
     */
    @Test
    void aNewMarkedArrayIsAListingItsDocumentAndOneWriteOfItsAttributes() {
        ZarrCreateOptions create = ZarrCreateOptions.builder(new long[] {8, 8}, new int[] {4, 4}, DType.FLOAT64)
                .build();
        s3.resetStats();
        ChunkStore a = io.cubed.storage.zarr.IncompleteMark.createMarked(
                () -> ZarrArray.unwritten(s3.url("marked/a.zarr"), create, s3.options()),
                created -> {
                    ((ZarrArray) created).writeAttributes(Map.of("units", "K"));
                    return created;
                },
                "a test",
                "run it again");
        S3ServerStats stats = s3.stats();
        assertThat(stats.count(S3Operation.LIST)).isEqualTo(1);
        assertThat(stats.count(S3Operation.HEAD_OBJECT)).isZero();
        assertThat(stats.count(S3Operation.GET_OBJECT)).isZero();
        assertThat(stats.keyCount("marked/a.zarr/.zattrs", S3Operation.PUT_OBJECT))
                .isEqualTo(1);
        assertThat(stats.total()).isEqualTo(3);
        ChunkStore read = Zarr.open(s3.url("marked/a.zarr"), s3.options().with("cubed.read.incomplete", "true"));
        assertThat(io.cubed.storage.zarr.Attributes.of(read)).containsEntry("units", "K");
        assertThat(io.cubed.storage.zarr.IncompleteMark.of(read)).isPresent();
        assertThat(io.cubed.storage.zarr.IncompleteMark.of(a)).isPresent();

        ChunkStore b = io.cubed.storage.zarr.IncompleteMark.createMarked(
                () -> ZarrArray.unwritten(s3.url("marked/b.zarr"), create, s3.options()),
                created -> {
                    ((ZarrArray) created).writeAttributes(Map.of("units", "m"));
                    return ((ZarrArray) created).writeEmptyChunks(false);
                },
                "a test",
                "run it again");
        ChunkStore readB = Zarr.open(s3.url("marked/b.zarr"), s3.options().with("cubed.read.incomplete", "true"));
        assertThat(io.cubed.storage.zarr.Attributes.of(readB)).containsEntry("units", "m");
        assertThat(io.cubed.storage.zarr.IncompleteMark.of(readB)).isPresent();
        assertThat(io.cubed.storage.zarr.IncompleteMark.of(b)).isPresent();
    }

    /**
     * A new Zarr v3 array set up with attributes and dimension names and marked incomplete: one listing of its place
     * and one write of its {@code zarr.json}, where writing each as it was set took four. A v2 array writes its
     * attributes with the mark before its {@code .zarray}, so that no reader finds it unmarked.
     */
    @Test
    void aNewMarkedArrayWritesEachDocumentOnce() {
        io.cubed.grid.ChunkGrid grid = io.cubed.grid.ChunkGrid.of(new long[] {8, 8}, new int[] {4, 4});
        java.util.function.UnaryOperator<ChunkStore> setUp = created -> {
            ChunkStore named = io.cubed.storage.zarr.DimensionNames.write(created, java.util.List.of("y", "x"));
            if (named instanceof io.cubed.storage.zarr.ZarrV3Array v3) {
                return v3.writeAttributes(Map.of("units", "K"));
            }
            java.util.Map<String, Object> attrs = new java.util.LinkedHashMap<>(((ZarrArray) named).attributes());
            attrs.put("units", "K");
            ((ZarrArray) named).writeAttributes(attrs);
            return named;
        };
        s3.resetStats();
        io.cubed.storage.zarr.IncompleteMark.createMarked(
                () -> io.cubed.storage.zarr.ZarrFormat.v3()
                        .unwritten(s3.url("marked/v3.zarr"), grid, DType.FLOAT64, false, s3.options()),
                setUp,
                "a test",
                "run it again");
        S3ServerStats stats = s3.stats();
        assertThat(stats.count(S3Operation.LIST)).isEqualTo(1);
        assertThat(stats.keyCount("marked/v3.zarr/zarr.json", S3Operation.PUT_OBJECT))
                .isEqualTo(1);
        assertThat(stats.total()).isEqualTo(2);

        // Its requests one after another, none in flight before (the reads below leave some in flight as they end).
        s3.resetStats();
        io.cubed.storage.zarr.IncompleteMark.createMarked(
                () -> io.cubed.storage.zarr.ZarrFormat.v2()
                        .unwritten(s3.url("marked/v2.zarr"), grid, DType.FLOAT64, false, s3.options()),
                setUp,
                "a test",
                "run it again");
        assertThat(s3.loneRequests())
                .containsExactly("LIST ", "PUT_OBJECT marked/v2.zarr/.zattrs", "PUT_OBJECT marked/v2.zarr/.zarray");
        ChunkStore v3 = Zarr.open(s3.url("marked/v3.zarr"), s3.options().with("cubed.read.incomplete", "true"));
        assertThat(io.cubed.storage.zarr.Attributes.of(v3)).containsEntry("units", "K");
        assertThat(io.cubed.storage.zarr.DimensionNames.read(v3)).containsExactly("y", "x");
        assertThat(io.cubed.storage.zarr.IncompleteMark.of(v3)).isPresent();
        ChunkStore v2 = Zarr.open(s3.url("marked/v2.zarr"), s3.options().with("cubed.read.incomplete", "true"));
        assertThat(io.cubed.storage.zarr.Attributes.of(v2)).containsEntry("units", "K");
        assertThat(io.cubed.storage.zarr.DimensionNames.read(v2)).containsExactly("y", "x");
        assertThat(io.cubed.storage.zarr.IncompleteMark.of(v2)).isPresent();
    }

    /**
     * Whether a place holds anything is one listing request, however many objects lie there (a large array's chunks
     * fill many pages of a listing): the question a new destination is asked.
     */
    @Test
    void whetherAPlaceHoldsAnythingIsOneRequestHoweverManyObjectsItHolds() {
        io.cubed.storage.Store store = Stores.open(s3.url("many"), s3.options());
        java.util.List<java.util.concurrent.CompletableFuture<Void>> puts = new java.util.ArrayList<>();
        for (int i = 0; i < 2100; i++) {
            puts.add(store.putAsync("x.zarr/0." + i, new byte[] {1}, 1));
        }
        puts.forEach(java.util.concurrent.CompletableFuture::join);
        s3.resetStats();
        assertThat(store.holdsAnyBelow("x.zarr")).isTrue();
        assertThat(store.holdsAnyBelow("y.zarr")).isFalse();
        assertThat(s3.stats().count(S3Operation.LIST)).isEqualTo(2);
        assertThat(s3.stats().total()).isEqualTo(2);
        s3.resetStats();
        assertThat(store.listChildren("x.zarr")).hasSize(2100);
        assertThat(s3.stats().count(S3Operation.LIST))
                .as("the whole listing, for comparison")
                .isEqualTo(3);
    }

    @Test
    void aComputationReadsEachChunkOnceWritesEachChunkOnceAndKeepsRequestsInFlight() {
        ZarrArray in = input("compute/in.zarr");
        Spec spec = Spec.builder()
                .workDir(s3.url("compute/work"))
                .storeOptions(s3.options())
                .allowedMem("200MB")
                .reservedMem("10MB")
                .executor(new LocalExecutor(2, 3, 0))
                .build();
        CubedArray x = Cubed.fromZarr(in.url(), spec);
        CubedArray y = Elementwise.add(Elementwise.multiply(x, Scalar.ofDouble(2)), Scalar.ofDouble(1));
        AtomicLong ioBytes = new AtomicLong();
        s3.resetStats();
        y.toZarr(s3.url("compute/out.zarr"), new Callback() {
            @Override
            public void onOperationStart(OperationStart event) {
                ioBytes.set(event.stage().ioBytes());
            }
        });
        S3ServerStats stats = s3.stats();

        for (long i = 0; i < in.grid().numChunks(); i++) {
            long[] c = in.grid().chunkCoordsOf(i);
            String key = in.metadata().chunkKey(c);
            assertThat(stats.keyCounts("compute/in.zarr/" + key))
                    .as("requests on input chunk %s", key)
                    .isEqualTo(Map.of(S3Operation.GET_OBJECT, 1L));
            assertThat(stats.keyCounts("compute/out.zarr/" + key))
                    .as("requests on output chunk %s", key)
                    .isEqualTo(Map.of(S3Operation.PUT_OBJECT, 1L));
        }
        // 36 chunks, 20 ms a request, two threads: one request at a time per thread would keep at most 2 in flight.
        // Bytes for requests in flight per task: 32 requests (the default concurrency), each of an 8 x 8 float64
        // chunk's
        // stored bound (its 512 bytes, 8 for what a codec cannot shrink, 1024 of header) and its own overhead (a
        // connection's 64 KiB read buffer and 16 KiB more).
        assertThat(ioBytes.get())
                .as("bytes for requests in flight per task")
                .isEqualTo(32L * ((512 + 512 / 64 + 1024) + (64 * 1024 + 16 * 1024)));
        assertThat(stats.maxInFlight()).isGreaterThanOrEqualTo(8);
        assertThat(stats.meanInFlight()).isGreaterThan(2);

        Chunk out = Zarr.open(s3.url("compute/out.zarr"), s3.options()).readRegion(new long[2], new int[] {48, 48});
        for (int i = 0; i < 48; i++) {
            for (int j = 0; j < 48; j++) {
                assertThat(out.doubles()[i * 48 + j]).as("(%d, %d)", i, j).isEqualTo(2 * expected(in, i, j) + 1);
            }
        }
    }

    @Test
    void aRechunkThroughTheWorkDirectoryOnS3ReadsAndWritesEachChunkOnce() {
        ZarrArray in = input("rechunk/in.zarr");
        Spec spec = Spec.builder()
                .workDir(s3.url("rechunk/work"))
                .storeOptions(s3.options())
                .allowedMem("200MB")
                .reservedMem("10MB")
                .executor(new LocalExecutor(2, 3, 0))
                .build();
        CubedArray y = Manipulation.rechunk(Cubed.fromZarr(in.url(), spec), 48, 4);
        s3.resetStats();
        y.toZarr(s3.url("rechunk/out.zarr"));
        S3ServerStats stats = s3.stats();
        for (long i = 0; i < in.grid().numChunks(); i++) {
            String key = in.metadata().chunkKey(in.grid().chunkCoordsOf(i));
            assertThat(stats.keyCounts("rechunk/in.zarr/" + key))
                    .as("requests on input chunk %s", key)
                    .isEqualTo(Map.of(S3Operation.GET_OBJECT, 1L));
        }
        ZarrArray out = (ZarrArray) Zarr.open(s3.url("rechunk/out.zarr"), s3.options());
        for (long i = 0; i < out.grid().numChunks(); i++) {
            String key = out.metadata().chunkKey(out.grid().chunkCoordsOf(i));
            assertThat(stats.keyCounts("rechunk/out.zarr/" + key))
                    .as("requests on output chunk %s", key)
                    .isEqualTo(Map.of(S3Operation.PUT_OBJECT, 1L));
        }
        Chunk all = out.readRegion(new long[2], new int[] {48, 48});
        for (int i = 0; i < 48; i++) {
            for (int j = 0; j < 48; j++) {
                assertThat(all.doubles()[i * 48 + j]).isEqualTo(expected(in, i, j));
            }
        }
    }

    @Test
    void aComputationReadsEachMetadataDocumentOnce() {
        ZarrArray in = input("meta/in.zarr");
        Spec spec = Spec.builder()
                .workDir(s3.url("meta/work"))
                .storeOptions(s3.options())
                .allowedMem("200MB")
                .reservedMem("10MB")
                .executor(new LocalExecutor(2, 3, 0))
                .build();
        s3.resetStats();
        double sum = io.cubed.array.Statistical.sum(Cubed.fromZarr(in.url(), spec))
                .compute()
                .get()
                .doubleValue();
        S3ServerStats stats = s3.stats();
        double expected = 0;
        for (int i = 0; i < 48; i++) {
            for (int j = 0; j < 48; j++) {
                expected += expected(in, i, j);
            }
        }
        assertThat(sum).isEqualTo(expected);
        java.util.Map<String, java.util.Map<S3Operation, Long>> metadata = new java.util.TreeMap<>();
        stats.keyCounts().forEach((k, v) -> {
            if (k.startsWith("meta/in.zarr/") && !k.matches(".*/\\d+\\.\\d+")) {
                metadata.put(k, v);
            }
        });
        assertThat(metadata)
                .as("the input's metadata documents")
                .isEqualTo(java.util.Map.of(
                        "meta/in.zarr/zarr.json", java.util.Map.of(S3Operation.GET_OBJECT, 1L),
                        "meta/in.zarr/.zarray", java.util.Map.of(S3Operation.GET_OBJECT, 1L),
                        "meta/in.zarr/.zattrs", java.util.Map.of(S3Operation.GET_OBJECT, 1L)));
    }
}
