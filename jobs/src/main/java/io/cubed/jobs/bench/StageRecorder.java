package io.cubed.jobs.bench;

import io.cubed.runtime.Callback;
import io.cubed.runtime.TaskResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects, per stage of one computation, tasks, bytes read and written, the tasks' summed time, the largest task
 * allocation and the largest measured peak live heap of a task. Resets the process's peak resident set ({@link PeakRss})
 * when the first computation starts: after the in-process executor has fitted the heap to the plan that runs, so that
 * a workload's peak does not hold the heap the workload before it grew in the same JVM.
 */
final class StageRecorder implements Callback {
    /** One stage's figures. */
    static final class StageFigures implements java.io.Serializable {
        private static final long serialVersionUID = 1L;

        final String id;
        final String name;
        final long projectedMemBytes;
        long tasks;
        long bytesRead;
        long bytesWritten;
        long maxAllocatedBytes;
        /** The tasks' own time, summed (milliseconds): what the threads spent in them, scheduling not included. */
        long taskMillis;
        /** The largest measured peak live heap of a task (-1: no task measured). */
        long maxMeasuredBytes = -1;

        long measuredTasks;

        StageFigures(String id, String name, long projectedMemBytes) {
            this.id = id;
            this.name = name;
            this.projectedMemBytes = projectedMemBytes;
        }
    }

    private final Map<String, StageFigures> stages = new LinkedHashMap<>();

    private boolean computeStarted;

    @Override
    public synchronized void onComputeStart(ComputeStart event) {
        if (!computeStarted) {
            computeStarted = true;
            PeakRss.reset();
        }
    }

    @Override
    public synchronized void onOperationStart(OperationStart event) {
        stages.computeIfAbsent(
                event.stage().id(),
                id -> new StageFigures(
                        id, event.stage().description(), event.stage().projectedMemBytes()));
    }

    @Override
    public synchronized void onTaskEnd(TaskEnd event) {
        StageFigures s = stages.computeIfAbsent(
                event.stage().id(),
                id -> new StageFigures(
                        id, event.stage().description(), event.stage().projectedMemBytes()));
        TaskResult r = event.result();
        s.tasks++;
        s.bytesRead += r.bytesRead();
        s.bytesWritten += r.bytesWritten();
        s.taskMillis += Math.max(0, r.endMillis() - r.startMillis());
        s.maxAllocatedBytes = Math.max(s.maxAllocatedBytes, r.allocatedBytes());
        if (r.memoryMeasured()) {
            s.measuredTasks++;
            s.maxMeasuredBytes = Math.max(s.maxMeasuredBytes, r.peakLiveBytes());
        }
    }

    /** The time of every task of every stage, summed, in seconds. */
    synchronized double taskSeconds() {
        long ms = 0;
        for (StageFigures s : stages.values()) {
            ms += s.taskMillis;
        }
        return ms / 1e3;
    }

    synchronized List<StageFigures> stages() {
        return new ArrayList<>(stages.values());
    }
}
