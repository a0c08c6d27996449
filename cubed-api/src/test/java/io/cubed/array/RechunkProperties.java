package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Rechunking small arrays with random chunkings and budgets on the in-process executor keeps every value, and every
 * stage reads and writes the array exactly once (each task reads whole chunks of its region, and regions do not
 * overlap).
 */
class RechunkProperties {
    private static Path dir;

    @BeforeContainer
    static void createDir() throws IOException {
        dir = Files.createTempDirectory("rechunk-properties");
    }

    @AfterContainer
    static void deleteDir() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** A random array shape, source and target chunks, and slack above the smallest budget in bytes. */
    record Case(int[] shape, int[] source, int[] target, long slack) {
        @Override
        public String toString() {
            return Arrays.toString(shape) + " " + Arrays.toString(source) + " -> " + Arrays.toString(target) + " slack "
                    + slack;
        }
    }

    @Provide
    Arbitrary<Case> cases() {
        return Arbitraries.integers().between(1, 3).flatMap(nd -> {
            Arbitrary<int[]> shape =
                    Arbitraries.integers().between(1, 12).array(int[].class).ofSize(nd);
            Arbitrary<int[]> chunks =
                    Arbitraries.integers().between(1, 13).array(int[].class).ofSize(nd);
            return Combinators.combine(
                            shape, chunks, chunks, Arbitraries.longs().between(0, 4000))
                    .as(Case::new);
        });
    }

    @Property(tries = 120)
    void rechunkedDataEqualsTheOriginal(@ForAll("cases") Case c) {
        int n = Chunk.elementCount(c.shape());
        Chunk data = Chunk.allocate(DType.INT32, c.shape());
        for (int i = 0; i < n; i++) {
            data.ints()[i] = i * 7 + 3;
        }
        Spec roomy = spec(1_000_000_000L);
        CubedArray probe = Cubed.fromArray(data, roomy, c.source());
        int[] target = Chunking.grid(probe.shape(), c.target(), "target").chunkShape();
        long need = Manipulation.planner(probe, target).minimumTaskBytes();
        Spec spec = spec(need + c.slack() + 1);
        CubedArray x = Cubed.fromArray(data, spec, c.source());
        CubedArray y = Manipulation.rechunk(x, c.target());
        assertThat(y.chunkShape()).as("%s", c).containsExactly(target);
        // Per stage: bytes read, bytes written, tasks run; every stage must read and write the array exactly once.
        Map<String, long[]> perStage = new ConcurrentHashMap<>();
        Callback count = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd e) {
                if (!e.stage().description().startsWith("rechunk")) {
                    return;
                }
                long[] f = perStage.computeIfAbsent(e.stage().id(), k -> new long[4]);
                synchronized (f) {
                    f[0] += e.result().bytesRead();
                    f[1] += e.result().bytesWritten();
                    f[2]++;
                    f[3] = e.stage().numTasks();
                }
            }
        };
        Chunk got = y.compute(count);
        long nbytes = 4L * n;
        assertThat(perStage.isEmpty()).as("%s", c).isEqualTo(y == x);
        for (Map.Entry<String, long[]> e : perStage.entrySet()) {
            long[] f = e.getValue();
            assertThat(f[0]).as("%s %s bytes read", c, e.getKey()).isEqualTo(nbytes);
            assertThat(f[1]).as("%s %s bytes written", c, e.getKey()).isEqualTo(nbytes);
            assertThat(f[2]).as("%s %s tasks", c, e.getKey()).isEqualTo(f[3]);
        }
        // Compare with the original values by a plain loop over every element.
        for (int i = 0; i < n; i++) {
            assertThat(got.ints()[i]).as("%s element %d", c, i).isEqualTo(i * 7 + 3);
        }
    }

    private static Spec spec(long allowed) {
        return Spec.builder()
                .workDir(dir.toString())
                .allowedMem(allowed)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }
}
