/**
 * Execution, independent of arrays and formats: a {@link io.cubed.runtime.Stage} is a name, a number of tasks, a
 * serializable {@link io.cubed.runtime.TaskFunction} and its projected memory; an {@link io.cubed.runtime.Executor}
 * runs the stages of an {@link io.cubed.runtime.ExecutionPlan} in order with retries, reporting to
 * {@link io.cubed.runtime.Callback}s. {@link io.cubed.runtime.LocalExecutor} runs them on threads in this JVM, with
 * {@code HeapFit} (the heap a plan needs, and a heap an earlier computation grew returned) and {@code SlotMeasurement}
 * (measured tasks); the Spark executor in {@code cubed-spark} runs the same stages on a cluster.
 */
package io.cubed.runtime;
