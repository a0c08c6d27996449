package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drivers killed mid-computation ({@code cubed rechunk} in a child JVM, destroyed forcibly once its intermediate array
 * has chunks) and {@code cubed clean}: a live driver's intermediates stay, a killed one's go (with their size, counted
 * here from the files), a killed resumable one's stay and can still be resumed; {@code --dry-run} deletes nothing.
 */
class CleanAfterKillIT {
    private static final int ROWS = 200;
    private static final int COLS = 4000;

    @TempDir
    Path tmp;

    /** A {@code ROWS x COLS} float64 array in chunks of one row, bz2-compressed so that reading it takes a while. */
    private String input() {
        String url = tmp.resolve("in.zarr").toString();
        ZarrArray a = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {ROWS, COLS}, new int[] {1, COLS}, DType.FLOAT64)
                        .compressor(Compressor.parseSpec("bz2:9"))
                        .build());
        for (int i = 0; i < ROWS; i++) {
            double[] v = new double[COLS];
            for (int j = 0; j < COLS; j++) {
                v[j] = i * 10_000.0 + j;
            }
            a.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {1, COLS}, v), i, 0);
        }
        return url;
    }

    /** Rows to columns of 10 within 600 kB a task: in two stages, through an intermediate array in {@code work}. */
    private List<String> rechunk(String src, String dst, Path work, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "rechunk",
                src,
                dst,
                "--chunks",
                "-1,10",
                "--allowed-mem",
                "600KB",
                "--reserved-mem",
                "100KB",
                "--threads",
                "1",
                "--work-dir",
                work.toString()));
        args.addAll(List.of(more));
        return args;
    }

    @Test
    void aKilledDriversIntermediatesAreCleanedALiveOnesAndAResumableOnesAreKept() throws Exception {
        String src = input();
        Path work = tmp.resolve("work");
        List<String> plain = rechunk(src, tmp.resolve("a.zarr").toString(), work);
        List<String> plan = new ArrayList<>(plain);
        plan.add("--dry-run");
        CliRun dry = CliRun.of(plan.toArray(String[]::new));
        assertThat(dry.code()).as(dry.err()).isZero();
        assertThat(dry.out()).as("the plan goes through an intermediate array").contains("rechunk (stage 1/");

        Process killed = CliRun.startChild(plain, tmp.resolve("killed.log"));
        Path killedDir = waitForIntermediateChunks(killed, work, null, tmp.resolve("killed.log"));

        // While the driver runs, its directory is live.
        CliRun whileAlive = CliRun.of("clean", "--work-dir", work.toString());
        assertThat(whileAlive.code()).as(whileAlive.err()).isZero();
        String host = InetAddress.getLocalHost().getHostName();
        assertThat(whileAlive.out())
                .contains("kept " + work + "/" + killedDir.getFileName() + ": live (process " + killed.pid() + " on "
                        + host + ", this machine)\n")
                .endsWith("removed 0 directories, freed 0 B (0 bytes); kept 1\n");
        assertThat(killedDir).exists();

        killed.destroyForcibly();
        assertThat(killed.waitFor(30, TimeUnit.SECONDS)).isTrue();
        long killedBytes = bytesBelow(killedDir);
        assertThat(killedBytes).isPositive();

        // A resumable run killed the same way.
        Process resumable = CliRun.startChild(
                rechunk(src, tmp.resolve("b.zarr").toString(), work, "--resume"), tmp.resolve("resumable.log"));
        Path resumableDir = waitForIntermediateChunks(resumable, work, killedDir, tmp.resolve("resumable.log"));
        resumable.destroyForcibly();
        assertThat(resumable.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(resumableDir.getFileName().toString()).matches("cubed-rechunk-[0-9a-f]{16}");

        String gone =
                ": its owner, process " + killed.pid() + " on " + host + ", is no longer running (last" + " heartbeat ";
        CliRun looking = CliRun.of("clean", "--work-dir", work.toString(), "--dry-run");
        assertThat(looking.code()).as(looking.err()).isZero();
        assertThat(looking.out())
                .startsWith("looking at " + work + " (intermediates whose owner is gone)\n")
                .contains("would remove " + work + "/" + killedDir.getFileName() + " (")
                .contains(gone)
                .contains("kept " + work + "/" + resumableDir.getFileName() + ": resumable (resume id "
                        + resumableDir.getFileName().toString().substring("cubed-".length())
                        + "; its owner, process " + resumable.pid() + " on " + host + ", is no longer running")
                .endsWith("would remove 1 directory, freeing " + Sizes.format(killedBytes) + " (" + killedBytes
                        + " bytes); kept 1\n");
        assertThat(bytesBelow(killedDir)).as("a dry run deletes nothing").isEqualTo(killedBytes);

        CliRun cleaned = CliRun.of("clean", "--work-dir", work.toString());
        assertThat(cleaned.code()).as(cleaned.err()).isZero();
        assertThat(cleaned.out())
                .startsWith("cleaning " + work + " (intermediates whose owner is gone)\n")
                .contains("removed " + work + "/" + killedDir.getFileName() + " (" + Sizes.format(killedBytes) + ")"
                        + gone)
                .endsWith("removed 1 directory, freed " + Sizes.format(killedBytes) + " (" + killedBytes
                        + " bytes); kept 1\n");
        assertThat(killedDir).doesNotExist();
        assertThat(resumableDir).exists();

        // What clean kept still resumes, and the finished run leaves nothing behind.
        Process resumed = CliRun.startChild(
                rechunk(src, tmp.resolve("b.zarr").toString(), work, "--resume"), tmp.resolve("resumed.log"));
        assertThat(resumed.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(resumed.exitValue())
                .as(Files.readString(tmp.resolve("resumed.log")))
                .isZero();
        assertThat(resumableDir).doesNotExist();
        ZarrArray b = ZarrArray.open(tmp.resolve("b.zarr").toString());
        assertThat(b.readChunk(0, 399).doubles()[ROWS * 10 - 1]).isEqualTo(199 * 10_000.0 + 3999);
    }

    /** The intermediates directory in {@code work} but {@code other} (null: none) once its array has a chunk. */
    private static Path waitForIntermediateChunks(Process p, Path work, Path other, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            assertThat(p.isAlive())
                    .as("job still running:\n" + Files.readString(log))
                    .isTrue();
            assertThat(System.nanoTime()).as("intermediate chunks in time").isLessThan(deadline);
            if (Files.isDirectory(work)) {
                try (Stream<Path> s = Files.walk(work)) {
                    List<Path> chunks = s.filter(
                                    f -> f.getParent().getFileName().toString().endsWith(".zarr")
                                            && !f.getFileName().toString().startsWith(".")
                                            && (other == null || !f.startsWith(other)))
                            .toList();
                    if (!chunks.isEmpty()) {
                        Path dir = chunks.get(0).getParent().getParent();
                        assertThat(dir.getParent()).isEqualTo(work);
                        return dir;
                    }
                } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException e) {
                    // A file renamed into place while we walked.
                }
            }
            Thread.sleep(2);
        }
    }

    private static long bytesBelow(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            long total = 0;
            for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
                total += Files.size(p);
            }
            return total;
        }
    }
}
