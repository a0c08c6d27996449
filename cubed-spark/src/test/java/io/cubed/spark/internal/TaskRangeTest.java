package io.cubed.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskRangeTest {
    @Test
    void splitCoversEveryIndexOnceInOrderInRangesOfEvenSize() {
        // 10 tasks, at most 3 per range: 4 ranges (as few as hold them), sizes 3, 3, 2, 2 rather than 3, 3, 3, 1.
        assertThat(TaskRange.split(10, 3))
                .containsExactly(new TaskRange(0, 3), new TaskRange(3, 6), new TaskRange(6, 8), new TaskRange(8, 10));
        assertThat(TaskRange.split(9, 3)).extracting(TaskRange::size).containsExactly(3L, 3L, 3L);
        assertThat(TaskRange.split(4, 1)).extracting(TaskRange::size).containsExactly(1L, 1L, 1L, 1L);
        assertThat(TaskRange.split(2, 16)).containsExactly(new TaskRange(0, 2));
        assertThat(TaskRange.split(0, 5)).isEmpty();
        assertThat(TaskRange.split(5_000_000_000L, 1_000_000_000)).hasSize(5);
        assertThat(new TaskRange(6, 9).toString()).isEqualTo("[6, 9)");
    }

    @Test
    void splitAndEvenMatchAReferenceLoop() {
        for (long n = 0; n <= 70; n++) {
            for (int per = 1; per <= 20; per++) {
                List<TaskRange> r = TaskRange.split(n, per);
                assertThat(r).as("split(%d, %d)", n, per).hasSize((int) ((n + per - 1) / per));
                checkCoversEvenly(r, n);
                for (TaskRange t : r) {
                    assertThat(t.size()).isLessThanOrEqualTo(per);
                }
            }
            for (int ranges = 1; ranges <= 20; ranges++) {
                List<TaskRange> r = TaskRange.even(n, ranges);
                assertThat(r).as("even(%d, %d)", n, ranges).hasSize((int) Math.min(n, ranges));
                checkCoversEvenly(r, n);
            }
        }
        assertThat(TaskRange.even(200, 14)).extracting(TaskRange::size).containsOnly(15L, 14L);
        assertThat(TaskRange.even(7, 3)).containsExactly(new TaskRange(0, 3), new TaskRange(3, 5), new TaskRange(5, 7));
    }

    @Test
    void guidedRangesShrinkToSingleTasksAndMatchAReferenceLoop() {
        for (int slots = 1; slots <= 6; slots++) {
            for (int max = 1; max <= 17; max += 4) {
                for (long n = 0; n <= 300; n++) {
                    List<TaskRange> r = TaskRange.guided(n, slots, max);
                    // Reference: each range takes ceil(remaining / (2 slots)) tasks, capped at max, at least 1.
                    long next = 0;
                    for (TaskRange t : r) {
                        long remaining = n - next;
                        long expected = Math.min(max, Math.max(1, (remaining + 2L * slots - 1) / (2L * slots)));
                        assertThat(t.start())
                                .as("guided(%d, %d, %d)", n, slots, max)
                                .isEqualTo(next);
                        assertThat(t.size())
                                .as("guided(%d, %d, %d) at %d", n, slots, max, next)
                                .isEqualTo(expected);
                        next = t.end();
                    }
                    assertThat(next).isEqualTo(n);
                    // Never fewer ranges than slots (while there are tasks), and the last ones are single tasks.
                    assertThat(r).hasSizeGreaterThanOrEqualTo((int) Math.min(n, slots));
                    for (int i = Math.max(0, r.size() - (int) Math.min(n, slots)); i < r.size(); i++) {
                        assertThat(r.get(i).size()).isEqualTo(1);
                    }
                }
            }
        }
        // Millions of tasks: the full ranges are counted, not looped over, and the list is exact.
        List<TaskRange> big = TaskRange.guided(50_000_000L, 2, 16);
        assertThat(big.get(0)).isEqualTo(new TaskRange(0, 16));
        assertThat(big.get(big.size() - 1).end()).isEqualTo(50_000_000L);
        assertThat(big.size()).isBetween(50_000_000 / 16, 50_000_000 / 16 + 40);
        assertThatThrownBy(() -> TaskRange.guided(Long.MAX_VALUE / 2, 2, 16)).hasMessageContaining("more tasks per");
        assertThatThrownBy(() -> TaskRange.guided(10, 0, 16)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> TaskRange.guided(-1, 2, 16)).hasMessageContaining("not be negative");
    }

    /** Consecutive from 0 to n, every index once, sizes within one of each other (none empty). */
    private static void checkCoversEvenly(List<TaskRange> ranges, long n) {
        long next = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        for (TaskRange t : ranges) {
            assertThat(t.start()).isEqualTo(next);
            next = t.end();
            min = Math.min(min, t.size());
            max = Math.max(max, t.size());
        }
        assertThat(next).isEqualTo(n);
        if (!ranges.isEmpty()) {
            assertThat(min).isPositive();
            assertThat(max - min).isLessThanOrEqualTo(1);
        }
    }

    @Test
    void badRangesAreRefused() {
        assertThatThrownBy(() -> new TaskRange(5, 4)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> TaskRange.split(10, 0)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> TaskRange.even(10, 0)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> TaskRange.even(-1, 2)).hasMessageContaining("not be negative");
        assertThatThrownBy(() -> TaskRange.split(Long.MAX_VALUE / 2, 1))
                .hasMessageContaining("more tasks per partition");
    }
}
