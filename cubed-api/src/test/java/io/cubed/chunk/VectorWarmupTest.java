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
        public double smallShare() {
            return 1;
        }

        @Override
        public void vector() {
            vectorRuns.incrementAndGet();
        }

        @Override
        public boolean same() {
            return true;
        }
    }

    private static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    /**
     * Vector code that runs as in the API's fallback (20 µs a small call, a whole run as slow as the scalar loops) for
     * its first {@code slowSmallCalls} small calls, then compiled (at once).
     */
    private static final class CompiledLate implements VectorWarmup.Trial {
        final int slowSmallCalls;
        int smallCalls;
        int smallCallsBeforeFirstWholeRun = -1;
        int wholeRuns;

        CompiledLate(int slowSmallCalls) {
            this.slowSmallCalls = slowSmallCalls;
        }

        boolean compiled() {
            return smallCalls > slowSmallCalls;
        }

        @Override
        public void scalar() {
            spin(200_000);
        }

        @Override
        public void vectorSmall() {
            smallCalls++;
            if (!compiled()) {
                spin(20_000);
            }
        }

        @Override
        public double smallShare() {
            return 0.001; // compiled: the fastest of three small calls within 32 x 0.2 µs
        }

        @Override
        public void vector() {
            if (smallCallsBeforeFirstWholeRun < 0) {
                smallCallsBeforeFirstWholeRun = smallCalls;
            }
            wholeRuns++;
            if (!compiled()) {
                spin(400_000);
            }
        }

        @Override
        public boolean same() {
            return true;
        }
    }

    @Test
    void wholeRunsWaitForCompiledSmallCallsAndTheSlowCallsArePacedToAQuarterOfACore() {
        int slow = VectorWarmup.SMALL_CALLS + 200;
        CompiledLate trial = new CompiledLate(slow);
        VectorWarmup w = new VectorWarmup("paced kernel", "cubed.test.paced", () -> true, 0, () -> trial);
        long start = System.nanoTime();
        assertThat(w.calibrate(VectorWarmup.DEADLINE_NANOS)).isTrue();
        double seconds = (System.nanoTime() - start) / 1e9;
        // No whole run while the small calls ran at the fallback's speed (they would allocate megabytes each there);
        // the runs that qualified (three in a row, more if the machine held one up) ran once compiled.
        assertThat(trial.smallCallsBeforeFirstWholeRun).isGreaterThan(slow);
        assertThat(trial.wholeRuns).isGreaterThanOrEqualTo(3);
        // The slow calls past the first EAGER_SMALL_CALLS ran 20 µs each and were followed by three times as long at
        // rest (all but less than a millisecond of them): the calibration took at least four times their time.
        double pacedBusy = (slow - VectorWarmup.EAGER_SMALL_CALLS) * 20e-6;
        assertThat(seconds).isGreaterThan(4 * pacedBusy - 0.004);
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
