package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.CubedException;
import io.cubed.error.StorageException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.IncompleteMark;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrFormat;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A target carries the incomplete mark from its creation until its last chunk lands: a computation that fails half-way
 * leaves it marked, readers refuse it unless asked, a resumed computation finishes it and removes the mark, and the
 * user's own attributes survive. Zarr v2 and v3.
 */
class IncompleteMarkTest {
    @TempDir
    Path tmp;

    static final Set<Long> FAILING = ConcurrentHashMap.newKeySet();

    static Chunk plusOneFailingSome(Chunk[] blocks, long[] id) {
        if (FAILING.contains(id[0])) {
            throw new IllegalStateException("injected failure in chunk " + id[0]);
        }
        double[] v = blocks[0].doubles().clone();
        for (int i = 0; i < v.length; i++) {
            v[i] += 1;
        }
        return Chunk.wrap(DType.FLOAT64, blocks[0].shape(), v);
    }

    private Spec spec(StoreOptions options) {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .storeOptions(options)
                .executor(new LocalExecutor(1, 1, 0))
                .build();
    }

    @ParameterizedTest(name = "Zarr v{0}")
    @ValueSource(ints = {2, 3})
    void aFailedComputationLeavesItsTargetMarkedAndAResumedOneFinishesIt(int version) {
        Spec spec = spec(StoreOptions.empty());
        CubedArray x = Creation.arange(0, 100, 1, 10, DType.FLOAT64, spec);
        CubedArray y = Blockwise.mapBlocks(IncompleteMarkTest::plusOneFailingSome, DType.FLOAT64, x);
        String out = tmp.resolve("y.zarr").toString();
        ZarrFormat format = version == 2 ? ZarrFormat.v2() : ZarrFormat.v3();
        ComputeOptions options = ComputeOptions.builder()
                .resume("mark-" + version)
                .zarrFormat(format)
                .build();
        FAILING.add(6L);
        try {
            assertThatThrownBy(() -> y.toZarr(out, options)).isInstanceOf(CubedException.class);
        } finally {
            FAILING.clear();
        }
        ChunkStore left = Zarr.open(out, StoreOptions.empty());
        Map<String, Object> mark = IncompleteMark.of(left).orElseThrow();
        assertThat(mark.get("by")).asString().startsWith("a Cubed computation (");
        assertThat(mark.get("resume")).asString().contains("ComputeOptions.resume(\"mark-" + version + "\")");
        assertThat(mark.get("since")).asString().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");

        // Readers refuse it, naming what wrote it and the ways forward; asked, they read what is there.
        assertThatThrownBy(() -> Cubed.fromZarr(out, spec))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("cannot read " + out + ": it is incomplete, being written by a Cubed computation")
                .hasMessageContaining("ComputeOptions.resume(\"mark-" + version + "\")")
                .hasMessageContaining("cubed.read.incomplete=true");
        Spec anyway = spec(StoreOptions.empty().with(IncompleteMark.READ_OPTION, "true"));
        assertThat(Cubed.fromZarr(out, anyway).compute().doubles()[0]).isEqualTo(1.0);

        // Resumed: finished, unmarked, every value right.
        y.toZarr(out, options);
        ChunkStore done = Zarr.open(out, StoreOptions.empty());
        assertThat(IncompleteMark.of(done)).isEmpty();
        double[] v = Cubed.fromZarr(out, spec).compute().doubles();
        for (int i = 0; i < 100; i++) {
            assertThat(v[i]).isEqualTo(i + 1.0);
        }
    }

    @Test
    void aSuccessfulComputationLeavesNoMarkAndTheMarkKeepsOtherAttributes() {
        Spec spec = spec(StoreOptions.empty());
        String out = tmp.resolve("ok.zarr").toString();
        Creation.ones(new long[] {4}, new int[] {2}, DType.FLOAT64, spec).toZarr(out);
        ZarrArray a = ZarrArray.open(out);
        assertThat(a.attributes()).doesNotContainKey(IncompleteMark.ATTRIBUTE);
        a.writeAttributes(Map.of("units", "K", "long_name", "temperature"));
        IncompleteMark.set(a, "a test", "rerun it");
        assertThat(ZarrArray.open(out).attributes()).containsEntry("units", "K").containsKey(IncompleteMark.ATTRIBUTE);
        IncompleteMark.clear(ZarrArray.open(out));
        assertThat(ZarrArray.open(out).attributes()).isEqualTo(Map.of("units", "K", "long_name", "temperature"));
    }

