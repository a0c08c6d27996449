package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver killed mid-computation (a child JVM running {@code cubed rechunk} or {@code cubed copy} on the in-process
 * executor, with {@code --resume}, destroyed forcibly once some but not all output chunks exist) and the same command
 * started again in a new process: the output equals the input element by element, and the second run computes exactly
 * the chunks missing at kill time.
 */
class ResumeAfterKillIT {
    private static final int ROWS = 200;
    private static final int COLS = 4000;
    private static final Pattern RESUME_ID = Pattern.compile("resume id (rechunk-[0-9a-f]{16})\n");
    private static final Pattern TASKS = Pattern.compile("tasks: (\\d+) run, (\\d+) skipped");

    @TempDir
    Path tmp;

    /** Input value at (i, j): unique per element, so any misplaced element shows. */
    private static double value(int i, int j) {
        return i * 10_000.0 + j + 0.25;
    }

    /**
     * A {@code ROWS x COLS} float64 array in row blocks of one row, bz2-compressed so that a job reading it spends a
     * few milliseconds per chunk and the test can stop it half-way.
     */
    private String input() {
        int rowChunk = 1;
        int colChunk = COLS;
        String url = tmp.resolve("in.zarr").toString();
        ZarrArray a = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {ROWS, COLS}, new int[] {rowChunk, colChunk}, DType.FLOAT64)
                        .compressor(Compressor.parseSpec("bz2:9"))
                        .build());
        for (int bi = 0; bi < ROWS / rowChunk; bi++) {
            for (int bj = 0; bj < COLS / colChunk; bj++) {
                double[] v = new double[rowChunk * colChunk];
                for (int i = 0; i < rowChunk; i++) {
                    for (int j = 0; j < colChunk; j++) {
                        v[i * colChunk + j] = value(bi * rowChunk + i, bj * colChunk + j);
                    }
                }
                a.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {rowChunk, colChunk}, v), bi, bj);
            }
        }
        return url;
    }

    /**
     * {@code cubed rechunk SRC DST} to 100 output chunks of 2 rows (64 kB) on one thread, with a memory budget that
     * fits one output chunk per task, not two, and {@code resumeArgs}.
     */
    private List<String> rechunkArgs(String src, String dst, String... resumeArgs) {
        List<String> args = new ArrayList<>(List.of(
                "rechunk",
                src,
                dst,
                "--chunks",
                "2,-1",
                "--allowed-mem",
                "400KB",
                "--reserved-mem",
                "100KB",
                "--threads",
                "1",
                "--work-dir",
                tmp.resolve("work").toString()));
        args.addAll(List.of(resumeArgs));
        return args;
    }

    @Test
    void rechunkKilledAndResumedComputesOnlyTheMissingChunks() throws Exception {
        String src = input();
        String dst = tmp.resolve("out.zarr").toString();
        List<String> args = rechunkArgs(src, dst, "--resume");
        long atKill = runAndKill(args, dst, ROWS / 2);

        // The same command again, in a new process.
        String out = runToEnd(args);
        Matcher firstId = RESUME_ID.matcher(Files.readString(tmp.resolve("first.log")));
        assertThat(firstId.find()).as("the killed run printed its resume id").isTrue();
        assertThat(out)
                .contains("1 operations, " + ROWS / 2 + " tasks")
                .as("the same id derived from the same arguments")
                .contains("resume id " + firstId.group(1) + "\n");
        assertTasks(out, ROWS / 2 - atKill, atKill);
        assertEqualsInput(dst, 2);
    }

    @Test
    void rechunkKilledAndResumedFromItsSavedPlan() throws Exception {
        String src = input();
        String dst = tmp.resolve("out.zarr").toString();
        Path plan = tmp.resolve("plan.json");
        List<String> args = rechunkArgs(src, dst, "--save-plan", plan.toString());
        long atKill = runAndKill(args, dst, ROWS / 2);

        // A new driver process with nothing but the plan file.
        String saved = Files.readString(plan);
        assertThat(saved).contains("\"format\": \"cubed-plan/1\"").contains("\"job\": \"rechunk\"");
        Matcher id = Pattern.compile("\"resumeId\": \"(rechunk-[0-9a-f]{16})\"").matcher(saved);
        assertThat(id.find()).as(saved).isTrue();
        String out = runToEnd(List.of("resume", plan.toString()));
        assertThat(out).contains("resume id " + id.group(1) + "\n");
        assertTasks(out, ROWS / 2 - atKill, atKill);
        assertEqualsInput(dst, 2);
    }

    @Test
    void copyKilledAndResumedCopiesOnlyTheMissingChunks() throws Exception {
        String src = input(); // 200 chunks of 32 kB
        String dst = tmp.resolve("copy.zarr").toString();
        List<String> args = List.of("copy", src, dst, "--codec", "bz2:9", "--threads", "1", "--resume");
        long atKill = runAndKill(args, dst, ROWS);

        String out = runToEnd(args);
        assertTasks(out, ROWS - atKill, atKill);
        assertEqualsInput(dst, 1);
    }

    /**
     * Starts the job and destroys it forcibly once at least one of {@code total} output chunks exists; returns the
     * number of chunks written at kill time (counted after the process is gone), asserted to be some but not all.
     */
    private long runAndKill(List<String> args, String dst, long total) throws Exception {
        Path log = tmp.resolve("first.log");
        Process p = CliRun.startChild(args, log);
        Path dir = Path.of(dst);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (chunkFiles(dir) < 1) {
            assertThat(p.isAlive())
                    .as("job still running:\n" + Files.readString(log))
                    .isTrue();
            assertThat(System.nanoTime()).as("first chunks written in time").isLessThan(deadline);
            Thread.sleep(2);
        }
        p.destroyForcibly();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        long written = ZarrArray.open(dst).writtenChunkCount();
        assertThat(written).as("chunks written when killed").isBetween(1L, total - 1);
        System.out.println(args.get(0) + " killed with " + written + " of " + total + " chunks written");
        return written;
    }

    private static long chunkFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> !f.getFileName().toString().startsWith(".")).count();
        }
    }

    private String runToEnd(List<String> args) throws Exception {
        Path log = tmp.resolve("second.log");
        Process p = CliRun.startChild(args, log);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("resumed job finished").isTrue();
        String out = Files.readString(log);
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    private static void assertTasks(String out, long run, long skipped) {
        Matcher m = TASKS.matcher(out);
        assertThat(m.find()).as(out).isTrue();
        assertThat(Long.parseLong(m.group(1)))
                .as("tasks run on resuming\n" + out)
                .isEqualTo(run);
        assertThat(Long.parseLong(m.group(2)))
                .as("tasks skipped on resuming\n" + out)
                .isEqualTo(skipped);
    }

    /** Every element of the array at {@code url} (row chunks of {@code rowChunk}) against {@link #value}. */
    private static void assertEqualsInput(String url, int rowChunk) {
        ZarrArray a = ZarrArray.open(url);
        assertThat(a.metadata().shape()).containsExactly(ROWS, COLS);
        assertThat(a.writtenChunkCount()).isEqualTo(ROWS / rowChunk);
        for (int bi = 0; bi < ROWS / rowChunk; bi++) {
            double[] v = a.readChunk(bi, 0).doubles();
            for (int i = 0; i < rowChunk; i++) {
                for (int j = 0; j < COLS; j++) {
                    double expected = value(bi * rowChunk + i, j);
                    if (v[i * COLS + j] != expected) {
                        throw new AssertionError("element (" + (bi * rowChunk + i) + ", " + j + ") of " + url + " is "
                                + v[i * COLS + j] + ", expected " + expected);
                    }
                }
            }
        }
    }
}
