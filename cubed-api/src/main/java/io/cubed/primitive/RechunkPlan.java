package io.cubed.primitive;

import io.cubed.memory.MemorySize;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The stages of a rechunk from {@code sourceChunks} to {@code targetChunks} (in elements per axis), as {@link
 * RechunkPlanner} chose them, with totals; empty when there is nothing to copy. Immutable.
 */
public final class RechunkPlan {
    /** Why the planner stopped adding stages. */
    public enum Outcome {
        /** Same chunks, or an empty array: no stage. */
        NOTHING_TO_DO,
        /** Every piece a task copies is at least {@code minMem} bytes. */
        MIN_MEM_REACHED,
        /** One more stage would have added I/O operations: pieces stay below {@code minMem}. */
        IO_INCREASED,
        /** The maximum number of stages was reached with pieces below {@code minMem}. */
        MAX_STAGES
    }

    private final long[] shape;
    private final int itemsize;
    private final int[] sourceChunks;
    private final int[] targetChunks;
    private final List<RechunkStage> stages;
    private final Outcome outcome;

    RechunkPlan(
            long[] shape,
            int itemsize,
            int[] sourceChunks,
            int[] targetChunks,
            List<RechunkStage> stages,
            Outcome outcome) {
        this.shape = shape.clone();
        this.itemsize = itemsize;
        this.sourceChunks = sourceChunks.clone();
        this.targetChunks = targetChunks.clone();
        this.stages = List.copyOf(stages);
        this.outcome = outcome;
    }

    /** The copy stages in order; the first reads the source chunks, the last writes the target chunks. */
    public List<RechunkStage> stages() {
        return stages;
    }

    public Outcome outcome() {
        return outcome;
    }

    /** Normalized source chunks in elements (a copy). */
    public int[] sourceChunks() {
        return sourceChunks.clone();
    }

    /** Normalized target chunks in elements (a copy). */
    public int[] targetChunks() {
        return targetChunks.clone();
    }

    /** Total tasks of all stages. */
    public long tasks() {
        long n = 0;
        for (RechunkStage s : stages) {
            n = RechunkStage.saturatedAdd(n, s.tasks());
        }
        return n;
    }

    /** Total chunk reads plus chunk writes of all stages. */
    public long ioOps() {
        long n = 0;
        for (RechunkStage s : stages) {
            n = RechunkStage.saturatedAdd(n, s.ioOps());
        }
        return n;
    }

    /** Total bytes read by all stages (uncompressed). */
    public long bytesRead() {
        long n = 0;
        for (RechunkStage s : stages) {
            n = RechunkStage.saturatedAdd(n, s.bytesRead());
        }
        return n;
    }

    /** Total bytes written by all stages (uncompressed). */
    public long bytesWritten() {
        long n = 0;
        for (RechunkStage s : stages) {
            n = RechunkStage.saturatedAdd(n, s.bytesWritten());
        }
        return n;
    }

    /** The largest projected memory of a task over all stages in bytes, without {@code reservedMem}. */
    public long maxTaskBytes() {
        long m = 0;
        for (RechunkStage s : stages) {
            m = Math.max(m, s.taskBytes());
        }
        return m;
    }

    /**
     * A table of the stages for people: read chunks, copy region and write chunks, tasks, reads, writes, bytes read
     * (each stage also writes the array once) and memory per task (plus {@code reservedBytes}).
     */
    public String table(long reservedBytes) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "rechunk %s itemsize %d: %s -> %s, %d stage(s) (%s)%n",
                Arrays.toString(shape),
                itemsize,
                Arrays.toString(sourceChunks),
                Arrays.toString(targetChunks),
                stages.size(),
                outcome));
        sb.append(String.format(
                Locale.ROOT,
                "%-6s %-22s %-22s %-22s %9s %11s %9s %10s %12s%n",
                "stage",
                "read chunks",
                "region",
                "write chunks",
                "tasks",
                "reads",
                "writes",
                "read",
                "memory/task"));
        int i = 1;
        for (RechunkStage s : stages) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%-6s %-22s %-22s %-22s %9d %11d %9d %10s %12s%n",
                    i++ + "/" + stages.size(),
                    Arrays.toString(s.inputChunks()),
                    Arrays.toString(s.regionChunks()),
                    Arrays.toString(s.outputChunks()),
                    s.tasks(),
                    s.reads(),
                    s.writes(),
                    MemorySize.format(s.bytesRead()),
                    MemorySize.format(RechunkStage.saturatedAdd(reservedBytes, s.taskBytes()))));
        }
        sb.append(String.format(
                Locale.ROOT,
                "total: %d tasks, %d I/O operations, read %s, written %s%n",
                tasks(),
                ioOps(),
                MemorySize.format(bytesRead()),
                MemorySize.format(bytesWritten())));
        return sb.toString();
    }

    @Override
    public String toString() {
        return table(0);
    }
}
