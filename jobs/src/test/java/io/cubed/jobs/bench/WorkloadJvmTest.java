package io.cubed.jobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Manipulation;
import io.cubed.plan.Spec;
import io.cubed.primitive.RechunkStage;
import io.cubed.runtime.LocalExecutor;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The heap a workload's JVM gets from its plan, and the options it is started with. */
class WorkloadJvmTest {
    private static final long MB = 1_000_000L;

    @Test
    void theHeapIsThePlansBoundWithoutTheReserveAndTwoChunksMorePerThreadInWholeMib() {
        // W3's plan: tasks of 284.5 MB, 100 MB of them the reserve, on 2 threads, over 9 MB at rest:
        // 9 + 2 × 184.5 × 1.2 = 451.8 MB, in whole MiB (431 MiB, rounded up), in regions of 1 MiB.
        WorkloadJvm.Heap heap = WorkloadJvm.heap(9 * MB, 2, 284_500_000L, 100 * MB, new long[0]);
        assertThat(heap.bytes()).isEqualTo(431L << 20);
        assertThat(heap.bytes()).isGreaterThanOrEqualTo(451_800_000L).isLessThan(451_800_000L + (1 << 20));
        assertThat(heap.regionBytes()).isEqualTo(1L << 20);
        // 16 threads: 9 + 16 × 184.5 × 1.2 = 3551.4 MB, in regions of 2 MiB (3387 MiB / 2048, rounded up)
        WorkloadJvm.Heap sixteen = WorkloadJvm.heap(9 * MB, 16, 284_500_000L, 100 * MB, new long[0]);
        assertThat(sixteen.bytes()).isGreaterThanOrEqualTo(3_551_400_000L).isLessThan(3_551_400_000L + (1 << 20));
        assertThat(sixteen.regionBytes()).isEqualTo(2L << 20);
        // Without a reserve the whole task counts: 9 + 2 × 284.5 × 1.2 = 691.8 MB (660 MiB).
        assertThat(WorkloadJvm.heap(9 * MB, 2, 284_500_000L, 0, new long[0]).bytes())
                .isEqualTo(660L << 20);
        // A plan of tiny tasks gets the floor of 128 MiB, and a reserve above the task counts as no task.
        assertThat(WorkloadJvm.heap(0, 1, 10 * MB, 0, new long[0]).bytes()).isEqualTo(128L << 20);
        assertThat(WorkloadJvm.heap(0, 4, 10 * MB, 100 * MB, new long[0]).bytes())
                .isEqualTo(128L << 20);
        // Each thread's largest chunk twice more as G1 holds it, and the tasks as G1 holds their chunks: W3's stripes
        // of 128 × 16384 float64, 16 MiB and a header, take 17 regions of 1 MiB, so 9 + 2 × 184.5 × 17/16 × 1.2 + 2 ×
        // 2 × 17.825792 = 550.8 MB.
        long stripe = 128 * 16384 * 8L;
        WorkloadJvm.Heap withChunks = WorkloadJvm.heap(9 * MB, 2, 284_500_000L, 100 * MB, new long[] {stripe});
        long expected = 9 * MB + Math.round(2 * Math.ceil(184_500_000.0 * 17 / 16) * 1.2) + 2 * 2 * (17L << 20);
        assertThat(expected).isEqualTo(550_778_168L);
        assertThat(withChunks.bytes()).isGreaterThanOrEqualTo(expected).isLessThan(expected + (1 << 20));
    }

