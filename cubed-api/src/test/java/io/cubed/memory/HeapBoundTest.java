package io.cubed.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HeapBoundTest {
    @Test
    void theBoundIsTheBaselinePlusThreadsTimesTheLargestTaskWithTwentyPerCent() {
        HeapBound b = HeapBound.of(180_000_000L, 2, 284_500_000L);
        // baseline + threads × largest task × 1.2
        assertThat(b.bytes()).isEqualTo(180_000_000L + 2 * 284_500_000L * 12 / 10);
        assertThat(b.tasksBytes()).isEqualTo(682_800_000L);
        assertThat(b.toString()).isEqualTo("862.8 MB = 180.0 MB + 2 × 284.5 MB × 1.2");
        // at 16 threads, the same task
        assertThat(HeapBound.of(180_000_000L, 16, 284_500_000L).bytes())
                .isEqualTo(180_000_000L + 16 * 284_500_000L * 12 / 10);
    }

    @Test
    void aPlanWithoutTasksIsBoundByItsBaseline() {
        assertThat(HeapBound.of(50_000_000L, 4, 0).bytes()).isEqualTo(50_000_000L);
    }

    @Test
    void refusesNegativeFiguresAndNoThreads() {
        assertThatThrownBy(() -> HeapBound.of(-1, 2, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HeapBound.of(1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HeapBound.of(1, 2, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsThisProcesssResidentSetOnLinux() {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                java.nio.file.Files.exists(java.nio.file.Path.of("/proc/self/status")), "not Linux");
        long rss = HeapBound.residentBytes();
        // A JVM running JUnit holds tens of MB at the least, and its peak is at least what it holds now.
        assertThat(rss).isGreaterThan(20_000_000L);
        assertThat(HeapBound.peakResidentBytes()).isGreaterThanOrEqualTo(rss);
    }
}
