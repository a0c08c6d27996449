package io.cubed.spark;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.memory.MemorySize;
import io.cubed.plan.Spec;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Checks that every task Spark runs at the same time on one executor gets the memory a Cubed task needs, and derives
 * the Spark settings that give a {@link Spec}'s {@code allowedMem} to every task.
 *
 * <p>Cubed's chunks live in Spark's <em>user memory</em>: {@code (heap − reserved) × (1 − spark.memory.fraction)},
 * where {@code heap} is {@code spark.executor.memory} (in local mode: this JVM's {@code Runtime.maxMemory()} or
 * {@code spark.testing.memory}), {@code reserved} is Spark's reserved system memory (300 MiB, or {@code
 * spark.testing.reservedMemory}; 0 when {@code spark.testing} is set) and the unified memory fraction defaults to
 * 0.6. That user memory is shared by {@code spark.executor.cores / spark.task.cpus} concurrent tasks (in local mode:
 * the threads of {@code local[N]}). Each share must be at least the memory a task needs: the plan's largest projected
 * memory per task, or {@code allowedMem}. Immutable.
 */
public final class SparkMemoryCheck {
    /** Spark's reserved system memory, 300 MiB (UnifiedMemoryManager's RESERVED_SYSTEM_MEMORY_BYTES). */
    public static final long SPARK_RESERVED_BYTES = 300L * 1024 * 1024;

    /** Spark's default {@code spark.memory.fraction}. */
    public static final double DEFAULT_MEMORY_FRACTION = 0.6;

    private static final long MIB = 1024L * 1024;
    private static final Pattern LOCAL = Pattern.compile("local(?:\\[(\\*|\\d+)(?:\\s*,\\s*\\d+)?\\])?");
    private static final Pattern LOCAL_CLUSTER =
            Pattern.compile("local-cluster\\[\\s*(\\d+)\\s*,\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\]");

    private final boolean local;
    private final long heapBytes;
    private final long reservedBytes;
    private final double memoryFraction;
    private final int cores;
    private final int taskCpus;
    private final String coresNote;

    private SparkMemoryCheck(
            boolean local,
            long heapBytes,
            long reservedBytes,
            double memoryFraction,
            int cores,
            int taskCpus,
            String coresNote) {
        if (memoryFraction < 0 || memoryFraction >= 1) {
            throw new InvalidArgumentException("spark.memory.fraction must be in [0, 1), got " + memoryFraction);
        }
        if (cores < 1 || taskCpus < 1) {
            throw new InvalidArgumentException(
                    "executor cores and spark.task.cpus must be at least 1, got " + cores + " and " + taskCpus);
        }
        this.local = local;
        this.heapBytes = heapBytes;
        this.reservedBytes = reservedBytes;
        this.memoryFraction = memoryFraction;
        this.cores = cores;
        this.taskCpus = taskCpus;
        this.coresNote = coresNote;
    }

    /** The check for the running context: its configuration, and this JVM's heap in local mode. */
    public static SparkMemoryCheck of(JavaSparkContext jsc) {
        return of(jsc.getConf(), Runtime.getRuntime().maxMemory(), jsc.defaultParallelism());
    }

    /**
     * The check for configuration {@code conf}: {@code localHeapBytes} is the driver's heap (used in local mode), and
     * {@code fallbackCores} the concurrent tasks assumed per executor when a standalone cluster's {@code
     * spark.executor.cores} is not set (an executor then takes every core of its worker).
     */
    public static SparkMemoryCheck of(SparkConf conf, long localHeapBytes, int fallbackCores) {
        String master = conf.get("spark.master", "local[*]").trim();
        long reserved = conf.contains("spark.testing.reservedMemory")
                ? conf.getLong("spark.testing.reservedMemory", SPARK_RESERVED_BYTES)
                : conf.contains("spark.testing") ? 0 : SPARK_RESERVED_BYTES;
        double fraction = conf.getDouble("spark.memory.fraction", DEFAULT_MEMORY_FRACTION);
        int taskCpus = conf.getInt("spark.task.cpus", 1);
        Matcher lm = LOCAL.matcher(master);
        if (lm.matches()) {
            int threads = lm.group(1) == null
                    ? 1
                    : lm.group(1).equals("*")
                            ? Runtime.getRuntime().availableProcessors()
                            : Integer.parseInt(lm.group(1));
            long heap = conf.contains("spark.testing.memory")
                    ? conf.getLong("spark.testing.memory", localHeapBytes)
                    : localHeapBytes;
            return new SparkMemoryCheck(
                    true,
                    heap,
                    reserved,
                    fraction,
                    threads,
                    1,
                    master + " runs " + threads + " " + "task" + (threads == 1 ? "" : "s") + " at a time in this JVM");
        }
        Matcher lc = LOCAL_CLUSTER.matcher(master);
        if (lc.matches()) {
            long heap = Long.parseLong(lc.group(3)) * MIB;
            return new SparkMemoryCheck(
                    false, heap, reserved, fraction, Integer.parseInt(lc.group(2)), taskCpus, "from " + master);
        }
        long heap = conf.getSizeAsMb("spark.executor.memory", "1g") * MIB;
        int cores;
        String note;
        if (conf.contains("spark.executor.cores")) {
            cores = conf.getInt("spark.executor.cores", 1);
            note = "spark.executor.cores=" + cores;
        } else if (master.startsWith("yarn") || master.startsWith("k8s")) {
            cores = 1;
            note = "spark.executor.cores is not set: 1 on " + master.replaceAll(":.*", "");
        } else {
            cores = Math.max(1, fallbackCores);
            note = "spark.executor.cores is not set, so an executor may take all cores of its worker; assuming "
                    + cores;
        }
        return new SparkMemoryCheck(false, heap, reserved, fraction, cores, taskCpus, note);
    }

