package io.cubed.jobs;

import io.cubed.runtime.TaskFunction;
import io.cubed.runtime.TaskIo;
import java.util.function.LongUnaryOperator;

/**
 * A stage's task function made of a {@link Execution.ChunkWork}: the work is opened once per deserialized copy (once
 * per JVM locally, once per Spark task on Spark) and then run for each task index; what it returns is reported as the
 * bytes the task wrote.
 */
final class ChunkWorkTask implements TaskFunction {
    private static final long serialVersionUID = 1L;

    private final Execution.ChunkWork work;
    private transient volatile LongUnaryOperator op;

    ChunkWorkTask(Execution.ChunkWork work) {
        this.work = work;
    }

    @Override
    public TaskIo run(long taskIndex) {
        LongUnaryOperator o = op;
        if (o == null) {
            synchronized (this) {
                if (op == null) {
                    op = work.open();
                }
                o = op;
            }
        }
        long bytes = o.applyAsLong(taskIndex);
        return new TaskIo(bytes, bytes);
    }
}
