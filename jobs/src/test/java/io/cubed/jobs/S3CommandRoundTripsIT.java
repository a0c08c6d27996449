package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.fs.S3TestServer;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.Attributes;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The round trips {@code cubed copy} and {@code cubed rechunk} wait for one after another on S3, outside their stages:
 * opening the source, checking the destination, creating the outputs and intermediates, and finishing. At a cloud
 * store's latency each is its whole latency (30-100 ms), and they are the command's set-up and ending, whatever the
 * array's size. The test server delays every request by 50 ms and records each request that arrives with none in
 * flight ({@link S3TestServer#loneRequests}); requests asked for at once count once. Chunk reads and writes, which
 * the stages keep many of in flight, are left out. The outputs are checked value by value against the formula the
 * source was written with, and carry its attributes.
 */
class S3CommandRoundTripsIT {
    private static final int ROWS = 1024;
    private static final int COLUMNS = 1024;
    private static final int CHUNK = 128;

    private static S3TestServer s3;
    private static String source;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3TestServer.builder().bucket("round-trips").latencyMillis(0).start();
        source = s3.url("in.zarr");
        ZarrArray a = ZarrArray.create(
                source,
                ZarrCreateOptions.builder(new long[] {ROWS, COLUMNS}, new int[] {CHUNK, CHUNK}, DType.FLOAT64)
                        .build(),
                s3.options());
        a.writeAttributes(Map.of("units", "K", "long_name", "temperature"));
        for (int ci = 0; ci < ROWS / CHUNK; ci++) {
            for (int cj = 0; cj < COLUMNS / CHUNK; cj++) {
                double[] v = new double[CHUNK * CHUNK];
                for (int i = 0; i < CHUNK; i++) {
                    for (int j = 0; j < CHUNK; j++) {
                        v[i * CHUNK + j] = value(ci * CHUNK + i, cj * CHUNK + j);
                    }
                }
                a.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {CHUNK, CHUNK}, v), ci, cj);
            }
        }
    }

    /** Every command runs at 50 ms a request; the checks of its output at none. */
    @BeforeEach
    void latency() {
        s3.setLatencyMillis(50);
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    private static double value(int i, int j) {
        return i * 1000.0 + j;
    }

    /**
     * A recompressing copy to a new place: the source's three documents and the destination's check (one listing) at
     * once, the array's attributes with its incomplete mark, then its {@code .zarray} (the place just found empty is
     * not listed again, and the array is never there without its mark), and the mark's removal. Before, the check was
     * three HEADs and a listing one after another and was made twice, the source's attributes were read after its
     * metadata, the check after the source, and the attributes and the mark were two writes: 14 round trips.
     */
    @Test
    void aCopyToANewPlaceWaitsForFourRoundTripsBesidesItsChunks() {
        String dst = s3.url("copy/out.zarr");
        s3.resetStats();
        CliRun run = cubed("copy", source, dst, "--codec", "zstd:3", "--threads", "2");
        assertThat(run.code()).as(run.err()).isZero();
        List<String> waits = metadataWaits();
        assertThat(waits).as("round trips outside the stage").hasSize(4);
        assertThat(waits.get(0)).matches("GET_OBJECT in\\.zarr/.*|LIST ");
        assertThat(waits.subList(1, 4))
                .containsExactly(
                        "PUT_OBJECT copy/out.zarr/.zattrs",
                        "PUT_OBJECT copy/out.zarr/.zarray",
                        "PUT_OBJECT copy/out.zarr/.zattrs");
        checkCopied(dst, CHUNK, CHUNK);
    }

    /**
     * The same copy to Zarr v3: its one document, {@code zarr.json}, is written once with the source's attributes and
     * the mark, and once more without the mark. Written as each was set, it took four writes (the array, the
     * attributes, the mark, the mark's removal) after the two round trips of the start: six.
     */
    @Test
    void aCopyToZarrV3WritesItsDocumentOnceBeforeItsChunks() {
        String dst = s3.url("copy3/out.zarr");
        s3.resetStats();
        CliRun run = cubed("copy", source, dst, "--zarr-format", "3", "--codec", "zstd:3", "--threads", "2");
        assertThat(run.code()).as(run.err()).isZero();
        List<String> waits = metadataWaits();
        assertThat(waits).as("round trips outside the stage").hasSize(3);
        assertThat(waits.subList(1, 3))
                .containsExactly("PUT_OBJECT copy3/out.zarr/zarr.json", "PUT_OBJECT copy3/out.zarr/zarr.json");
        checkCopied(dst, CHUNK, CHUNK);
    }

    /**
     * A rechunk in two stages through an intermediate in a work directory on S3 (square chunks to column stripes in a
     * budget too small for one stage): the work directory's probe (a write and its deletion); the source's documents
     * with the command's look at the destination; the plan's check of the destination; the intermediates' owner
     * while the destination's attributes and mark are written, then the intermediate's document while the
     * destination's is; after the stages the mark's removal while the intermediates are listed, then their deletion.
     * Before it waited for 34: the destination checked three times with four requests each, the source opened twice,
     * its attributes read apart, the intermediate's place checked with six more, the destination opened again at the
     * end to copy the attributes; then 12, each of these requests after the one before.
     */
    @Test
    void aRechunkThroughS3WaitsForAtMostEightRoundTripsBesidesItsChunks() {
        String dst = s3.url("rechunk/out.zarr");
        s3.resetStats();
        CliRun run = cubed(
                "rechunk",
                source,
                dst,
                "--chunks",
                ROWS + ",8",
                "--allowed-mem",
                "4MB",
                "--reserved-mem",
                "100kB",
                "--work-dir",
                s3.url("work"),
                "--threads",
                "2");
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("rechunk (stage 1/2)").contains("rechunk (stage 2/2)");
        List<String> waits = metadataWaits();
        // Requests made at once count once, but two chains of requests that run side by side (the destination's
        // documents, the owner then the intermediate's) count once or twice as their requests happen to arrive: 6 to 8.
        assertThat(waits).as("round trips outside the stages").hasSizeBetween(6, 8);
        assertThat(waits).noneMatch(r -> r.startsWith("HEAD_OBJECT"));
        assertThat(waits.get(0)).startsWith("PUT_OBJECT work/.cubed-probe-");
        assertThat(waits.get(1)).startsWith("DELETE_OBJECT work/.cubed-probe-");
        assertThat(waits.get(3)).isEqualTo("LIST ");
        assertThat(waits.get(waits.size() - 1)).isEqualTo("DELETE_OBJECTS ");
        checkCopied(dst, ROWS, 8);
        assertThat(Stores.open(s3.url("work"), s3.options()).list(""))
                .as("the work directory")
                .isEmpty();
    }

    /** The lone requests that are not chunk reads or writes, in order. */
    private static List<String> metadataWaits() {
        List<String> waits = new ArrayList<>();
        for (String r : s3.loneRequests()) {
            String op = r.substring(0, r.indexOf(' '));
            String key = r.substring(r.indexOf(' ') + 1);
            String name = key.substring(key.lastIndexOf('/') + 1);
            boolean document = List.of(".zarray", ".zattrs", ".zgroup", ".zmetadata", "zarr.json", "owner.json")
                            .contains(name)
                    || name.startsWith(".cubed-probe-");
            boolean chunk = (op.equals("GET_OBJECT") || op.equals("PUT_OBJECT")) && !document;
            if (!chunk) {
                waits.add(r);
            }
        }
        return waits;
    }

    private static void checkCopied(String dst, int chunkRows, int chunkColumns) {
        s3.setLatencyMillis(0);
        ChunkStore out = Zarr.open(dst, s3.options());
        assertThat(out.grid().chunkShape()).containsExactly(chunkRows, chunkColumns);
        Chunk all = out.readRegion(new long[] {0, 0}, new int[] {ROWS, COLUMNS});
        double[] v = all.doubles();
        for (int i = 0; i < ROWS; i++) {
            for (int j = 0; j < COLUMNS; j++) {
                assertThat(v[i * COLUMNS + j]).as("(%d, %d)", i, j).isEqualTo(value(i, j));
            }
        }
        assertThat(Attributes.of(out)).containsEntry("units", "K").containsEntry("long_name", "temperature");
    }

    private static CliRun cubed(String... args) {
        return CliRun.withStore(s3.options(), args);
    }
}