    /** A check from explicit figures (cluster mode): {@code heapBytes} per executor, {@code cores} per executor. */
    public static SparkMemoryCheck ofExecutors(
            long heapBytes, long reservedBytes, double memoryFraction, int cores, int taskCpus) {
        return new SparkMemoryCheck(
                false, heapBytes, reservedBytes, memoryFraction, cores, taskCpus, "spark.executor.cores=" + cores);
    }

    /** True in local mode, where tasks run in the driver JVM. */
    public boolean local() {
        return local;
    }

    /** Heap of one executor (in local mode: of the driver), in bytes. */
    public long heapBytes() {
        return heapBytes;
    }

    /** Spark's reserved system memory, in bytes. */
    public long reservedBytes() {
        return reservedBytes;
    }

    public double memoryFraction() {
        return memoryFraction;
    }

    /** Tasks one executor runs at the same time: {@code cores / spark.task.cpus}, at least 1. */
    public int concurrentTasks() {
        return Math.max(1, cores / taskCpus);
    }

    /** Spark's user memory of one executor: {@code (heap − reserved) × (1 − spark.memory.fraction)}, in bytes. */
    public long userMemoryBytes() {
        return (long) (Math.max(0, heapBytes - reservedBytes) * (1 - memoryFraction));
    }

    /** The user memory each concurrent task gets, in bytes. */
    public long perTaskBytes() {
        return userMemoryBytes() / concurrentTasks();
    }

    /** The heap an executor needs for every concurrent task to get {@code perTaskBytes}, rounded up to MiB. */
    public long requiredHeapBytes(long perTaskBytes) {
        double heap = reservedBytes + (double) perTaskBytes * concurrentTasks() / (1 - memoryFraction);
        return (long) Math.ceil(heap / MIB) * MIB;
    }

    /**
     * Fails with {@link MemoryBudgetExceededException} when a task's share is below {@code neededBytes}; the message
     * names {@code what} needs it, every figure, and the settings to change.
     */
    public void check(long neededBytes, String what) {
        if (perTaskBytes() >= neededBytes) {
            return;
        }
        String heapName =
                local ? "the driver heap (spark.driver.memory, or -Xmx of this JVM)" : "spark.executor.memory";
        throw new MemoryBudgetExceededException(String.format(
                Locale.ROOT,
                "Spark gives each concurrent task %s of user memory, less than the %s that %s needs: "
                        + "(%s of %s − %s reserved) × (1 − spark.memory.fraction %.2f) / %d concurrent tasks "
                        + "(%s). Raise %s to at least %d MiB, or run fewer tasks at a time (%s), or lower "
                        + "spark.memory.fraction (Cubed caches nothing and shuffles nothing), or use smaller chunks.",
                MemorySize.format(perTaskBytes()),
                MemorySize.format(neededBytes),
                what,
                heapName,
                mib(heapBytes),
                mib(reservedBytes),
                memoryFraction,
                concurrentTasks(),
                coresNote,
                heapName,
                requiredHeapBytes(neededBytes) / MIB,
                local ? "fewer threads in local[N]" : "lower spark.executor.cores or raise spark.task.cpus"));
    }

    /**
     * The Spark settings that give every task {@code spec.allowedMem()} with {@code coresPerExecutor} concurrent tasks
     * per executor and Spark's default memory fraction: for spark-submit, EMR and Databricks cluster configurations.
     */
    public static SparkSettings settingsFor(Spec spec, int coresPerExecutor) {
        return settingsFor(spec.allowedMem(), coresPerExecutor, DEFAULT_MEMORY_FRACTION);
    }

    /** As {@link #settingsFor(Spec, int)}, for {@code allowedMem} per task and a given {@code memoryFraction}. */
    public static SparkSettings settingsFor(MemorySize allowedMem, int coresPerExecutor, double memoryFraction) {
        SparkMemoryCheck shape =
                ofExecutors(SPARK_RESERVED_BYTES, SPARK_RESERVED_BYTES, memoryFraction, coresPerExecutor, 1);
        long heap = shape.requiredHeapBytes(allowedMem.bytes());
        return new SparkSettings(heap / MIB, coresPerExecutor, 1, memoryFraction, allowedMem);
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.0f MiB", bytes / (double) MIB);
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "SparkMemoryCheck{%s heap %s, reserved %s, spark.memory.fraction %.2f, %d concurrent tasks: %s per "
                        + "task}",
                local ? "local" : "executor",
                mib(heapBytes),
                mib(reservedBytes),
                memoryFraction,
                concurrentTasks(),
                MemorySize.format(perTaskBytes()));
    }
}
