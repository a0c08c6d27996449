package io.cubed.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.array.Blockwise;
import io.cubed.array.ComputeOptions;
import io.cubed.array.Creation;
import io.cubed.array.CubedArray;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Owner documents of intermediates directories, and cleaning those whose owner is gone. */
class WorkDirCleanerTest {
    private static final IntermediatesOwner.Machine HERE = IntermediatesOwner.Machine.THIS;

    @TempDir
    Path tmp;

    static Chunk plusOne(Chunk[] blocks, long[] id) {
        double[] v = blocks[0].doubles().clone();
        for (int i = 0; i < v.length; i++) {
            v[i] += 1;
        }
        return Chunk.wrap(DType.FLOAT64, blocks[0].shape(), v);
    }

    static Chunk failOnChunk2(Chunk[] blocks, long[] id) {
        if (id[0] == 2) {
            throw new IllegalStateException("chunk 2 fails");
        }
        return plusOne(blocks, id);
    }

    /** {@code x + 1 + 1} in four chunks with the first sum stored as an intermediate, the second by {@code last}. */
    private static CubedArray twoSteps(Spec spec, io.cubed.array.BlockFunction last) {
        CubedArray x = Creation.arange(0, 40, 1, 10, DType.FLOAT64, spec);
        CubedArray y = Blockwise.mapBlocks(WorkDirCleanerTest::plusOne, DType.FLOAT64, x);
        return Blockwise.mapBlocks(last, DType.FLOAT64, y);
    }

    private Spec spec(Path work, boolean keep) {
        return Spec.builder()
                .workDir(work.toString())
                .keepIntermediates(keep)
                .executor(new LocalExecutor(1, 1, 0))
                .build();
    }

