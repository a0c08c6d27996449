package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.testing.TreeSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * toZarr and store refuse, before anything is created or deleted, a target that is an array the computation reads,
 * lies inside one, contains one, or overlaps another target, whatever the spelling of the URLs; the source's files are
 * then byte for byte as they were.
 */
class DestinationSafetyTest {
    @TempDir
    Path tmp;

    private Path src;
    private Spec spec;

    @BeforeEach
    void writeSource() {
        src = tmp.resolve("data/x.zarr");
        ZarrArray a = ZarrArray.create(
                src.toString(),
                ZarrCreateOptions.builder(new long[] {6, 4}, new int[] {3, 2}, DType.FLOAT64)
                        .build());
        for (long i = 0; i < a.grid().numChunks(); i++) {
            long[] c = a.grid().chunkCoordsOf(i);
            a.writeChunk(
                    Chunk.full(DType.FLOAT64, Scalar.ofDouble(i + 1), a.grid().chunkShapeAt(c)), c);
        }
        spec = Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    private void assertRefusedAndSourceUnchanged(Runnable write, String words) {
        Map<String, byte[]> before = TreeSnapshot.of(tmp.resolve("data"));
        assertThat(before).containsKeys("x.zarr/.zarray", "x.zarr/0.0", "x.zarr/1.1");
        assertThatThrownBy(write::run)
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(words)
                .hasMessageContaining(src.toString());
        Map<String, byte[]> after = TreeSnapshot.of(tmp.resolve("data"));
        assertThat(after.keySet()).isEqualTo(before.keySet());
        for (String k : before.keySet()) {
            assertThat(after.get(k)).as(k).isEqualTo(before.get(k));
        }
    }

    @Test
    void aTargetThatIsTheSourceIsRefusedInEverySpelling() throws Exception {
        Files.createSymbolicLink(tmp.resolve("link.zarr"), src);
        String relative = Path.of("").toAbsolutePath().relativize(src).toString();
        for (String url : List.of(
                src.toString(),
                src + "/",
                relative,
                "./" + relative,
                src.toUri().toString(),
                tmp + "/data/../data/x.zarr",
                tmp.resolve("link.zarr").toString())) {
            CubedArray x = Cubed.fromZarr(src.toString(), spec);
            CubedArray y = Elementwise.add(x, Scalar.ofDouble(1));
            assertRefusedAndSourceUnchanged(() -> y.toZarr(url), "is the source");
            // Resuming onto the source would find "an array already there" and skip or overwrite its chunks.
            assertRefusedAndSourceUnchanged(
                    () -> y.toZarr(url, ComputeOptions.builder().resume("r1").build()), "is the source");
            // A plain copy of the source too.
            assertRefusedAndSourceUnchanged(() -> x.toZarr(url), "is the source");
        }
    }

    @Test
    void aTargetInsideOrAroundTheSourceIsRefused() {
        CubedArray x = Cubed.fromZarr(src.toString(), spec);
        CubedArray y = Elementwise.multiply(x, Scalar.ofDouble(2));
        assertRefusedAndSourceUnchanged(() -> y.toZarr(src + "/inner.zarr"), "lies inside the source");
        assertRefusedAndSourceUnchanged(() -> y.toZarr(tmp.resolve("data").toString()), "contains the source");
        // A source read through a rechunked view (fromZarr with other chunks) is a source too.
        CubedArray regrouped = Cubed.fromZarr(src.toString(), spec, 6, 4);
        assertRefusedAndSourceUnchanged(() -> Elementwise.negative(regrouped).toZarr(src.toString()), "is the source");
    }

    @Test
    void aSourceDeepInThePlanIsFound() {
        CubedArray x = Cubed.fromZarr(src.toString(), spec);
        CubedArray z = Elementwise.add(
                Manipulation.rechunk(Elementwise.multiply(x, Scalar.ofDouble(2)), new int[] {6, 1}),
                Creation.ones(new long[] {6, 4}, new int[] {6, 1}, DType.FLOAT64, spec));
        assertRefusedAndSourceUnchanged(() -> z.toZarr(src.toString()), "is the source");
    }

    @Test
    void targetsOfOneStoreMustNotOverlap() {
        CubedArray x = Cubed.fromZarr(src.toString(), spec);
        CubedArray a = Elementwise.add(x, Scalar.ofDouble(1));
        CubedArray b = Elementwise.add(x, Scalar.ofDouble(2));
        String out = tmp.resolve("out.zarr").toString();
        assertThatThrownBy(() -> Cubed.store(List.of(a, b), List.of(out, out + "/")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("overlaps " + out);
        assertThatThrownBy(() -> Cubed.store(List.of(a, b), List.of(out, out + "/b.zarr")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("overlaps " + out);
        assertThat(tmp.resolve("out.zarr")).doesNotExist();
        // Apart, they are written.
        Cubed.store(List.of(a, b), List.of(out, tmp.resolve("out2.zarr").toString()));
        assertThat(Cubed.fromZarr(out, spec).compute().doubles()[0]).isEqualTo(2.0);
        assertThat(Cubed.fromZarr(tmp.resolve("out2.zarr").toString(), spec)
                        .compute()
                        .doubles()[0])
                .isEqualTo(3.0);
    }

    @Test
    void aWorkDirectoryInsideTheSourceIsRefused() {
        Spec inside = Spec.builder()
                .workDir(src.resolve("work").toString())
                .executor(new LocalExecutor(1, 1, 0))
                .build();
        CubedArray x = Cubed.fromZarr(src.toString(), inside);
        CubedArray y = Manipulation.rechunk(x, new int[] {6, 1});
        assertRefusedAndSourceUnchanged(
                () -> y.toZarr(tmp.resolve("y.zarr").toString()), "intermediate arrays would be written into it");
    }

    /**
     * A target whose place was found empty is created without looking again, unless it overlaps the work directory,
     * where the computation writes before it creates its targets (the intermediates' directory): a target at the
     * work directory itself is then refused, not made an array around the intermediates.
     */
    @Test
    void aTargetAtTheWorkDirectoryIsLookedAtAgainOnceTheIntermediatesAreThere() {
        Path work = tmp.resolve("w");
        Spec s = Spec.builder()
                .workDir(work.toString())
                .executor(new LocalExecutor(1, 1, 0))
                .build();
        CubedArray x = Cubed.fromZarr(src.toString(), s);
        CubedArray y = Elementwise.add(Elementwise.add(x, Scalar.ofDouble(1)), Scalar.ofDouble(1));
        assertThatThrownBy(() -> y.toZarr(
                        work.toString(),
                        ComputeOptions.builder().optimize(false).build()))
                .hasMessageContaining("cannot create an array at " + work)
                .hasMessageContaining("not empty");
        assertThat(work.resolve(".zarray")).doesNotExist();
    }

    @Test
    void aTargetBesideTheSourceWithACommonPrefixIsWritten() {
        CubedArray x = Cubed.fromZarr(src.toString(), spec);
        String beside = src + "2";
        Elementwise.add(x, Scalar.ofDouble(1)).toZarr(beside);
        double[] got = Cubed.fromZarr(beside, spec).compute().doubles();
        double[] in = Cubed.fromZarr(src.toString(), spec).compute().doubles();
        for (int i = 0; i < in.length; i++) {
            assertThat(got[i]).isEqualTo(in[i] + 1);
        }
    }
}
