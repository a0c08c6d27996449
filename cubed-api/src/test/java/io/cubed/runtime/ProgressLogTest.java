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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Progress as log lines: a start line, tenths as tasks finish, and an end line whose bytes add up. */
class ProgressLogTest {
    @TempDir
    Path dir;

    @Test
    void startTenthsAndEndWithBytes() {
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
        y.toZarr(dir.resolve("y.zarr").toString(), new ProgressLog(lines::add, 0));

        // 20 tasks of one 10 x 10 float64 chunk each (800 bytes) in and out; the tasks count the bytes of the input
        // chunks
        // they are given (generated here, as the input is virtual) and of the chunks they write.
        assertThat(lines.get(0)).matches("op-\\d+ \\S.*: 20 tasks, .* per task");
        String end = lines.get(lines.size() - 1);
        assertThat(end).matches("op-\\d+ .*: done, 20 tasks in \\d+\\.\\d s, read 16.0 kB, wrote 16.0 kB");
        List<String> middle = lines.subList(1, lines.size() - 1);
        assertThat(middle).hasSize(9); // every tenth but the last, with no interval between lines
        Pattern p = Pattern.compile(".*: (\\d+)/20 tasks \\((\\d+)%\\)");
        long previous = 0;
        for (String line : middle) {
            Matcher m = p.matcher(line);
            assertThat(m.matches()).as(line).isTrue();
            long n = Long.parseLong(m.group(1));
            assertThat(n).isGreaterThan(previous);
            assertThat(Long.parseLong(m.group(2))).isEqualTo(n * 100 / 20);
            previous = n;
        }
    }
}
