package io.cubed.spark.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import org.junit.jupiter.api.Test;

class TaskRangeTest {
    @Test
    void splitCoversEveryIndexOnceInOrder() {
        assertThat(TaskRange.split(10, 3))
                .containsExactly(new TaskRange(0, 3), new TaskRange(3, 6), new TaskRange(6, 9), new TaskRange(9, 10));
        assertThat(TaskRange.split(4, 1)).extracting(TaskRange::size).containsExactly(1L, 1L, 1L, 1L);
        assertThat(TaskRange.split(0, 5)).isEmpty();
        assertThat(TaskRange.split(5_000_000_000L, 1_000_000_000)).hasSize(5);
        assertThat(new TaskRange(6, 9).toString()).isEqualTo("[6, 9)");
    }

    @Test
    void badRangesAreRefused() {
        assertThatThrownBy(() -> new TaskRange(5, 4)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> TaskRange.split(10, 0)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> TaskRange.split(Long.MAX_VALUE / 2, 1))
                .hasMessageContaining("more tasks per partition");
    }
}
