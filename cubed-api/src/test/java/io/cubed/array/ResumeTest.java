package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.CubedException;
import io.cubed.error.PlanException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.zarr.ZarrArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failed computation resumed under the same id computes only the chunks not yet written. */
class ResumeTest {
    @TempDir
    Path tmp;

    static final AtomicInteger DOUBLED = new AtomicInteger();
    static final AtomicInteger INCREMENTED = new AtomicInteger();
    static final Set<Long> FAILING = ConcurrentHashMap.newKeySet();

    static Chunk doubled(Chunk[] blocks, long[] id) {
        DOUBLED.incrementAndGet();
        double[] v = blocks[0].doubles().clone();
        for (int i = 0; i < v.length; i++) {
            v[i] *= 2;
        }
        return Chunk.wrap(DType.FLOAT64, blocks[0].shape(), v);
    }

    static Chunk incremented(Chunk[] blocks, long[] id) {
        if (FAILING.contains(id[0])) {
            throw new IllegalStateException("injected failure in chunk " + id[0]);
        }
        INCREMENTED.incrementAndGet();
        double[] v = blocks[0].doubles().clone();
        for (int i = 0; i < v.length; i++) {
            v[i] += 1;
        }
        return Chunk.wrap(DType.FLOAT64, blocks[0].shape(), v);
    }

    @Test
    void aFailedRunResumesWithTheMissingChunksOnly() throws Exception {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(1, 1, 0))
                .build();
        CubedArray x = Creation.arange(0, 100, 1, 10, DType.FLOAT64, spec);
        CubedArray y = Blockwise.mapBlocks(ResumeTest::doubled, DType.FLOAT64, x);
        CubedArray z = Blockwise.mapBlocks(ResumeTest::incremented, DType.FLOAT64, y);
        String out = tmp.resolve("z.zarr").toString();
        // Unfused, so that y is an intermediate array the second run must find again.
        ComputeOptions resumable =
                ComputeOptions.builder().optimize(false).resume("run-1").build();

        FAILING.addAll(Set.of(3L, 7L));
        assertThatThrownBy(() -> z.toZarr(out, resumable))
                .isInstanceOf(CubedException.class)
                .hasStackTraceContaining("injected failure in chunk");
        assertThat(DOUBLED.get()).isEqualTo(10);
        long written = ZarrArray.open(out).writtenChunkCount();
        assertThat(written).isLessThan(10);
        assertThat(tmp.resolve("work/cubed-run-1"))
                .as("intermediates kept for the next attempt")
                .isDirectory();

        // Without resuming, the existing output is refused.
        assertThatThrownBy(() ->
                        z.toZarr(out, ComputeOptions.builder().optimize(false).build()))
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("an array already exists")
                .hasMessageContaining("ComputeOptions.resume");

        FAILING.clear();
        int before = INCREMENTED.get();
        z.toZarr(out, resumable);
        assertThat(DOUBLED.get()).as("y was complete: nothing recomputed").isEqualTo(10);
        assertThat(INCREMENTED.get() - before).as("only z's missing chunks").isEqualTo(10 - written);
        double[] got =
                ZarrArray.open(out).readRegion(new long[] {0}, new int[] {100}).doubles();
        for (int i = 0; i < 100; i++) {
            assertThat(got[i]).isEqualTo(2.0 * i + 1);
        }
        assertThat(Files.exists(tmp.resolve("work/cubed-run-1")))
                .as("cleaned up after success")
                .isFalse();

        // A resumed computation whose output does not match is refused.
        CubedArray other = Creation.arange(0, 50, 1, 10, DType.FLOAT64, spec);
        assertThatThrownBy(() -> other.toZarr(out, resumable))
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("cannot resume");
        assertThatThrownBy(() -> z.toZarr(
                        tmp.resolve("w.zarr").toString(),
                        ComputeOptions.builder().resume("no/slashes").build()))
                .hasMessageContaining("resume id 'no/slashes'");
    }
}