    @Test
    void theTasksGetTheHeapTheirChunksTakeInWholeRegions() {
        long stripe = 128 * 16384 * 8L;
        long eightMib = 1024 * 1024 * 8L;
        long twoMib = 512 * 512 * 8L;
        // 8 MiB chunks take 9 regions of 1 MiB (1/8 more), the worst ratio beside the stripes' 17/16: the tasks' part
        // grows by 9/8, 9 + 2 × 184.5 × 9/8 × 1.2 + 2 × 2 × 17.825792 = 578.5 MB.
        assertThat(WorkloadJvm.rounding(new long[] {eightMib, stripe}, 1L << 20))
                .isEqualTo(9.0 / 8);
        WorkloadJvm.Heap eight = WorkloadJvm.heap(9 * MB, 2, 284_500_000L, 100 * MB, new long[] {eightMib, stripe});
        long expected = 9 * MB + Math.round(2 * Math.ceil(184_500_000.0 * 9 / 8) * 1.2) + 2 * 2 * (17L << 20);
        assertThat(eight.bytes()).isGreaterThanOrEqualTo(expected).isLessThan(expected + (1 << 20));
        // 2 MiB chunks take 3 (1/2 more): 9 + 2 × 184.5 × 1.5 × 1.2 + 2 × 2 × 17.825792 = 744.5 MB.
        assertThat(WorkloadJvm.rounding(new long[] {twoMib, stripe}, 1L << 20)).isEqualTo(1.5);
        WorkloadJvm.Heap two = WorkloadJvm.heap(9 * MB, 2, 284_500_000L, 100 * MB, new long[] {twoMib, stripe});
        expected = 9 * MB + Math.round(2 * 184_500_000.0 * 1.5 * 1.2) + 2 * 2 * (17L << 20);
        assertThat(two.bytes()).isGreaterThanOrEqualTo(expected).isLessThan(expected + (1 << 20));
        // 16 threads: G1 would take regions of 4 MiB for the heap (4353 MiB), in which 8 MiB chunks take 12 MiB; the
        // heap's regions are 1 MiB, where they take 9.
        WorkloadJvm.Heap sixteen = WorkloadJvm.heap(9 * MB, 16, 284_500_000L, 100 * MB, new long[] {eightMib, stripe});
        assertThat(WorkloadJvm.g1RegionBytes(sixteen.bytes())).isEqualTo(4L << 20);
        assertThat(sixteen.regionBytes()).isEqualTo(1L << 20);
        expected = 9 * MB + Math.round(16 * Math.ceil(184_500_000.0 * 9 / 8) * 1.2) + 2 * 16 * (17L << 20);
        assertThat(sixteen.bytes()).isGreaterThanOrEqualTo(expected).isLessThan(expected + (1 << 20));
        // Where no smaller region wastes less, G1's own stays.
        assertThat(WorkloadJvm.heap(9 * MB, 16, 284_500_000L, 100 * MB, new long[] {8192})
                        .regionBytes())
                .isEqualTo(2L << 20);
        // In regions of 8 MiB (heaps over 8 GiB) 2 MiB chunks are not humongous, and the stripes take 3 regions.
        assertThat(WorkloadJvm.rounding(new long[] {twoMib, stripe}, 8L << 20)).isEqualTo(1.5);
        assertThat(WorkloadJvm.rounding(new long[] {twoMib}, 8L << 20)).isEqualTo(1.0);
    }

    @Test
    void anArrayTakesItsBytesAndHeaderOrWholeRegionsWhenItIsLargerThanHalfOne() {
        long mib = 1L << 20;
        assertThat(WorkloadJvm.footprint(1000, mib)).isEqualTo(1016);
        assertThat(WorkloadJvm.footprint(1001, mib)).isEqualTo(1024); // rounded up to 8 bytes
        // Half a region exactly is not humongous; one byte more takes a whole region.
        assertThat(WorkloadJvm.footprint(mib / 2 - 16, mib)).isEqualTo(mib / 2);
        assertThat(WorkloadJvm.footprint(mib / 2, mib)).isEqualTo(mib);
        assertThat(WorkloadJvm.footprint(2 * mib, mib)).isEqualTo(3 * mib);
        assertThat(WorkloadJvm.footprint(2 * mib, 8 * mib)).isEqualTo(2 * mib + 16);
        assertThat(WorkloadJvm.rounding(new long[0], mib)).isEqualTo(1.0);
        // Only arrays that take whole regions count: a 0-d result's 8 bytes take 24, which is no region's waste.
        assertThat(WorkloadJvm.rounding(new long[] {0, 8, 1000, 8192}, mib)).isEqualTo(1.0);
        assertThat(WorkloadJvm.rounding(new long[] {8, 8192, 8L << 20}, mib)).isEqualTo(9.0 / 8);
    }

