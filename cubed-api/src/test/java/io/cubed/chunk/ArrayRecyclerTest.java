package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The recycling of a task's arrays: when arrays come back, to whom, how many, and cleared when asked. */
class ArrayRecyclerTest {
    @BeforeEach
    @AfterEach
    void release() {
        ArrayRecycler.releaseIdle();
    }

    /** Runs {@code task} on {@code thread}'s executor and waits for it. */
    private static <T> T on(ExecutorService thread, Callable<T> task) throws Exception {
        return thread.submit(task).get(30, TimeUnit.SECONDS);
    }

    @Test
    void poolsFollowTheTasksNotTheThreads() throws Exception {
        // As on a Spark executor: tasks of one operation, one at a time, on whichever of several threads is free.
        ExecutorService[] threads = new ExecutorService[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = Executors.newSingleThreadExecutor();
        }
        try {
            List<double[]> arrays = new ArrayList<>();
            for (int task = 0; task < 8; task++) {
                arrays.add(on(threads[(task * 3) % threads.length], () -> {
                    try (ArrayRecycler.Scope s = ArrayRecycler.open("op-1 copy", 1 << 20)) {
                        return (double[]) ArrayRecycler.array(double[].class, 1000);
                    }
                }));
            }
            // The first task's array serves every later task, whatever its thread; one pool keeps it, once.
            assertThat(arrays).allSatisfy(a -> assertThat(a).isSameAs(arrays.get(0)));
            assertThat(ArrayRecycler.keptBytes()).isEqualTo(8000);
        } finally {
            for (ExecutorService t : threads) {
                t.shutdownNow();
            }
        }
    }

