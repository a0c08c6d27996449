package io.cubed.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.ref.Reference;
import org.junit.jupiter.api.Test;

class HeapProbeTest {
    private static final int MB = 1 << 20;

    @Test
    void measuresWhatIsLiveAtACheckpointNotWhatWasAllocated() {
        try (HeapProbe.Measurement m = HeapProbe.begin()) {
            // 200 MB allocated and dropped at once: garbage, not counted.
            for (int i = 0; i < 20; i++) {
                byte[] garbage = new byte[10 * MB];
                garbage[i] = 1;
            }
            byte[] held = new byte[40 * MB];
            HeapProbe.checkpoint();
            Reference.reachabilityFence(held);
            assertThat(m.checkpoints()).isEqualTo(1);
            // The 40 MB array, give or take the little the JVM's own objects changed meanwhile.
            assertThat(m.peakBytes()).isBetween(39L * MB, 41L * MB);
        }
    }

    @Test
    void thePeakIsTheLargestCheckpoint() {
        try (HeapProbe.Measurement m = HeapProbe.begin()) {
            byte[] a = new byte[30 * MB];
            a[0] = 1;
            HeapProbe.checkpoint();
            Reference.reachabilityFence(a);
            a = null; // dropped before the second checkpoint, which then sees only b
            byte[] b = new byte[12 * MB];
            HeapProbe.checkpoint();
            Reference.reachabilityFence(b);
            assertThat(m.checkpoints()).isEqualTo(2);
            assertThat(m.peakBytes()).isBetween(29L * MB, 31L * MB);
        }
    }

    @Test
    void withoutAMeasurementCheckpointsDoNothing() {
        assertThat(HeapProbe.measuring()).isFalse();
        HeapProbe.checkpoint(); // no measurement on this thread: no collection, no state
        try (HeapProbe.Measurement m = HeapProbe.begin()) {
            assertThat(HeapProbe.measuring()).isTrue();
            assertThat(m.peakBytes()).isZero();
            assertThatThrownBy(HeapProbe::begin)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already running");
        }
        assertThat(HeapProbe.measuring()).isFalse();
    }
}
