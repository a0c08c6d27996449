package io.cubed.spark;

import io.cubed.memory.MemorySize;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Spark settings derived from a memory budget by {@link SparkMemoryCheck#settingsFor}: executor heap (MiB), executor
 * cores, CPUs per task and the unified memory fraction. {@link #toString} gives them as {@code spark-defaults.conf}
 * lines; {@link #sparkSubmitArgs} as {@code --conf} arguments.
 */
public final class SparkSettings {
    private final long executorMemoryMib;
    private final int executorCores;
    private final int taskCpus;
    private final double memoryFraction;
    private final MemorySize perTask;

    SparkSettings(long executorMemoryMib, int executorCores, int taskCpus, double memoryFraction, MemorySize perTask) {
        this.executorMemoryMib = executorMemoryMib;
        this.executorCores = executorCores;
        this.taskCpus = taskCpus;
        this.memoryFraction = memoryFraction;
        this.perTask = perTask;
    }

    /** {@code spark.executor.memory} in MiB. */
    public long executorMemoryMib() {
        return executorMemoryMib;
    }

    public int executorCores() {
        return executorCores;
    }

    /** The settings by Spark key, in a fixed order. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("spark.executor.memory", executorMemoryMib + "m");
        m.put("spark.executor.cores", Integer.toString(executorCores));
        m.put("spark.task.cpus", Integer.toString(taskCpus));
        m.put("spark.memory.fraction", String.format(Locale.ROOT, "%s", memoryFraction));
        return Collections.unmodifiableMap(m);
    }

    /** {@code --conf key=value} arguments for spark-submit. */
    public List<String> sparkSubmitArgs() {
        List<String> args = new ArrayList<>();
        for (Map.Entry<String, String> e : asMap().entrySet()) {
            args.add("--conf");
            args.add(e.getKey() + "=" + e.getValue());
        }
        return args;
    }

    /** {@code spark-defaults.conf} lines, preceded by a comment saying what they give each task. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("# ")
                .append(perTask)
                .append(" of user memory for each of ")
                .append(executorCores / taskCpus)
                .append(" concurrent tasks per executor\n");
        for (Map.Entry<String, String> e : asMap().entrySet()) {
            sb.append(e.getKey()).append(' ').append(e.getValue()).append('\n');
        }
        return sb.toString();
    }
}