    @Test
    void theRegionSizeIsG1sForTheHeap() {
        // As JDK 17 chooses it (-XX:+PrintFlagsFinal): a 2048th of the heap rounded up to a power of two, 1 to 32 MiB.
        long mib = 1L << 20;
        assertThat(WorkloadJvm.g1RegionBytes(128 * mib)).isEqualTo(mib);
        assertThat(WorkloadJvm.g1RegionBytes(365 * mib)).isEqualTo(mib);
        assertThat(WorkloadJvm.g1RegionBytes(2048 * mib)).isEqualTo(mib);
        assertThat(WorkloadJvm.g1RegionBytes(2100 * mib)).isEqualTo(2 * mib);
        assertThat(WorkloadJvm.g1RegionBytes(4096 * mib)).isEqualTo(2 * mib);
        assertThat(WorkloadJvm.g1RegionBytes(5120 * mib)).isEqualTo(4 * mib);
        assertThat(WorkloadJvm.g1RegionBytes(8192 * mib)).isEqualTo(4 * mib);
        assertThat(WorkloadJvm.g1RegionBytes(70 * 1024 * mib)).isEqualTo(32 * mib);
    }

    @Test
    void thePlanGivesTheChunkSizesOfItsIntermediatesToo(@TempDir Path dir) throws Exception {
        // W3 at smoke size (512² float64 from (16, 512) to (512, 16) stripes, 64 KiB chunks) within 1 MB a task: one
        // stage would copy the whole array (2 MiB) at once, so the rechunk goes through chunks of another size.
        BenchData.Size size = BenchData.Size.of(1, true);
        BenchSuite.ensureInput(
                "s", dir.resolve("inputs").resolve("s.zarr"), size, 1, new PrintWriter(Writer.nullWriter()));
        Spec spec = Spec.builder()
                .workDir(dir.resolve("work").toString())
                .allowedMem("1MB")
                .reservedMem("0")
                .executor(new LocalExecutor(1, 1))
                .build();
        Workload w3 = Workloads.all().stream()
                .filter(w -> w.id().equals("W3"))
                .findFirst()
                .orElseThrow();
        WorkloadJvm.Planned planned = WorkloadJvm.plan(w3, spec, dir, 1);
        CubedArray s = Cubed.fromZarr(dir.resolve("inputs").resolve("s.zarr").toString(), spec);
        List<RechunkStage> stages =
                Manipulation.planner(s, new int[] {512, 16}).plan().stages();
        assertThat(stages).hasSizeGreaterThan(1);
        // The stripes (64 KiB) and every stage's chunks, the intermediates' included, each size once.
        TreeSet<Long> expected = new TreeSet<>(List.of(65536L));
        for (RechunkStage st : stages) {
            expected.add((long) st.outputChunks()[0] * st.outputChunks()[1] * 8);
        }
        assertThat(expected).hasSizeGreaterThan(1);
        assertThat(planned.chunkBytes())
                .containsExactly(expected.stream().mapToLong(Long::longValue).toArray());
        assertThat(planned.largestTaskBytes()).isPositive().isLessThanOrEqualTo(1_000_000L);
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
        List<String> cmd = WorkloadJvm.command(new WorkloadJvm.Heap(600L << 20, 1L << 20));
        assertThat(cmd).contains("-Xmx600m", "-XX:G1HeapRegionSize=1m", io.cubed.jobs.CubedCli.class.getName());
        assertThat(cmd.stream().filter(a -> a.startsWith("-Xmx"))).containsExactly("-Xmx600m");
        assertThat(cmd.stream().filter(a -> a.startsWith("-XX:G1HeapRegionSize=")))
                .containsExactly("-XX:G1HeapRegionSize=1m");
        assertThat(cmd.get(cmd.indexOf("-cp") + 1)).isEqualTo(System.getProperty("java.class.path"));
    }
}
