package io.cubed.storage.zarr.blosc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ShuffleWarmupTest {
    @Test
    void theVectorShuffleQualifiesOnceCompiledInTheTestJvm() {
        // The test JVMs have the Vector API module and C2 (BloscShuffleTest asserts the first): the vector loops get
        // compiled and beat the scalar ones, with the same bytes.
        assertThat(ByteShuffle.VECTOR).isTrue();
        assertThat(ShuffleWarmup.calibrate(ShuffleWarmup.DEADLINE_NANOS)).isTrue();
    }

    /** Waits up to the warm-up's deadline for the vector loops, then asserts they are in use. */
    private static void awaitVectorReady(String what) {
        long end = System.nanoTime() + ShuffleWarmup.DEADLINE_NANOS;
        while (!ShuffleWarmup.vectorReady() && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        assertThat(ShuffleWarmup.vectorReady()).as(what).isTrue();
    }

    @Test
    void bloscCodecWarmUpStartsItBeforeAnyShuffle() {
        BloscCodec.warmUp();
        assertThat(ShuffleWarmup.started()).isTrue();
        awaitVectorReady("ready without a shuffle call");
    }

    @Test
    void withNoTimeLeftTheScalarLoopsStay() {
        assertThat(ShuffleWarmup.calibrate(0)).isFalse();
    }

    @Test
    void blocksShuffleAlikeBeforeAndAfterTheSwitch() {
        byte[] src = BloscTestData.smooth(1 << 16, 9);
        byte[] first = new byte[src.length];
        ByteShuffle.shuffle(8, src.length, src, 0, first, 0); // the scalar loops, before the warm-up has finished
        awaitVectorReady("switched to the vector loops");
        byte[] later = new byte[src.length];
        ByteShuffle.shuffle(8, src.length, src, 0, later, 0);
        assertThat(later).isEqualTo(first);
        byte[] back = new byte[src.length];
        ByteShuffle.unshuffle(8, src.length, later, 0, back, 0);
        assertThat(back).isEqualTo(src);
    }

    @Test
    void theWarmUpStartsOnceTheScalarLoopsHaveShuffled12GiB() {
        assertThat(ByteShuffle.warmupDue(0)).isFalse();
        assertThat(ByteShuffle.warmupDue(4L << 30)).isFalse();
        assertThat(ByteShuffle.warmupDue((12L << 30) - 1)).isFalse();
        assertThat(ByteShuffle.warmupDue(12L << 30)).isTrue();
    }
}