    /** The bytes of the files below {@code dir}, counted here, independently of the stores. */
    private static long bytesBelow(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            long total = 0;
            for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
                total += Files.size(p);
            }
            return total;
        }
    }

    private static List<Path> computationDirs(Path work) throws IOException {
        if (!Files.isDirectory(work)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(work)) {
            return s.filter(p -> p.getFileName().toString().startsWith("cubed-"))
                    .sorted()
                    .toList();
        }
    }

    private static IntermediatesOwner.Marker markerOf(Path dir) throws IOException {
        return IntermediatesOwner.Marker.parse(Files.readAllBytes(dir.resolve(IntermediatesOwner.KEY)))
                .orElseThrow();
    }

    private static WorkDirCleaner.Options.Builder options() {
        return WorkDirCleaner.Options.builder();
    }

    @Test
    void aRunningComputationNamesThisProcessAsItsOwnerAndItsDirectoryGoesWhenItSucceeds() throws IOException {
        Path work = tmp.resolve("work");
        List<IntermediatesOwner.Marker> seen = new ArrayList<>();
        List<WorkDirCleaner.Entry> cleanedMeanwhile = new ArrayList<>();
        Callback look = new Callback() {
            @Override
            public void onOperationStart(OperationStart event) {
                try {
                    List<Path> dirs = computationDirs(work);
                    assertThat(dirs).hasSize(1);
                    seen.add(markerOf(dirs.get(0)));
                    cleanedMeanwhile.addAll(WorkDirCleaner.clean(
                            work.toString(), StoreOptions.empty(), options().build()));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        };
        String out = tmp.resolve("out.zarr").toString();
        twoSteps(spec(work, false), WorkDirCleanerTest::plusOne)
                .toZarr(out, ComputeOptions.builder().optimize(false).build(), look);

        assertThat(seen).hasSize(2);
        IntermediatesOwner.Marker m = seen.get(0);
        assertThat(m.pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(m.host()).isEqualTo(HERE.host());
        assertThat(m.pidNamespace()).isEqualTo(HERE.pidNamespace());
        assertThat(m.processStartMillis()).isEqualTo(HERE.processStartMillis());
        assertThat(m.state()).isEqualTo("running");
        assertThat(m.resumable()).isFalse();
        assertThat(m.keepIntermediates()).isFalse();
        assertThat(m.leaseMillis()).isEqualTo(Duration.ofMinutes(10).toMillis());
        assertThat(m.heartbeatMillis()).isGreaterThanOrEqualTo(m.startedMillis());
        // A live computation is never cleaned, whatever --older-than says.
        assertThat(cleanedMeanwhile).hasSize(2).allSatisfy(e -> {
            assertThat(e.removed()).isFalse();
            assertThat(e.reason())
                    .startsWith("live (process " + ProcessHandle.current().pid() + " on ");
        });
        assertThat(computationDirs(work)).isEmpty();
        double[] got = io.cubed.storage.zarr.ZarrArray.open(out)
                .readRegion(new long[] {0}, new int[] {40})
                .doubles();
        assertThat(got[39]).isEqualTo(41.0);
    }

    @Test
    void theHeartbeatRefreshesTheOwnerDocumentUntilTheComputationEnds() throws Exception {
        Path work = tmp.resolve("beat");
        Files.createDirectories(work);
        IntermediatesOwner owner = IntermediatesOwner.start(
                Stores.open(work.toString()), "cubed-beat", "beat", false, false, Duration.ofMillis(50));
        long first = markerOf(work.resolve("cubed-beat")).heartbeatMillis();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (markerOf(work.resolve("cubed-beat")).heartbeatMillis() == first && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(markerOf(work.resolve("cubed-beat")).heartbeatMillis()).isGreaterThan(first);
        owner.end(true);
        IntermediatesOwner.Marker ended = markerOf(work.resolve("cubed-beat"));
        assertThat(ended.state()).isEqualTo("ended");
        Thread.sleep(200);
        assertThat(markerOf(work.resolve("cubed-beat")))
                .as("no heartbeat after the end")
                .isEqualTo(ended);
    }

    @Test
    void keptAndResumableIntermediatesStayUnlessAskedForAndThenTheirBytesAreReported() throws IOException {
        Path work = tmp.resolve("work");
        twoSteps(spec(work, true), WorkDirCleanerTest::plusOne)
                .toZarr(
                        tmp.resolve("kept.zarr").toString(),
                        ComputeOptions.builder().optimize(false).build());
        Path kept = computationDirs(work).get(0);
        assertThat(markerOf(kept).state()).isEqualTo("ended");
        assertThat(markerOf(kept).keepIntermediates()).isTrue();

        CubedArray failing = twoSteps(spec(work, false), WorkDirCleanerTest::failOnChunk2);
        assertThatThrownBy(() -> failing.toZarr(
                        tmp.resolve("failed.zarr").toString(),
                        ComputeOptions.builder()
                                .optimize(false)
                                .resume("my-run")
                                .build()))
                .hasStackTraceContaining("chunk 2 fails");
        Path resumable = work.resolve("cubed-my-run");
        assertThat(markerOf(resumable).resumable()).isTrue();
        assertThat(markerOf(resumable).state()).isEqualTo("ended");
        long keptBytes = bytesBelow(kept);
        long resumableBytes = bytesBelow(resumable);
        assertThat(keptBytes).isPositive();
        assertThat(resumableBytes).isPositive();

        List<WorkDirCleaner.Entry> first = WorkDirCleaner.clean(
                work.toString(), StoreOptions.empty(), options().build());
        assertThat(first).extracting(WorkDirCleaner.Entry::removed).containsExactly(false, false);
        assertThat(first.get(1).url()).isEqualTo(work + "/cubed-my-run");
        assertThat(first.get(1).reason())
                .startsWith("resumable (resume id my-run; its computation (process "
                        + ProcessHandle.current().pid())
                .endsWith("): resume it, or pass --include-resumable to delete it");
        assertThat(first.get(0).url()).isEqualTo(work + "/" + kept.getFileName());
        assertThat(first.get(0).reason()).startsWith("intermediates kept by keepIntermediates (its computation");
        assertThat(computationDirs(work)).containsExactly(kept, resumable);

        // On Hadoop's local file system too (HadoopStore's listing, content summary and deletion).
        StoreOptions hadoop = StoreOptions.empty().with(Stores.BACKEND_OPTION, "hadoop");
        List<WorkDirCleaner.Entry> all = WorkDirCleaner.clean(
                work.toString(),
                hadoop,
                options().includeKept(true).includeResumable(true).build());
        assertThat(all).extracting(WorkDirCleaner.Entry::removed).containsExactly(true, true);
        assertThat(all).extracting(WorkDirCleaner.Entry::bytes).containsExactly(keptBytes, resumableBytes);
        assertThat(computationDirs(work)).isEmpty();
    }

    /** Writes a directory with an intermediate of {@code chunkBytes} and the owner document {@code m}. */
    private Path orphan(Path work, String name, IntermediatesOwner.Marker m, int chunkBytes) throws IOException {
        Path dir = work.resolve(name);
        Files.createDirectories(dir.resolve("0001-map_blocks-0.zarr"));
        Files.write(dir.resolve("0001-map_blocks-0.zarr/0"), new byte[chunkBytes]);
        if (m != null) {
            Files.writeString(dir.resolve(IntermediatesOwner.KEY), m.toJson(), StandardCharsets.UTF_8);
        }
        return dir;
    }

    private static IntermediatesOwner.Marker marker(
            String host, String namespace, long pid, long processStart, long heartbeatAgo, boolean resumable) {
        long now = System.currentTimeMillis();
        return new IntermediatesOwner.Marker(
                "id",
                host,
                namespace,
                pid,
                processStart,
                now - heartbeatAgo - 1000,
                now - heartbeatAgo,
                IntermediatesOwner.LEASE.toMillis(),
                resumable,
                false,
                "running");
    }

    @Test
    void killedOwnersAndExpiredLeasesAreCleanedLiveOnesAndOtherFilesAreNot() throws Exception {
        Path work = tmp.resolve("work");
        long min = 60_000;
        // A process of this machine that has exited: its pid names no running process that started when it did.
        Process gone = new ProcessBuilder("true").start();
        long gonePid = gone.pid();
        long goneStart =
                gone.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(-1L);
        assertThat(gone.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Path killed = orphan(
                work,
                "cubed-a-killed",
                marker(HERE.host(), HERE.pidNamespace(), gonePid, goneStart, 5 * min, false),
                1000);
        Path expired = orphan(work, "cubed-b-expired", marker("elsewhere", null, 7, 1, 11 * min, false), 2000);
        Path leased = orphan(work, "cubed-c-leased", marker("elsewhere", null, 7, 1, 9 * min, false), 3000);
        // This process, silent for an hour (a long pause): alive, so kept; the pid is what counts on this machine.
        Path self = orphan(
                work,
                "cubed-d-self",
                marker(HERE.host(), HERE.pidNamespace(), HERE.pid(), HERE.processStartMillis(), 60 * min, false),
                4000);
        Path resumable = orphan(work, "cubed-e-resumable", marker("elsewhere", null, 7, 1, 60 * min, true), 5000);
        Path otherNamespace = orphan(
                work, "cubed-f-container", marker(HERE.host(), "pid:[1]", gonePid, goneStart, 5 * min, false), 6000);
        String oldId = LocalDateTime.now().minusDays(3).format(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss"));
        String newId = LocalDateTime.now().minusHours(1).format(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss"));
        Path unmarkedOld = orphan(work, "cubed-" + oldId + "-0123abcd", null, 7000);
        Path unmarkedNew = orphan(work, "cubed-" + newId + "-0123abcd", null, 8000);
        Path unmarkedNamed = orphan(work, "cubed-rechunk-0123456789abcdef", null, 9000);
        Path foreign = Files.createDirectories(work.resolve("not-cubed"));
        Files.write(foreign.resolve("x"), new byte[10]);
        long killedBytes = bytesBelow(killed);
        long expiredBytes = bytesBelow(expired);
        long unmarkedOldBytes = bytesBelow(unmarkedOld);

        List<WorkDirCleaner.Entry> dry = WorkDirCleaner.clean(
                work.toString(), StoreOptions.empty(), options().dryRun(true).build());
        List<Path> everything = computationDirs(work);
        assertThat(everything).hasSize(9);
        assertThat(dry.stream().filter(WorkDirCleaner.Entry::removed).map(WorkDirCleaner.Entry::url))
                .containsExactly(
                        work + "/" + unmarkedOld.getFileName(), work + "/cubed-a-killed", work + "/cubed-b-expired");
        assertThat(dry.stream().filter(WorkDirCleaner.Entry::removed).map(WorkDirCleaner.Entry::bytes))
                .containsExactly(unmarkedOldBytes, killedBytes, expiredBytes);
        assertThat(computationDirs(work)).as("a dry run deletes nothing").isEqualTo(everything);

        // Within --older-than, even a gone owner's directory stays.
        List<WorkDirCleaner.Entry> young = WorkDirCleaner.clean(
                work.toString(),
                StoreOptions.empty(),
                options().olderThan(Duration.ofMinutes(20)).build());
        assertThat(young.stream().filter(WorkDirCleaner.Entry::removed).map(WorkDirCleaner.Entry::url))
                .containsExactly(work + "/" + unmarkedOld.getFileName());
        assertThat(young.stream()
                        .filter(e -> e.url().endsWith("cubed-a-killed"))
                        .findFirst()
                        .orElseThrow()
                        .reason())
                .isEqualTo("its owner, process " + gonePid + " on " + HERE.host() + ", is no longer running (last"
                        + " heartbeat 5 min ago), less than --older-than 20 min ago");
        assertThat(unmarkedOld).doesNotExist();

        List<WorkDirCleaner.Entry> cleaned = WorkDirCleaner.clean(
                work.toString(), StoreOptions.empty(), options().build());
        assertThat(cleaned.stream().filter(WorkDirCleaner.Entry::removed).map(WorkDirCleaner.Entry::bytes))
                .containsExactly(killedBytes, expiredBytes);
        assertThat(cleaned.stream().filter(WorkDirCleaner.Entry::removed).map(WorkDirCleaner.Entry::reason))
                .containsExactly(
                        "its owner, process " + gonePid + " on " + HERE.host()
                                + ", is no longer running (last heartbeat 5 min ago)",
                        "its owner, process 7 on elsewhere, has sent no heartbeat for 11 min (lease 10 min)");
        assertThat(killed).doesNotExist();
        assertThat(expired).doesNotExist();
        assertThat(computationDirs(work))
                .containsExactly(unmarkedNew, leased, self, resumable, otherNamespace, unmarkedNamed);
        assertThat(foreign.resolve("x")).exists();
        assertThat(cleaned.stream()
                        .filter(e -> !e.removed())
                        .map(e -> e.url().substring(e.url().lastIndexOf('/') + 1) + ": " + e.reason()))
                .containsExactly(
                        unmarkedNew.getFileName() + ": no owner document, started 60 min ago, less than 24.0 h ago",
                        "cubed-c-leased: live (process 7 on elsewhere, last heartbeat 9 min ago, within its lease of"
                                + " 10 min)",
                        "cubed-d-self: live (process " + HERE.pid() + " on " + HERE.host() + ", this machine)",
                        "cubed-e-resumable: resumable (resume id id; its owner, process 7 on elsewhere, has sent no"
                                + " heartbeat for 60 min (lease 10 min)): resume it, or pass --include-resumable to"
                                + " delete it",
                        "cubed-f-container: live (process " + gonePid + " on " + HERE.host()
                                + ", last heartbeat 5 min ago, within its lease of 10 min)",
                        "cubed-rechunk-0123456789abcdef: no owner document, and its name is not a generated"
                                + " computation id (a resume id?)");
    }
}
