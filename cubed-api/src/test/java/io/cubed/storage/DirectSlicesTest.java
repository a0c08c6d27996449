package io.cubed.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pool of direct slices: cleared buffers in the default order, at most {@link DirectSlices#KEPT} kept. */
class DirectSlicesTest {
    @Test
    void theSlicesArePooledUpToTheirLimit() {
        ByteBuffer[] taken = new ByteBuffer[DirectSlices.KEPT + 3];
        for (int i = 0; i < taken.length; i++) {
            taken[i] = DirectSlices.take();
            assertThat(taken[i].isDirect()).isTrue();
            assertThat(taken[i].capacity()).isEqualTo(DirectSlices.BYTES);
            assertThat(taken[i].remaining()).isEqualTo(DirectSlices.BYTES);
            taken[i].putInt(42).order(ByteOrder.LITTLE_ENDIAN);
        }
        for (ByteBuffer b : taken) {
            DirectSlices.giveBack(b);
        }
        Set<ByteBuffer> again = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < taken.length; i++) {
            ByteBuffer b = DirectSlices.take();
            // Cleared and in the default order, whoever used it before.
            assertThat(b.position()).isZero();
            assertThat(b.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
            again.add(b);
        }
        long reused = Arrays.stream(taken).filter(again::contains).count();
        assertThat(reused).isEqualTo(DirectSlices.KEPT);
    }
}
