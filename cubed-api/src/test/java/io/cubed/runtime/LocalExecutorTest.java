package io.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The executor contract on {@link LocalExecutor}, and what is particular to it. */
class LocalExecutorTest extends ExecutorContract {
    @Override
    protected Executor executor() {
        return new LocalExecutor(4, 3, 0);
    }

    @Override
    protected int maxAttempts() {
        return 3;
    }

    @Test
    void planOrderAndArgumentsAreChecked() {
        Stage s = new Stage("op-002", "x", 1, i -> TaskIo.NONE, 1, List.of("op-001"));
        assertThatThrownBy(() -> new ExecutionPlan("c", List.of(s)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("op-002 depends on op-001");
        assertThatThrownBy(() -> new LocalExecutor(0, 3)).hasMessageContaining("at least 1 thread");
    }

    /**
     * A task that runs out of heap fails the computation, with the stage and the memory it was projected at, on both
     * of the workers' loops (one task at a time, and with requests in flight); before, the worker's thread swallowed
     * the error and the stage waited for ever.
     */
    @Test
    void aTaskOutOfHeapFailsTheComputation() {
        for (long ioBytes : new long[] {0, 8L << 20}) {
            Stage s = new Stage(
                            "op-004",
                            "rechunk (blockwise)",
                            6,
                            i -> {
                                if (i == 3) {
                                    throw new OutOfMemoryError("Java heap space");
                                }
                                return TaskIo.NONE;
                            },
                            300_000_000L,
                            List.of())
                    .withIoBytes(ioBytes);
            org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                    java.time.Duration.ofSeconds(30), () -> assertThatThrownBy(() ->
                                    new LocalExecutor(2, 3, 0).execute(new ExecutionPlan("c", List.of(s)), List.of()))
                            .as("io bytes %d", ioBytes)
                            .isInstanceOf(io.cubed.error.CubedException.class)
                            .hasMessageStartingWith("op-004 rechunk (blockwise): a task ran out of heap (Java heap"
                                    + " space) with 2 threads of tasks projected at 300.0 MB each")
                            .hasCauseInstanceOf(OutOfMemoryError.class));
        }
    }

    @Test
    void progressBarDrawsTheOperation() {
        Stage s = new Stage("op-003", "add (blockwise)", 70, i -> TaskIo.NONE, 1, List.of());
        assertThat(ProgressBar.line(s, 28)).isEqualTo("op-003 add (blockwise) [############                  ] 28/70");
    }
}
