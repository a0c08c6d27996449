package io.cubed.jobs.bench;

import io.cubed.runtime.Callback;
import io.cubed.runtime.TaskResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects, per stage of one computation, tasks, bytes read and written, the largest task allocation and the largest
 * measured peak live heap of a task.
 */
final class StageRecorder implements Callback {
    /** One stage's figures. */
    static final class StageFigures {
        final String id;
        final String name;
        final long projectedMemBytes;
        long tasks;
        long bytesRead;
        long bytesWritten;
        long maxAllocatedBytes;
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
        s.maxAllocatedBytes = Math.max(s.maxAllocatedBytes, r.allocatedBytes());
        if (r.memoryMeasured()) {
            s.measuredTasks++;
            s.maxMeasuredBytes = Math.max(s.maxMeasuredBytes, r.peakLiveBytes());
        }
    }

    synchronized List<StageFigures> stages() {
        return new ArrayList<>(stages.values());
    }
}
