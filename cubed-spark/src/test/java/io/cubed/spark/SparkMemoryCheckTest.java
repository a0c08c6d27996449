package io.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.memory.MemorySize;
import io.cubed.plan.Spec;
import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The memory arithmetic, term by term: user memory = (heap − reserved) × (1 − fraction), shared by concurrent tasks. */
class SparkMemoryCheckTest {
    private static final long MIB = 1024L * 1024;
    private static final long RESERVED = 300 * MIB;

    private static SparkConf cluster() {
        return new SparkConf(false).setMaster("spark://10.0.0.1:7077");
    }

    @Test
    void executorUserMemoryIsSharedByItsCores() {
        SparkConf conf = cluster().set("spark.executor.memory", "4g").set("spark.executor.cores", "4");
        SparkMemoryCheck c = SparkMemoryCheck.of(conf, 123, 99);
        assertThat(c.local()).isFalse();
        assertThat(c.heapBytes()).isEqualTo(4096 * MIB);
        assertThat(c.reservedBytes()).isEqualTo(RESERVED);
        assertThat(c.memoryFraction()).isEqualTo(0.6);
        assertThat(c.concurrentTasks()).isEqualTo(4);
        assertThat(c.userMemoryBytes()).isEqualTo((long) ((4096 * MIB - RESERVED) * (1 - 0.6)));
        assertThat(c.perTaskBytes()).isEqualTo((long) ((4096 * MIB - RESERVED) * (1 - 0.6)) / 4);
    }

    @Test
    void taskCpusFractionAndTestingReservedMemoryCount() {
        SparkConf conf = cluster()
                .set("spark.executor.memory", "2048m")
                .set("spark.executor.cores", "6")
                .set("spark.task.cpus", "2")
                .set("spark.memory.fraction", "0.25")
                .set("spark.testing.reservedMemory", Long.toString(64 * MIB));
        SparkMemoryCheck c = SparkMemoryCheck.of(conf, 123, 99);
        assertThat(c.concurrentTasks()).as("6 cores / 2 cpus per task").isEqualTo(3);
        assertThat(c.reservedBytes()).isEqualTo(64 * MIB);
        assertThat(c.perTaskBytes()).isEqualTo((long) ((2048 * MIB - 64 * MIB) * (1 - 0.25)) / 3);
        // A bare number in spark.executor.memory is MiB, as in Spark.
        assertThat(SparkMemoryCheck.of(cluster().set("spark.executor.memory", "512"), 1, 1)
                        .heapBytes())
                .isEqualTo(512 * MIB);
        assertThat(SparkMemoryCheck.of(cluster().set("spark.testing", "true"), 1, 1)
                        .reservedBytes())
                .as("spark.testing without reservedMemory reserves nothing")
                .isZero();
    }

    @Test
    void localModeUsesTheDriverHeapAndTheLocalThreads() {
        SparkMemoryCheck c = SparkMemoryCheck.of(new SparkConf(false).setMaster("local[3,4]"), 2048 * MIB, 99);
        assertThat(c.local()).isTrue();
        assertThat(c.heapBytes()).isEqualTo(2048 * MIB);
        assertThat(c.concurrentTasks()).isEqualTo(3);
        assertThat(c.perTaskBytes()).isEqualTo((long) ((2048 * MIB - RESERVED) * (1 - 0.6)) / 3);
        assertThat(SparkMemoryCheck.of(new SparkConf(false).setMaster("local"), MIB, 99)
                        .concurrentTasks())
                .isEqualTo(1);
        assertThat(SparkMemoryCheck.of(new SparkConf(false).setMaster("local[*]"), MIB, 99)
                        .concurrentTasks())
                .isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(SparkMemoryCheck.of(
                                new SparkConf(false).setMaster("local[2]").set("spark.testing.memory", "1000000000"),
                                MIB,
                                99)
                        .heapBytes())
                .isEqualTo(1_000_000_000L);
        SparkMemoryCheck lc = SparkMemoryCheck.of(new SparkConf(false).setMaster("local-cluster[2, 3, 1024]"), 1, 1);
        assertThat(lc.heapBytes()).isEqualTo(1024 * MIB);
        assertThat(lc.concurrentTasks()).isEqualTo(3);
    }

