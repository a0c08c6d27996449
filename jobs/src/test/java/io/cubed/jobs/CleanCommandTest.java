package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.plan.IntermediatesOwner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cubed clean} on a work directory written here: what it prints, deletes and counts. */
class CleanCommandTest {
    @TempDir
    Path tmp;

    /**
     * A directory {@code name} in {@code work} with {@code bytes} bytes of chunk data, owned by process 7 of another
     * machine whose last heartbeat was {@code minutesAgo} minutes ago.
     */
    private static Path owned(Path work, String name, int bytes, long minutesAgo, boolean resumable) throws Exception {
        Path dir = Files.createDirectories(work.resolve(name).resolve("0001-rechunk-0.zarr"))
                .getParent();
        Files.write(dir.resolve("0001-rechunk-0.zarr/0.0"), new byte[bytes]);
        long now = System.currentTimeMillis();
        long beat = now - Duration.ofMinutes(minutesAgo).toMillis();
        IntermediatesOwner.Marker m = new IntermediatesOwner.Marker(
                name.substring("cubed-".length()),
                "elsewhere",
                null,
                7,
                1,
                beat - 1000,
                beat,
                IntermediatesOwner.LEASE.toMillis(),
                resumable,
                false,
                "running");
        Files.writeString(dir.resolve(IntermediatesOwner.KEY), m.toJson(), StandardCharsets.UTF_8);
        return dir;
    }

    @Test
    void dryRunThenCleanRemovesWhatNoLiveComputationOwnsAndCountsItsBytes() throws Exception {
        Path work = tmp.resolve("work");
        Path stale = owned(work, "cubed-stale", 1500, 90, false);
        long staleBytes = 1500 + Files.size(stale.resolve(IntermediatesOwner.KEY));
        Path recent = owned(work, "cubed-recent", 2500, 30, false);
        long recentBytes = 2500 + Files.size(recent.resolve(IntermediatesOwner.KEY));
        Path live = owned(work, "cubed-live", 100, 2, false);
        Path resumable = owned(work, "cubed-resumable", 100, 600, true);

        CliRun dry = CliRun.of("clean", "--work-dir", work.toString(), "--dry-run");
        assertThat(dry.code()).as(dry.err()).isZero();
        assertThat(dry.out())
                .isEqualTo("looking at " + work + " (intermediates whose owner is gone)\n"
                        + "kept " + work + "/cubed-live: live (process 7 on elsewhere, last heartbeat 2 min ago,"
                        + " within its lease of 10 min)\n"
                        + "would remove " + work + "/cubed-recent (" + Sizes.format(recentBytes) + "): its owner,"
                        + " process 7 on elsewhere, has sent no heartbeat for 30 min (lease 10 min)\n"
                        + "kept " + work + "/cubed-resumable: resumable (resume id resumable; its owner, process 7 on"
                        + " elsewhere, has sent no heartbeat for 10.0 h (lease 10 min)): resume it, or pass"
                        + " --include-resumable to delete it\n"
                        + "would remove " + work + "/cubed-stale (" + Sizes.format(staleBytes) + "): its owner,"
                        + " process 7 on elsewhere, has sent no heartbeat for 90 min (lease 10 min)\n"
                        + "would remove 2 directories, freeing " + Sizes.format(recentBytes + staleBytes) + " ("
                        + (recentBytes + staleBytes) + " bytes); kept 2\n");
        assertThat(stale).exists();
        assertThat(recent).exists();

        CliRun older = CliRun.of("clean", "--work-dir", work.toString(), "--older-than", "1h");
        assertThat(older.code()).as(older.err()).isZero();
        assertThat(older.out())
                .startsWith("cleaning " + work + " (intermediates whose owner is gone, last alive over 1h ago)\n")
                .contains("kept " + work + "/cubed-recent: its owner, process 7 on elsewhere, has sent no heartbeat"
                        + " for 30 min (lease 10 min), less than --older-than 60 min ago\n")
                .endsWith("removed 1 directory, freed " + Sizes.format(staleBytes) + " (" + staleBytes
                        + " bytes); kept 3\n");
        assertThat(stale).doesNotExist();
        assertThat(recent).exists();

        // The work directory from a properties file, as every command reads workDir.
        Path props = tmp.resolve("cubed.properties");
        Files.writeString(props, "workDir=" + work + "\n");
        CliRun all = CliRun.of("clean", "--config", props.toString(), "--include-resumable");
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(all.out())
                .startsWith("cleaning " + work + " (")
                .contains("removed " + work + "/cubed-resumable (")
                .endsWith("; kept 1\n");
        assertThat(recent).doesNotExist();
        assertThat(resumable).doesNotExist();
        assertThat(live).exists();
    }

    @Test
    void aWorkDirectoryThatIsMissingOrAFileIsRefused() throws Exception {
        CliRun missing = CliRun.of("clean", "--work-dir", tmp.resolve("typo").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("--work-dir " + tmp.resolve("typo") + " does not exist");
        java.nio.file.Files.writeString(tmp.resolve("file"), "x");
        CliRun file = CliRun.of("clean", "--work-dir", tmp.resolve("file").toString());
        assertThat(file.code()).isEqualTo(2);
        assertThat(file.err()).contains("is a file, not a directory");
    }

    @Test
    void olderThanTakesAWholeNumberAndAUnit() {
        assertThat(CleanCommand.parseDuration("90")).isEqualTo(Duration.ofSeconds(90));
        assertThat(CleanCommand.parseDuration("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(CleanCommand.parseDuration("30m")).isEqualTo(Duration.ofMinutes(30));
        assertThat(CleanCommand.parseDuration("30min")).isEqualTo(Duration.ofMinutes(30));
        assertThat(CleanCommand.parseDuration("12H")).isEqualTo(Duration.ofHours(12));
        assertThat(CleanCommand.parseDuration("7d")).isEqualTo(Duration.ofDays(7));
        for (String bad : new String[] {"12x", "-1h", "1.5h", ""}) {
            CliRun r = CliRun.of("clean", "--work-dir", tmp.toString(), "--older-than", bad);
            assertThat(r.code()).as(bad).isEqualTo(2);
            assertThat(r.err())
                    .isEqualTo("cubed: --older-than must be a whole number with a unit s, m, h or d (e.g. 30m, 12h,"
                            + " 7d), got '" + bad + "'\n");
        }
    }
}
