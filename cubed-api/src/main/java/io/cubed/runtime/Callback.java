package io.cubed.runtime;

import java.util.List;

/**
 * Receives events as a computation runs; every method has an empty default. Executors call these on the driver (or
 * the local JVM), from any thread, so implementations must be thread-safe.
 */
public interface Callback {
    /** A computation of {@code stages} starts. */
    record ComputeStart(String computeId, List<Stage> stages) {}

    /** A computation ended; {@code failure} is null when it succeeded. */
    record ComputeEnd(String computeId, Throwable failure) {}

    /** The stage starts its tasks. */
    record OperationStart(String computeId, Stage stage) {}

    /** All tasks of the stage finished (successfully). */
    record OperationEnd(String computeId, Stage stage, long startMillis, long endMillis) {}

    /** One task finished successfully. */
    record TaskEnd(String computeId, Stage stage, TaskResult result) {}

    default void onComputeStart(ComputeStart event) {}

    default void onComputeEnd(ComputeEnd event) {}

    default void onOperationStart(OperationStart event) {}

    default void onOperationEnd(OperationEnd event) {}

    default void onTaskEnd(TaskEnd event) {}
}
