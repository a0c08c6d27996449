package io.cubed.runtime;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.VectorWarmup;
import io.cubed.memory.HeapProbe;
import io.cubed.storage.ChunkIo;

/**
 * How the in-process executor measures a task's memory ({@link LocalExecutor#withMemoryMeasurement}): {@link #ALONE},
 * each task from the live heap when it begins (its requests, if any, made on its own thread); or {@linkplain
 * #SlotMeasurement(ChunkIo, long) the first tasks of one slot} that keeps store requests in flight, each from the live
 * heap before the slot started any request, so that the bytes its reads ahead and writes behind hold on the store
 * client's threads count in the peaks rather than in a baseline.
 */
final class SlotMeasurement {
    static final SlotMeasurement ALONE = new SlotMeasurement();

    /** The slot's requests, or null when measuring tasks alone. */
    private final ChunkIo io;
    /** How many tasks of the stage the slot measures: the first ones. */
    private final long tasks;
    /** The live heap before the slot's first request, in bytes (-1 alone). */
    private final long baseline;

    private SlotMeasurement() {
        this.io = null;
        this.tasks = 0;
        this.baseline = -1;
    }

    /**
     * The measurement of the first {@code tasks} tasks of a stage run by the slot of {@code io}, which has started no
     * request yet: takes the baseline now.
     */
    SlotMeasurement(ChunkIo io, long tasks) {
        this.io = io;
        this.tasks = tasks;
        // What idle threads kept for their next tasks is not this slot's, nor what a kernel's warm-up thread holds.
        ArrayRecycler.releaseIdle();
        VectorWarmup.awaitIdle();
        this.baseline = HeapProbe.liveHeap();
        io.takePeak();
    }

    /** Whether the slot measures task {@code i}: one of the stage's first tasks. */
    boolean measures(long i) {
        return i < tasks;
    }

    /** Whether the slot has run all its measured tasks once task {@code i} has run. */
    boolean done(long i) {
        return i >= tasks - 1;
    }

    /** Starts measuring an attempt of a task on the current thread. */
    HeapProbe.Measurement begin() {
        // A kernel's warm-up thread allocates scratch data that the probe, which counts every thread's objects, would
        // count as the task's.
        VectorWarmup.awaitIdle();
        if (io == null) {
            return HeapProbe.begin();
        }
        io.takePeak(); // the span of this attempt starts
        return HeapProbe.begin(baseline, io::heldBytes);
    }

    /** What the slot's requests did during the attempt measured by {@code probe}; null when measuring alone. */
    TaskResult.SlotRequests requests(HeapProbe.Measurement probe) {
        if (io == null) {
            return null;
        }
        ChunkIo.Peak p = io.takePeak();
        return new TaskResult.SlotRequests(p.requests(), p.heldBytes(), probe.requestBytesAtPeak());
    }
}