    @Test
    void unsetExecutorCoresFollowTheClusterManager() {
        assertThat(SparkMemoryCheck.of(new SparkConf(false).setMaster("yarn"), 1, 16)
                        .concurrentTasks())
                .isEqualTo(1);
        assertThat(SparkMemoryCheck.of(new SparkConf(false).setMaster("k8s://https://host:443"), 1, 16)
                        .concurrentTasks())
                .isEqualTo(1);
        assertThat(SparkMemoryCheck.of(cluster(), 1, 16).concurrentTasks())
                .as("standalone: all cores of a worker, assumed to be the fallback")
                .isEqualTo(16);
        assertThat(SparkMemoryCheck.of(cluster(), 1, 16).heapBytes())
                .as("spark.executor.memory defaults to 1g")
                .isEqualTo(1024 * MIB);
    }

    @Test
    void aTooSmallShareFailsNamingTheFiguresAndTheSettings() {
        SparkMemoryCheck c = SparkMemoryCheck.of(
                cluster().set("spark.executor.memory", "1g").set("spark.executor.cores", "4"), 1, 1);
        long perTask = (long) ((1024 * MIB - RESERVED) * 0.4) / 4;
        c.check(perTask, "exactly enough");
        long need = 500_000_000L;
        long heapNeeded = (long) Math.ceil((RESERVED + need * 4 / 0.4) / MIB) * MIB;
        assertThat(c.requiredHeapBytes(need)).isEqualTo(heapNeeded);
        assertThatThrownBy(() -> c.check(need, "op-003 add (blockwise)"))
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageStartingWith("Spark gives each concurrent task " + MemorySize.format(perTask)
                        + " of user memory, less than the 500.0 MB that op-003 add (blockwise) needs: "
                        + "(spark.executor.memory of 1024 MiB − 300 MiB reserved) × (1 − spark.memory.fraction 0.60) "
                        + "/ 4 concurrent tasks (spark.executor.cores=4). Raise spark.executor.memory to at least "
                        + heapNeeded / MIB + " MiB")
                .hasMessageContaining("lower spark.executor.cores or raise spark.task.cpus");
        SparkMemoryCheck local = SparkMemoryCheck.of(new SparkConf(false).setMaster("local[2]"), 512 * MIB, 1);
        assertThatThrownBy(() -> local.check(need, "op-001 x"))
                .hasMessageContaining("the driver heap (spark.driver.memory, or -Xmx of this JVM)")
                .hasMessageContaining("local[2] runs 2 tasks at a time")
                .hasMessageContaining("fewer threads in local[N]");
    }

    @Test
    void settingsForASpecGiveEachTaskItsAllowedMemory(@TempDir Path tmp) {
        Spec spec = Spec.builder()
                .workDir(tmp.toString())
                .allowedMem("2GB")
                .reservedMem("100MB")
                .build();
        SparkSettings s = SparkMemoryCheck.settingsFor(spec, 4);
        long heapMib = (long) Math.ceil((RESERVED + 2_000_000_000.0 * 4 / (1 - 0.6)) / MIB);
        assertThat(s.executorMemoryMib()).isEqualTo(heapMib);
        assertThat(s.asMap())
                .containsExactly(
                        Map.entry("spark.executor.memory", heapMib + "m"),
                        Map.entry("spark.executor.cores", "4"),
                        Map.entry("spark.task.cpus", "1"),
                        Map.entry("spark.memory.fraction", "0.6"));
        assertThat(s.sparkSubmitArgs()).startsWith("--conf", "spark.executor.memory=" + heapMib + "m");
        assertThat(s.toString())
                .isEqualTo("# 2.0 GB of user memory for each of 4 concurrent tasks per executor\n"
                        + "spark.executor.memory " + heapMib + "m\nspark.executor.cores 4\nspark.task.cpus 1\n"
                        + "spark.memory.fraction 0.6\n");
        // Round trip: a cluster with these settings passes the check for allowedMem, and gives less than 1 MiB more.
        SparkConf conf = cluster();
        s.asMap().forEach(conf::set);
        SparkMemoryCheck back = SparkMemoryCheck.of(conf, 1, 1);
        back.check(spec.allowedMem().bytes(), "allowedMem");
        assertThat(back.perTaskBytes() - spec.allowedMem().bytes()).isBetween(0L, MIB);
        SparkSettings lean = SparkMemoryCheck.settingsFor(MemorySize.parse("1GB"), 2, 0.1);
        assertThat(lean.executorMemoryMib()).isEqualTo((long) Math.ceil((RESERVED + 1e9 * 2 / 0.9) / MIB));
    }
}
