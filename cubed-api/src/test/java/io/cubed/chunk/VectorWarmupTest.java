package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The warm-up's switch and its waiting, with a kernel whose "vector" version is simply faster. */
class VectorWarmupTest {
    /** A scalar run of about a millisecond against a vector run of nothing: the vector one qualifies. */
    private static final class SlowScalar implements VectorWarmup.Trial {
        final AtomicInteger vectorRuns = new AtomicInteger();

        @Override
        public void scalar() {
            long end = System.nanoTime() + 1_000_000;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }

        @Override
        public void vectorSmall() {}

        @Override
        public void vector() {
            vectorRuns.incrementAndGet();
        }

        @Override
        public boolean same() {
            return true;
        }
    }

    @Test
    void aMeasurementWaitsForARunningWarmUpToEnd() {
        SlowScalar trial = new SlowScalar();
        VectorWarmup w = new VectorWarmup("test kernel", "cubed.test.vector", () -> true, 1000, () -> trial);
        assertThat(w.enabled()).isTrue();
        assertThat(w.useVector(999)).isFalse();
        assertThat(w.started()).isFalse();
        // The scalar calls reach startAfter: the warm-up starts, and the calls stay scalar until it qualifies.
        assertThat(w.useVector(1)).isFalse();
        assertThat(w.started()).isTrue();
        assertThat(VectorWarmup.awaitIdle()).isTrue();
        assertThat(w.ready()).isTrue();
        assertThat(trial.vectorRuns.get()).isGreaterThanOrEqualTo(3);
        assertThat(w.useVector(1)).isTrue();
    }

    @Test
    void theSystemPropertyTurnsItOffOrOnFromTheFirstCall() {
        System.setProperty("cubed.test.off", "false");
        System.setProperty("cubed.test.eager", "eager");
        try {
            VectorWarmup off = new VectorWarmup("off", "cubed.test.off", () -> true, 0, SlowScalar::new);
            assertThat(off.enabled()).isFalse();
            assertThat(off.useVector(1)).isFalse();
            assertThat(off.started()).isFalse();
            VectorWarmup eager = new VectorWarmup("eager", "cubed.test.eager", () -> true, 0, SlowScalar::new);
            assertThat(eager.useVector(1)).isTrue();
            eager.start();
            assertThat(eager.started()).isFalse();
            VectorWarmup unavailable = new VectorWarmup("none", "cubed.test.none", () -> false, 0, SlowScalar::new);
            assertThat(unavailable.enabled()).isFalse();
        } finally {
            System.clearProperty("cubed.test.off");
            System.clearProperty("cubed.test.eager");
        }
    }
}
