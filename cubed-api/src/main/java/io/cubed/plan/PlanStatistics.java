package io.cubed.plan;

import io.cubed.memory.MemorySize;
import java.util.Locale;

/**
 * Figures of a plan as it would run: operations that run (each one stage), operations fused into them, tasks, the
 * largest projected memory of a task, and bytes — read from stored arrays (each stored input of a running operation
 * counted once), written in all, and written to intermediate arrays (written, then read back and deleted).
 */
public record PlanStatistics(
        int operations,
        int fusedOperations,
        long tasks,
        long maxProjectedMemBytes,
        long bytesRead,
        long bytesWritten,
        long intermediateBytes) {

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "%d operations (%d fused), %d tasks, max memory/task %s, reads %s, writes %s (intermediates %s)",
                operations,
                fusedOperations,
                tasks,
                MemorySize.format(maxProjectedMemBytes),
                MemorySize.format(bytesRead),
                MemorySize.format(bytesWritten),
                MemorySize.format(intermediateBytes));
    }
}
