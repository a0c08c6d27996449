package io.cubed.jobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The heap a workload's JVM gets from its plan, and the options it is started with. */
class WorkloadJvmTest {
    private static final long MB = 1_000_000L;

    @Test
    void theHeapIsThePlansBoundWithoutTheReserveAndAChunkMorePerThreadInWholeMib() {
        // W3's plan: tasks of 284.5 MB, 100 MB of them the reserve, on 2 threads, over 9 MB at rest:
        // 9 + 2 × 184.5 × 1.2 = 451.8 MB, in whole MiB (431 MiB, rounded up).
        long heap = WorkloadJvm.heapBytes(9 * MB, 2, 284_500_000L, 100 * MB, 0);
        assertThat(heap).isEqualTo(431L << 20);
        assertThat(heap).isGreaterThanOrEqualTo(451_800_000L).isLessThan(451_800_000L + (1 << 20));
        // 16 threads: 9 + 16 × 184.5 × 1.2 = 3551.4 MB
        assertThat(WorkloadJvm.heapBytes(9 * MB, 16, 284_500_000L, 100 * MB, 0))
                .isGreaterThanOrEqualTo(3_551_400_000L)
                .isLessThan(3_551_400_000L + (1 << 20));
        // Without a reserve the whole task counts: 9 + 2 × 284.5 × 1.2 = 691.8 MB (660 MiB).
        assertThat(WorkloadJvm.heapBytes(9 * MB, 2, 284_500_000L, 0, 0)).isEqualTo(660L << 20);
        // A plan of tiny tasks gets the floor of 128 MiB, and a reserve above the task counts as no task.
        assertThat(WorkloadJvm.heapBytes(0, 1, 10 * MB, 0, 0)).isEqualTo(128L << 20);
        assertThat(WorkloadJvm.heapBytes(0, 4, 10 * MB, 100 * MB, 0)).isEqualTo(128L << 20);
        // Each thread's largest chunk once more (W3's 128 × 16384 float64, 16.8 MB): 451.8 + 2 × 16.777216 = 485.4 MB.
        long withChunks = WorkloadJvm.heapBytes(9 * MB, 2, 284_500_000L, 100 * MB, 128 * 16384 * 8L);
        assertThat(withChunks).isGreaterThanOrEqualTo(485_354_432L).isLessThan(485_354_432L + (1 << 20));
    }

    @Test
    void theNewJvmKeepsEveryOptionButHeapSizesAndRegions() {
        assertThat(WorkloadJvm.replaced("-Xmx4g")).isTrue();
        assertThat(WorkloadJvm.replaced("-Xms512m")).isTrue();
        assertThat(WorkloadJvm.replaced("-XX:MaxHeapSize=1073741824")).isTrue();
        assertThat(WorkloadJvm.replaced("-XX:MaxRAMPercentage=50")).isTrue();
        assertThat(WorkloadJvm.replaced("-XX:G1HeapRegionSize=32m")).isTrue();
        assertThat(WorkloadJvm.replaced("--add-modules=jdk.incubator.vector")).isFalse();
        assertThat(WorkloadJvm.replaced("-XX:SharedArchiveFile=cubed.jsa")).isFalse();
        List<String> cmd = WorkloadJvm.command(600L << 20);
        assertThat(cmd).contains("-Xmx600m", io.cubed.jobs.CubedCli.class.getName());
        assertThat(cmd.stream().filter(a -> a.startsWith("-Xmx"))).containsExactly("-Xmx600m");
        assertThat(cmd.get(cmd.indexOf("-cp") + 1)).isEqualTo(System.getProperty("java.class.path"));
    }
}