    /**
     * A new array is set up and marked before any of its documents is written: while the set-up runs the place holds
     * nothing, and then the documents hold the set-up's attributes and dimension names and the mark together (Zarr
     * v3: its one {@code zarr.json}, written once). A set-up that fails leaves nothing.
     */
    @ParameterizedTest(name = "Zarr v{0}")
    @ValueSource(ints = {2, 3})
    void aNewArrayIsWrittenOnceSetUpAndMarked(int version) {
        ZarrFormat format = version == 2 ? ZarrFormat.v2() : ZarrFormat.v3();
        Path at = tmp.resolve("new-" + version + ".zarr");
        io.cubed.grid.ChunkGrid grid = io.cubed.grid.ChunkGrid.of(new long[] {4, 6}, new int[] {2, 3});
        java.util.List<String> seenDuringSetUp = new java.util.ArrayList<>();
        ChunkStore made = IncompleteMark.createMarked(
                () -> format.unwritten(at.toString(), grid, DType.FLOAT64, false, StoreOptions.empty()),
                a -> {
                    seenDuringSetUp.addAll(listed(at));
                    ChunkStore named = io.cubed.storage.zarr.DimensionNames.write(a, java.util.List.of("y", "x"));
                    Map<String, Object> attrs =
                            new java.util.LinkedHashMap<>(io.cubed.storage.zarr.Attributes.of(named));
                    attrs.put("units", "K");
                    return named instanceof io.cubed.storage.zarr.ZarrV3Array v3
                            ? v3.writeAttributes(attrs)
                            : write((ZarrArray) named, attrs);
                },
                "a test",
                "rerun it");
        assertThat(seenDuringSetUp)
                .as("what the place held while the array was set up")
                .isEmpty();
        assertThat(listed(at))
                .containsExactlyInAnyOrderElementsOf(
                        version == 2 ? java.util.List.of(".zarray", ".zattrs") : java.util.List.of("zarr.json"));
        ChunkStore read = Zarr.open(at.toString(), StoreOptions.empty().with(IncompleteMark.READ_OPTION, "true"));
        assertThat(io.cubed.storage.zarr.Attributes.of(read)).containsEntry("units", "K");
        assertThat(io.cubed.storage.zarr.DimensionNames.read(read)).containsExactly("y", "x");
        assertThat(IncompleteMark.of(read).orElseThrow()).containsEntry("by", "a test");
        assertThat(IncompleteMark.of(made)).isPresent();
        assertThat(made.grid().shape()).containsExactly(4, 6);
        // The array made is the one written: its chunks land, and the mark comes off.
        made.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {2, 3}, new double[] {1, 2, 3, 4, 5, 6}), 0, 0);
        IncompleteMark.clear(made);
        ChunkStore done = Zarr.open(at.toString(), StoreOptions.empty());
        assertThat(done.readChunk(0, 0).doubles()).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(io.cubed.storage.zarr.Attributes.of(done)).containsEntry("units", "K");

        Path failed = tmp.resolve("failed-" + version + ".zarr");
        assertThatThrownBy(() -> IncompleteMark.createMarked(
                        () -> format.unwritten(failed.toString(), grid, DType.FLOAT64, false, StoreOptions.empty()),
                        a -> {
                            throw new IllegalStateException("set-up failed");
                        },
                        "a test",
                        "rerun it"))
                .hasMessage("set-up failed");
        assertThat(listed(failed)).isEmpty();
    }

    private static ChunkStore write(ZarrArray a, Map<String, Object> attrs) {
        a.writeAttributes(attrs);
        return a;
    }

    private static java.util.List<String> listed(Path dir) {
        if (!java.nio.file.Files.isDirectory(dir)) {
            return java.util.List.of();
        }
        try (var s = java.nio.file.Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
