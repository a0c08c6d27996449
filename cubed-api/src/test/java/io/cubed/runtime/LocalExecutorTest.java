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

    @Test
    void progressBarDrawsTheOperation() {
        Stage s = new Stage("op-003", "add (blockwise)", 70, i -> TaskIo.NONE, 1, List.of());
        assertThat(ProgressBar.line(s, 28)).isEqualTo("op-003 add (blockwise) [############                  ] 28/70");
    }
}
