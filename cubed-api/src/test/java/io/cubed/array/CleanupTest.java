package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.runtime.LocalExecutor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Intermediates deleted as soon as no later operation reads them. */
class CleanupTest {
    @TempDir
    Path tmp;

    static Chunk plusOne(Chunk[] blocks, long[] id) {
        double[] v = blocks[0].doubles().clone();
        for (int i = 0; i < v.length; i++) {
            v[i] += 1;
        }
        return Chunk.wrap(DType.FLOAT64, blocks[0].shape(), v);
    }

    /** The intermediate arrays present when each operation starts. */
    private List<List<String>> run(boolean early) {
        Path work = tmp.resolve(early ? "early" : "late");
        Spec spec = Spec.builder()
                .workDir(work.toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
        CubedArray x = Creation.arange(0, 40, 1, 10, DType.FLOAT64, spec);
        CubedArray w = x;
        for (int k = 0; k < 3; k++) {
            w = Blockwise.mapBlocks(CleanupTest::plusOne, DType.FLOAT64, w);
        }
        List<List<String>> seen = new ArrayList<>();
        Callback look = new Callback() {
            @Override
            public void onOperationStart(OperationStart event) {
                seen.add(intermediates(work));
            }
        };
        ComputeOptions options = ComputeOptions.builder()
                .optimize(false)
                .deleteIntermediatesEarly(early)
                .build();
        w.toZarr(tmp.resolve((early ? "early" : "late") + "-out.zarr").toString(), options, look);
        double[] got = io.cubed.storage.zarr.ZarrArray.open(
                        tmp.resolve((early ? "early" : "late") + "-out.zarr").toString())
                .readRegion(new long[] {0}, new int[] {40})
                .doubles();
        for (int i = 0; i < 40; i++) {
            assertThat(got[i]).isEqualTo(i + 3.0);
        }
        assertThat(intermediates(work)).as("all deleted at the end").isEmpty();
        return seen;
    }

    private static List<String> intermediates(Path work) {
        return names(work, p -> p.getFileName().toString().endsWith(".zarr"));
    }

    /** Names of the files and directories under {@code work} that {@code which} accepts, sorted. */
    private static List<String> names(Path work, java.util.function.Predicate<Path> which) {
        try (Stream<Path> s = Files.walk(work)) {
            return s.filter(which).map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void eachIntermediateGoesOnceItsReadersAreDone() {
        List<List<String>> late = run(false);
        List<List<String>> early = run(true);
        // Operations: 1 writes i1, 2 reads i1 and writes i2, 3 reads i2 and writes the output.
        assertThat(late.get(2)).hasSize(2);
        assertThat(early.get(2)).hasSize(1);
        assertThat(early.get(2).get(0)).startsWith("0002-");
    }

    /** {@code e[i - 1] + e[i + 1]} of an extended chunk (the ends are trimmed away as halo). */
    static Chunk neighbourSum(Chunk[] blocks, long[] id) {
        double[] e = blocks[0].doubles();
        double[] v = new double[e.length];
        for (int i = 1; i + 1 < e.length; i++) {
            v[i] = e[i - 1] + e[i + 1];
        }
        return Chunk.wrap(DType.FLOAT64, blocks[0].shape(), v);
    }

    /**
     * Runs {@code y = x + 1} (four chunks of 10, stored) then a stencil whose task {@code k} reads chunks {@code k - 1}
     * to {@code k + 1} of {@code y}, on one thread; returns the chunks of {@code y} stored after each stencil task.
     */
    private List<List<String>> stencil(String name, Spec.Builder spec, ComputeOptions.Builder options) {
        Path work = tmp.resolve(name);
        CubedArray z = stencilOf(spec.workDir(work.toString()));
        List<List<String>> seen = new ArrayList<>();
        Callback look = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd event) {
                if (event.stage().description().contains("map_overlap")) {
                    seen.add(storedChunks(work));
                }
            }
        };
        String out = tmp.resolve(name + "-out.zarr").toString();
        z.toZarr(out, options.optimize(false).build(), look);
        double[] got = io.cubed.storage.zarr.ZarrArray.open(out)
                .readRegion(new long[] {0}, new int[] {40})
                .doubles();
        // y[j] = j + 1 inside the array and 0 outside: z[i] = y[i - 1] + y[i + 1].
        for (int i = 0; i < 40; i++) {
            double expected = (i == 0 ? 0 : i) + (i == 39 ? 0 : i + 2);
            assertThat(got[i]).as("z[%d]", i).isEqualTo(expected);
        }
        return seen;
    }

    /**
     * {@code y = x + 1} (four chunks of 10, stored) and the stencil {@code z[i] = y[i - 1] + y[i + 1]} of it, with
     * {@code spec} on one thread.
     */
    private static CubedArray stencilOf(Spec.Builder spec) {
        Spec s = spec.executor(new LocalExecutor(1, 1, 0)).build();
        CubedArray x = Creation.arange(0, 40, 1, 10, DType.FLOAT64, s);
        CubedArray y = Blockwise.mapBlocks(CleanupTest::plusOne, DType.FLOAT64, x);
        return Overlap.mapOverlap(
                CleanupTest::neighbourSum, new int[] {1}, io.cubed.dtype.Scalar.zero(), DType.FLOAT64, y);
    }

    /** Names of the chunk files of the intermediates under {@code work}, sorted. */
    private static List<String> storedChunks(Path work) {
        return names(
                work,
                p -> p.getParent().getFileName().toString().endsWith(".zarr")
                        && !p.getFileName().toString().startsWith("."));
    }

    @Test
    void eachChunkOfAnIntermediateGoesOnceTheTasksReadingItHaveFinished() {
        List<List<String>> seen = stencil("chunks", Spec.builder(), ComputeOptions.builder());
        // Task 0 reads chunks 0-1, task 1 0-2, task 2 1-3, task 3 2-3 of y.
        assertThat(seen)
                .containsExactly(List.of("0", "1", "2", "3"), List.of("1", "2", "3"), List.of("2", "3"), List.of());
    }

    @Test
    void aConsumedIntermediateChunkThatIsGoneFailsItsReaderInsteadOfReadingAsFill() {
        Path work = tmp.resolve("gone");
        CubedArray z = stencilOf(Spec.builder().workDir(work.toString()));
        List<Path> deleted = new ArrayList<>();
        Callback loseAChunk = new Callback() {
            @Override
            public void onOperationEnd(OperationEnd event) {
                if (event.stage().description().contains("map_blocks")) {
                    // What a task that ran again would find: chunk 2 of y deleted after y was written.
                    try (Stream<Path> files = Files.walk(work)) {
                        Path chunk = files.filter(
                                        p -> p.getFileName().toString().equals("2")
                                                && p.getParent()
                                                        .getFileName()
                                                        .toString()
                                                        .endsWith(".zarr"))
                                .findFirst()
                                .orElseThrow();
                        Files.delete(chunk);
                        deleted.add(chunk);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            }
        };
        String out = tmp.resolve("gone-out.zarr").toString();
        assertThatThrownBy(() ->
                        z.toZarr(out, ComputeOptions.builder().optimize(false).build(), loseAChunk))
                .rootCause()
                .hasMessageContaining("is missing")
                .hasMessageContaining("/2");
        assertThat(deleted).hasSize(1);
    }

    @Test
    void keptOrResumableIntermediatesKeepTheirChunks() {
        List<String> all = List.of("0", "1", "2", "3");
        assertThat(stencil("kept", Spec.builder().keepIntermediates(true), ComputeOptions.builder()))
                .containsExactly(all, all, all, all);
        assertThat(stencil("resumable", Spec.builder(), ComputeOptions.builder().resume("cleanup-resume")))
                .containsExactly(all, all, all, all);
    }
}
