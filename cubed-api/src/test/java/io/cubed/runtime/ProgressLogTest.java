package io.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.array.Blockwise;
import io.cubed.array.Creation;
import io.cubed.array.CubedArray;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Progress as log lines: a start line, periodic lines with tasks done, percent, rate, bytes and time left (also while
 * no task ends), further apart as an operation goes on, and an end line whose bytes add up.
 */
class ProgressLogTest {
    @TempDir
    Path dir;

    private static final Stage STAGE =
            new Stage("op-007", "add (blockwise)", 20, i -> TaskIo.NONE, 300_000_000, List.of());

    private static TaskResult result(long index) {
        return new TaskResult("op-007", index, 1, 0, 0, 1_000_000, 500_000, -1, -1);
    }

    @Test
    void periodicLinesGiveCountsRatesAndTimeLeft() {
        AtomicLong now = new AtomicLong(1_000_000);
        List<String> lines = new CopyOnWriteArrayList<>();
        ProgressLog p = new ProgressLog(lines::add, 10_000, now::get, false);
        p.onOperationStart(new Callback.OperationStart("c", STAGE));
        assertThat(lines).containsExactly("op-007 add (blockwise): 20 tasks, 300.0 MB per task");

        // Nothing finished for 10 s: a line anyway, so that a log shows the job is alive.
        now.addAndGet(10_000);
        p.tick(now.get());
        assertThat(lines.get(1))
                .isEqualTo(
                        "op-007 add (blockwise): 0/20 tasks (0%), 0.00 tasks/s, read 0 bytes (0 bytes/s), wrote 0 bytes"
                                + " (0 bytes/s), time left unknown (no task finished yet)");
        // Five tasks end before the next line is due (10 s later): no line.
        for (int i = 0; i < 5; i++) {
            now.addAndGet(1_000);
            p.onTaskEnd(new Callback.TaskEnd("c", STAGE, result(i)));
        }
        assertThat(lines).hasSize(2);
        // At 20 s the tick writes: 5 of 20 tasks in 20 s is 0.25 task/s, 15 left take 60 s.
        now.set(1_000_000 + 20_000);
        p.tick(now.get());
        assertThat(lines.get(2))
                .isEqualTo("op-007 add (blockwise): 5/20 tasks (25%), 0.25 tasks/s, read 5.0 MB (250.0 kB/s),"
                        + " wrote 2.5 MB (125.0 kB/s), about 1 min 00 s left");
        // The same tick again writes nothing.
        p.tick(now.get());
        assertThat(lines).hasSize(3);

        // Lines grow further apart: 10 min into the operation the next one is a minute later, not 10 s.
        now.set(1_000_000 + 600_000);
        p.tick(now.get());
        assertThat(lines).hasSize(4);
        now.addAndGet(30_000);
        p.tick(now.get());
        assertThat(lines).hasSize(4);
        now.addAndGet(30_000);
        p.tick(now.get());
        assertThat(lines).hasSize(5);

        for (int i = 5; i < 20; i++) {
            p.onTaskEnd(new Callback.TaskEnd("c", STAGE, result(i)));
        }
        p.onOperationEnd(new Callback.OperationEnd("c", STAGE, 1_000_000, 1_000_000 + 800_000));
        assertThat(lines.get(lines.size() - 1))
                .isEqualTo("op-007 add (blockwise): done, 20 tasks in 13 min 20 s (0.03 tasks/s), read 20.0 MB,"
                        + " wrote 10.0 MB");
    }

    @Test
    void theTimerRunsOnlyWhileOperationsRun() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        ProgressLog p = new ProgressLog(lines::add, 100);
        assertThat(p.tickerRunning()).isFalse();
        p.onOperationStart(new Callback.OperationStart("c", STAGE));
        assertThat(p.tickerRunning()).isTrue();
        long deadline = System.currentTimeMillis() + 10_000;
        while (lines.size() < 2 && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        assertThat(lines.get(1)).startsWith("op-007 add (blockwise): 0/20 tasks (0%)");
        p.onOperationEnd(new Callback.OperationEnd("c", STAGE, 0, 1000));
        assertThat(p.tickerRunning()).isFalse();
        // A failed computation ends without operation ends: the timer stops too.
        p.onOperationStart(new Callback.OperationStart("c", STAGE));
        p.onComputeEnd(new Callback.ComputeEnd("c", new IllegalStateException("failed")));
        assertThat(p.tickerRunning()).isFalse();
    }

    @Test
    void durationsAndRatesReadAsPeopleWrite() {
        assertThat(ProgressLog.duration(400)).isEqualTo("0.4 s");
        assertThat(ProgressLog.duration(42_300)).isEqualTo("42 s");
        assertThat(ProgressLog.duration(185_000)).isEqualTo("3 min 05 s");
        assertThat(ProgressLog.duration(7_620_000)).isEqualTo("2 h 07 min");
        assertThat(ProgressLog.rate(1, 2000)).isEqualTo("0.50");
        assertThat(ProgressLog.rate(32, 10_000)).isEqualTo("3.20");
        assertThat(ProgressLog.rate(32, 1000)).isEqualTo("32.0");
        assertThat(ProgressLog.rate(1400, 10_000)).isEqualTo("140");
    }

    @Test
    void aComputationLogsStartAndEndWithItsBytes() {
        Spec spec = Spec.builder()
                .workDir(dir.resolve("work").toString())
                .executor(new LocalExecutor(1, 1, 0))
                .build();
        CubedArray x = Creation.ones(new long[] {200, 10}, new int[] {10, 10}, DType.FLOAT64, spec);
        CubedArray y = Blockwise.mapBlocks(
                (blocks, id) -> {
                    Chunk out = Chunk.allocate(DType.FLOAT64, blocks[0].shape());
                    out.fill(io.cubed.dtype.Scalar.ofDouble(2.0));
                    return out;
                },
                DType.FLOAT64,
                x);
        List<String> lines = new CopyOnWriteArrayList<>();
        y.toZarr(dir.resolve("y.zarr").toString(), new ProgressLog(lines::add, 10_000));

        // 20 tasks of one 10 x 10 float64 chunk each (800 bytes) in and out; the tasks count the bytes of the input
        // chunks they are given (generated here, as the input is virtual) and of the chunks they write.
        assertThat(lines.get(0)).matches("op-\\d+ \\S.*: 20 tasks, .* per task");
        assertThat(lines.get(lines.size() - 1))
                .matches("op-\\d+ .*: done, 20 tasks in \\d+\\.\\d s \\([\\d.]+ tasks/s\\), read 16.0 kB, wrote"
                        + " 16.0 kB");
    }
}
