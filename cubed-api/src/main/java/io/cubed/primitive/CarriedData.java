package io.cubed.primitive;

/**
 * A key or chunk function that carries data inside its tasks (take's index lists, a concatenation's offsets), which
 * every JVM running one of its operation's tasks holds whole while the task runs; plans count it in the operation's
 * projected memory ({@code io.cubed.plan.Plan#carriedBytes}). Functions of a few numbers need not implement it.
 */
public interface CarriedData {
    /** Bytes of the data carried. */
    long carriedBytes();
}
