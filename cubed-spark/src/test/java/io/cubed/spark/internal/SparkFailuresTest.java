package io.cubed.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.error.CubedException;
import io.cubed.error.TaskFailedException;
import io.cubed.runtime.Stage;
import io.cubed.runtime.TaskIo;
import java.util.List;
import org.apache.spark.SparkException;
import org.junit.jupiter.api.Test;

class SparkFailuresTest {
    private static final Stage STAGE = new Stage("op-005", "add (blockwise)", 9, i -> TaskIo.NONE, 1, List.of());

    @Test
    void aTaskExceptionInTheCauseChainGivesTheIndexAttemptsAndRootMessage() {
        TaskIndexFailure f = new TaskIndexFailure("op-005", 7, new IllegalStateException("disk full"));
        SparkException spark = new SparkException(
                "Job aborted due to stage failure: Task 3 in stage 2.0 failed 4 times, most recent failure: ...", f);
        CubedException e = SparkFailures.translate(STAGE, spark, 1);
        assertThat(e).isInstanceOf(TaskFailedException.class);
        assertThat(e).hasMessage("op-005 add (blockwise): task 7 failed after 4 attempts: disk full");
        assertThat(((TaskFailedException) e).taskIndex()).isEqualTo(7);
        assertThat(e.getCause()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void withoutTheExceptionObjectSparksMessageIsRead() {
        SparkException spark = new SparkException(
                "Job aborted due to stage failure: Task 0 in stage 1.0 failed 2 "
                        + "times, most recent failure: Lost task 0.1 in stage 1.0 (TID 3) (10.0.0.2 executor 1): "
                        + "io.cubed.spark.internal.TaskIndexFailure: op-005 task 12: cannot read chunk 3.4\n\tat x.y(Z.java:1)\n");
        CubedException e = SparkFailures.translate(STAGE, spark, 1);
        assertThat(e).hasMessage("op-005 add (blockwise): task 12 failed after 2 attempts: cannot read chunk 3.4");
    }

    @Test
    void otherFailuresKeepTheFirstLineOnly() {
        SparkException spark =
                new SparkException("Job aborted due to stage failure: Task not serializable\nlong trace\nmore", null);
        CubedException e = SparkFailures.translate(STAGE, spark, 3);
        assertThat(e)
                .isNotInstanceOf(TaskFailedException.class)
                .hasMessage("op-005 add (blockwise) failed: Job aborted due to stage failure: Task not serializable");
        CubedException own = new CubedException("already clear");
        assertThat(SparkFailures.translate(STAGE, own, 3)).isSameAs(own);
        assertThat(SparkFailures.attemptsIn("no count here", 5)).isEqualTo(5);
    }
}
