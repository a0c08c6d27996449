package io.cubed.runtime;

import io.cubed.error.InvalidArgumentException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The stages of one computation in an order where every stage comes after the stages it depends on. */
public final class ExecutionPlan {
    private final String computeId;
    private final List<Stage> stages;

    public ExecutionPlan(String computeId, List<Stage> stages) {
        this.computeId = computeId;
        this.stages = List.copyOf(stages);
        Set<String> seen = new HashSet<>();
        for (Stage s : this.stages) {
            for (String d : s.dependsOn()) {
                if (!seen.contains(d)) {
                    throw new InvalidArgumentException(
                            "stage " + s.id() + " depends on " + d + ", which does not come before it");
                }
            }
            if (!seen.add(s.id())) {
                throw new InvalidArgumentException("stage id " + s.id() + " appears twice");
            }
        }
    }

    /** Identifies the computation in logs, callbacks and intermediate paths, e.g. {@code 20261122T221500-3f2a}. */
    public String computeId() {
        return computeId;
    }

    public List<Stage> stages() {
        return stages;
    }

    /**
     * The projected memory of the plan's largest task, in bytes ({@link Stage#projectedMemBytes}, the reserve
     * included); 0 for a plan without tasks.
     */
    public long largestTaskBytes() {
        long max = 0;
        for (Stage s : stages) {
            if (s.numTasks() > 0) {
                max = Math.max(max, s.projectedMemBytes());
            }
        }
        return max;
    }

    /** Total number of tasks over all stages. */
    public long numTasks() {
        long n = 0;
        for (Stage s : stages) {
            n += s.numTasks();
        }
        return n;
    }
}