    @Test
    void tasksRunningAtOnceHaveAPoolEachAndNoMorePoolsAreKept() throws Exception {
        ExecutorService first = Executors.newSingleThreadExecutor();
        ExecutorService second = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch bothOpen = new CountDownLatch(2);
            Callable<double[]> task = () -> {
                try (ArrayRecycler.Scope s = ArrayRecycler.open("op-1 copy", 1 << 20)) {
                    double[] a = (double[]) ArrayRecycler.array(double[].class, 1000);
                    bothOpen.countDown();
                    assertThat(bothOpen.await(30, TimeUnit.SECONDS)).isTrue();
                    return a;
                }
            };
            Future<double[]> a = first.submit(task);
            Future<double[]> b = second.submit(task);
            double[] fromA = a.get(30, TimeUnit.SECONDS);
            double[] fromB = b.get(30, TimeUnit.SECONDS);
            assertThat(fromA).isNotSameAs(fromB);
            assertThat(ArrayRecycler.keptBytes()).isEqualTo(16_000);
            // Later tasks, one at a time on a third thread, take from those two pools and add none.
            ExecutorService third = Executors.newSingleThreadExecutor();
            try {
                for (int i = 0; i < 3; i++) {
                    double[] again = on(third, () -> {
                        try (ArrayRecycler.Scope s = ArrayRecycler.open("op-1 copy", 1 << 20)) {
                            return (double[]) ArrayRecycler.array(double[].class, 1000);
                        }
                    });
                    assertThat(again).isIn(fromA, fromB);
                }
            } finally {
                third.shutdownNow();
            }
            assertThat(ArrayRecycler.keptBytes()).isEqualTo(16_000);
            ArrayRecycler.releaseIdle();
            assertThat(ArrayRecycler.keptBytes()).isZero();
        } finally {
            first.shutdownNow();
            second.shutdownNow();
        }
    }

    @Test
    void aTaskOfAnotherOperationTakesTheLeastRecentlyUsedPoolAndStartsEmpty() {
        double[] d1;
        double[] d2;
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op-1 add", 1 << 20)) {
            d1 = (double[]) ArrayRecycler.array(double[].class, 100);
            try (ArrayRecycler.Scope nested = ArrayRecycler.open("op-2 add", 1 << 20)) {
                assertThat(nested).isNotNull();
            }
        }
        assertThat(ArrayRecycler.keptBytes()).isEqualTo(800);
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op-3 negative", 1 << 20)) {
            d2 = (double[]) ArrayRecycler.array(double[].class, 100);
            assertThat(d2).isNotSameAs(d1); // op-1's pool was taken over: its list dropped, no second pool
            assertThat(ArrayRecycler.keptBytes()).isZero();
        }
        assertThat(ArrayRecycler.keptBytes()).isEqualTo(800);
    }

    @Test
    void outsideATaskEveryArrayIsNew() {
        double[] a = ((double[]) ArrayRecycler.array(double[].class, 100));
        double[] b = ((double[]) ArrayRecycler.array(double[].class, 100));
        assertThat(a).isNotSameAs(b);
        assertThat(ArrayRecycler.keptBytes()).isZero();
    }

    @Test
    void theNextTaskOfTheSameOperationGetsTheArraysBackByTypeAndLength() {
        double[] d;
        byte[] b;
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op-1 add", 1 << 20)) {
            d = ((double[]) ArrayRecycler.array(double[].class, 1000));
            b = ArrayRecycler.bytes(500);
        }
        assertThat(ArrayRecycler.keptBytes()).isEqualTo(8000 + 500);
        long reused = ArrayRecycler.reusedBytes();
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op-1 add", 1 << 20)) {
            assertThat(((double[]) ArrayRecycler.array(double[].class, 999))).isNotSameAs(d); // another length: new
            assertThat(((float[]) ArrayRecycler.array(float[].class, 2000))).isNotNull(); // another type: new
            assertThat(((double[]) ArrayRecycler.array(double[].class, 1000))).isSameAs(d);
            assertThat(ArrayRecycler.bytes(500)).isSameAs(b);
            assertThat(((double[]) ArrayRecycler.array(double[].class, 1000)))
                    .isNotSameAs(d); // each array once per task
        }
        assertThat(ArrayRecycler.reusedBytes() - reused).isEqualTo(8500);
    }

    @Test
    void anotherOperationStartsWithNothing() {
        double[] d;
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op-1 add", 1 << 20)) {
            d = ((double[]) ArrayRecycler.array(double[].class, 64));
        }
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op-2 negative", 1 << 20)) {
            assertThat(((double[]) ArrayRecycler.array(double[].class, 64))).isNotSameAs(d);
        }
    }

    @Test
    void aThreadKeepsNoMoreThanTheBudget() {
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 10_000)) {
            for (int i = 0; i < 5; i++) {
                assertThat(((long[]) ArrayRecycler.array(long[].class, 500))).hasSize(500); // 4000 bytes each
            }
        }
        assertThat(ArrayRecycler.keptBytes()).isEqualTo(8000);
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 0)) {
            ArrayRecycler.array(long[].class, 500);
        }
        assertThat(ArrayRecycler.keptBytes()).isZero();
    }

    @Test
    void arraysNotTakenAgainAreDroppedAtTheEndOfTheNextTask() {
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 1 << 20)) {
            ArrayRecycler.array(int[].class, 100);
            ArrayRecycler.array(int[].class, 200);
        }
        assertThat(ArrayRecycler.keptBytes()).isEqualTo(1200);
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 1 << 20)) {
            ArrayRecycler.array(int[].class, 100);
        }
        assertThat(ArrayRecycler.keptBytes()).isEqualTo(400);
    }

    @Test
    void aTaskAllocatingOtherArraysDropsKeptOnesToStayWithinTheBudget() {
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 10_000)) {
            ArrayRecycler.array(long[].class, 500);
            ArrayRecycler.array(long[].class, 500);
        }
        assertThat(ArrayRecycler.keptBytes()).isEqualTo(8000);
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 10_000)) {
            int[] other = ((int[]) ArrayRecycler.array(int[].class, 1000)); // 4000 new bytes: kept + new would be 12000
            assertThat(ArrayRecycler.keptBytes()).isEqualTo(4000);
            assertThat(((long[]) ArrayRecycler.array(long[].class, 500))).hasSize(500); // the one still kept
            assertThat(ArrayRecycler.keptBytes()).isZero();
            assertThat(other).hasSize(1000);
        }
    }

    @Test
    void anArrayHandedBackServesTheSameTaskAgainAndIsKeptOnce() {
        byte[] mine;
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 1 << 20)) {
            mine = ArrayRecycler.bytes(300);
            ArrayRecycler.giveBack(mine);
            ArrayRecycler.giveBack(mine); // twice: once is enough
            assertThat(ArrayRecycler.bytes(300)).isSameAs(mine);
            assertThat(ArrayRecycler.bytes(300)).isNotSameAs(mine);
            byte[] foreign = new byte[300];
            ArrayRecycler.giveBack(foreign); // not the recycler's: ignored
            assertThat(ArrayRecycler.keptBytes()).isZero();
        }
        assertThat(ArrayRecycler.keptBytes()).isEqualTo(600);
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 1 << 20)) {
            byte[] a = ArrayRecycler.bytes(300);
            byte[] b = ArrayRecycler.bytes(300);
            assertThat(a).isNotSameAs(b);
            assertThat(java.util.List.of(a, b)).anyMatch(x -> x == mine);
        }
        ArrayRecycler.giveBack(mine); // outside a task: nothing happens
    }

    @Test
    void zeroedArraysAreZerosEvenWhenRecycled() {
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 1 << 20)) {
            double[] d = (double[]) ArrayRecycler.zeroed(double[].class, 50);
            java.util.Arrays.fill(d, 7.5);
            boolean[] z = (boolean[]) ArrayRecycler.zeroed(boolean[].class, 9);
            java.util.Arrays.fill(z, true);
        }
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 1 << 20)) {
            assertThat((double[]) ArrayRecycler.zeroed(double[].class, 50)).containsOnly(0.0);
            assertThat((boolean[]) ArrayRecycler.zeroed(boolean[].class, 9)).containsOnly(false);
        }
    }

    @Test
    void recycledArraysForOverwritingArePoisonedInTheTests() {
        // The build sets -Dcubed.recycler.poison=true for every test JVM; this checks that it does.
        assertThat(Boolean.getBoolean("cubed.recycler.poison")).isTrue();
        assertThat(ArrayRecycler.MIN_BYTES)
                .as("-Dcubed.recycler.minBytes=0: every array recycled")
                .isZero();
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 1 << 20)) {
            java.util.Arrays.fill(((double[]) ArrayRecycler.array(double[].class, 8)), 1.0);
            java.util.Arrays.fill(ArrayRecycler.bytes(8), (byte) 1);
        }
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 1 << 20)) {
            assertThat(((double[]) ArrayRecycler.array(double[].class, 8))).containsOnly(Double.NaN);
            assertThat(ArrayRecycler.bytes(8)).containsOnly((byte) 0x5A);
        }
    }

    @Test
    void aScopeInsideAScopeLeavesTheRecyclingToTheOuterOne() {
        double[] inner;
        try (ArrayRecycler.Scope outer = ArrayRecycler.open("op", 1 << 20)) {
            try (ArrayRecycler.Scope nested = ArrayRecycler.open("other", 1 << 20)) {
                inner = ((double[]) ArrayRecycler.array(double[].class, 10));
            }
            assertThat(ArrayRecycler.keptBytes()).isZero(); // nothing recycled while the task runs
        }
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 1 << 20)) {
            assertThat(((double[]) ArrayRecycler.array(double[].class, 10))).isSameAs(inner);
        }
    }

    @Test
    void arraysCollectedDuringTheTaskAreNotKeptAlive() {
        List<Object> kept = new ArrayList<>();
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op", 1L << 30)) {
            for (int i = 0; i < 8; i++) {
                double[] garbage = ((double[]) ArrayRecycler.array(double[].class, 1 << 16));
                garbage[0] = i;
            }
            kept.add(((double[]) ArrayRecycler.array(double[].class, 1 << 10)));
            // The task's garbage is weakly held: a collection frees it.
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
        }
        assertThat(ArrayRecycler.keptBytes()).isEqualTo(8L << 10);
        assertThat(kept).hasSize(1);
    }

    @Test
    void byteArraysWithinALengthRangeServeValuesOfVaryingLengths() {
        byte[] first;
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op-1 read", 1 << 20)) {
            first = ArrayRecycler.bytesWithin(300_000, 400_000);
            assertThat(first).hasSize(400_000); // new: the upper end, so that longer values fit later
            ArrayRecycler.giveBack(first);
            assertThat(ArrayRecycler.bytesWithin(350_000, 420_000)).isSameAs(first);
            assertThat(ArrayRecycler.bytesWithin(350_000, 420_000)).isNotSameAs(first); // once per taking
        }
        try (ArrayRecycler.Scope s = ArrayRecycler.open("op-1 read", 1 << 20)) {
            assertThat(ArrayRecycler.bytesWithin(401_000, 500_000)).isNotSameAs(first); // too short for it
            assertThat(ArrayRecycler.bytesWithin(100_000, 380_000)).isNotSameAs(first); // too long for it
            assertThat(ArrayRecycler.bytesWithin(100_000, 400_000)).isSameAs(first);
        }
        // Outside a task: a new array of the shortest length.
        assertThat(ArrayRecycler.bytesWithin(10, 20)).hasSize(10);
    }
}
