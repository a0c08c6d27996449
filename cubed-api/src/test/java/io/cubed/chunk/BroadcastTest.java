package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import org.junit.jupiter.api.Test;

/** NumPy's broadcasting of two chunk shapes, and the error that names the first clashing axis. */
class BroadcastTest {
    @Test
    void shapesAlignOnTheRightAndOnesStretch() {
        assertThat(Broadcast.shapeOrNull(new int[] {2, 1, 4}, new int[] {3, 1})).containsExactly(2, 3, 4);
        assertThat(Broadcast.shapeOrNull(new int[] {}, new int[] {5})).containsExactly(5);
        assertThat(Broadcast.shapeOrNull(new int[] {0, 1}, new int[] {1, 7})).containsExactly(0, 7);
        assertThat(Broadcast.shape("add", new int[] {4, 1}, new int[] {4, 6})).containsExactly(4, 6);
    }

    @Test
    void aClashIsNullOrAnErrorNamingTheFirstAxis() {
        assertThat(Broadcast.shapeOrNull(new int[] {2, 3, 4}, new int[] {5, 4})).isNull();
        assertThatThrownBy(() -> Broadcast.shape("add", new int[] {2, 3, 4}, new int[] {2, 5, 6}))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("add: shapes [2, 3, 4] and [2, 5, 6] cannot be broadcast together (axis 1: 3 vs 5)");
    }
}
