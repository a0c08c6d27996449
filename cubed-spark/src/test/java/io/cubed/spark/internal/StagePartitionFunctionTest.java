package io.cubed.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.runtime.TaskFunction;
import io.cubed.runtime.TaskIo;
import io.cubed.runtime.TaskResult;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StagePartitionFunctionTest {
    /** Counts its deserializations; its task {@code i} reads {@code i × 10} bytes and writes {@code base} bytes. */
    static final class CountingTask implements TaskFunction {
        private static final long serialVersionUID = 1L;
        static final AtomicInteger READS = new AtomicInteger();

        private final long base;

        CountingTask(long base) {
            this.base = base;
        }

        @Override
        public TaskIo run(long taskIndex) {
            return new TaskIo(taskIndex * 10, base);
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            READS.incrementAndGet();
        }
    }

    @Test
    void theSparkTasksOfAJobInOneJvmShareOneDeserializedTaskFunction() throws Exception {
        StagePartitionFunction body = new StagePartitionFunction("op-007", new CountingTask(42));
        // Spark serializes the job's function once and deserializes those bytes for each Spark task.
        byte[] binary = serialize(body);
        int before = CountingTask.READS.get();
        List<StagePartitionFunction> tasks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            tasks.add(deserialize(binary));
        }
        assertThat(CountingTask.READS.get() - before)
                .as("deserializations of the task function")
                .isEqualTo(1);
        for (StagePartitionFunction t : tasks) {
            assertThat(t).isNotSameAs(body);
            assertThat(t.stageId()).isEqualTo("op-007");
            assertThat(t.task()).isSameAs(tasks.get(0).task()).isNotSameAs(body.task());
        }
        // Each copy runs the tasks of its range with the function's values.
        TaskResult r = tasks.get(3).run(4, 2);
        assertThat(r.taskIndex()).isEqualTo(4);
        assertThat(r.attempts()).isEqualTo(2);
        assertThat(r.bytesRead()).isEqualTo(40);
        assertThat(r.bytesWritten()).isEqualTo(42);
        // A second serialization of the same object (a retried job, another executor) gives the same bytes.
        assertThat(serialize(body)).isEqualTo(binary);

        // Another job of the same operation (a new function object) gets its own deserialized function.
        StagePartitionFunction again =
                deserialize(serialize(new StagePartitionFunction("op-007", new CountingTask(7))));
        assertThat(again.task()).isNotSameAs(tasks.get(0).task());
        assertThat(again.run(1, 1).bytesWritten()).isEqualTo(7);
        assertThat(CountingTask.READS.get() - before).isEqualTo(2);
    }

    @Test
    void onlyTheFunctionsOfTheLastJobsAreKept() throws Exception {
        for (int i = 0; i < 40; i++) {
            deserialize(serialize(new StagePartitionFunction("op-" + i, new CountingTask(i))));
        }
        assertThat(StagePartitionFunction.recentTasks()).isEqualTo(StagePartitionFunction.RECENT_TASKS);
        // An evicted job's function is deserialized again if one of its Spark tasks still comes.
        StagePartitionFunction first = new StagePartitionFunction("op-first", new CountingTask(1));
        byte[] binary = serialize(first);
        StagePartitionFunction a = deserialize(binary);
        for (int i = 0; i < StagePartitionFunction.RECENT_TASKS; i++) {
            deserialize(serialize(new StagePartitionFunction("op-x" + i, new CountingTask(i))));
        }
        int before = CountingTask.READS.get();
        StagePartitionFunction b = deserialize(binary);
        assertThat(CountingTask.READS.get() - before).isEqualTo(1);
        assertThat(b.task()).isNotSameAs(a.task());
        assertThat(b.run(0, 1).bytesWritten()).isEqualTo(1);
    }

    private static byte[] serialize(Object o) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(buf)) {
            out.writeObject(o);
        }
        return buf.toByteArray();
    }

    private static StagePartitionFunction deserialize(byte[] bytes) throws Exception {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return (StagePartitionFunction) in.readObject();
        }
    }
}
