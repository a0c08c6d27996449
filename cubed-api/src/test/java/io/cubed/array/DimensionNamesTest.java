package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.CubedException;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.DimensionNames;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrFormat;
import io.cubed.storage.zarr.ZarrV3Array;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Named dimensions: read from Zarr, kept where unambiguous, written back by toZarr (v2 and v3), refused when bad. */
class DimensionNamesTest {
    @TempDir
    Path tmp;

    private Spec spec() {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem("100MB")
                .reservedMem("1MB")
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /** A (4, 6) float64 array, element (i, j) = 10 i + j, with _ARRAY_DIMENSIONS = names (null: none). */
    private String stored(String name, List<String> names) {
        String url = tmp.resolve(name).toString();
        ZarrArray a = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {4, 6}, new int[] {2, 3}, DType.FLOAT64)
                        .build());
        double[] v = new double[24];
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 6; j++) {
                v[i * 6 + j] = 10 * i + j;
            }
        }
        Chunk all = Chunk.wrap(DType.FLOAT64, new int[] {4, 6}, v);
        for (long ci = 0; ci < 2; ci++) {
            for (long cj = 0; cj < 2; cj++) {
                Chunk c = Chunk.allocate(DType.FLOAT64, 2, 3);
                Chunk.copyRegion(all, new int[] {(int) ci * 2, (int) cj * 3}, c, new int[] {0, 0}, new int[] {2, 3});
                a.writeChunk(c, ci, cj);
            }
        }
        if (names != null) {
            a.writeAttributes(Map.of("_ARRAY_DIMENSIONS", names, "units", "K"));
        }
        return url;
    }

    @Test
    void readFromZarrKeptThroughElementwiseAndRechunkAndWrittenBack() {
        Spec spec = spec();
        CubedArray x = Cubed.fromZarr(stored("x.zarr", List.of("time", "lon")), spec);
        assertThat(x.dims()).contains(List.of("time", "lon"));
        assertThat(Cubed.fromZarr(stored("plain.zarr", null), spec).dims()).isEmpty();

        CubedArray y = Manipulation.rechunk(Elementwise.add(Elementwise.multiply(x, Scalar.ofDouble(2)), x), 4, 2);
        assertThat(y.dims()).contains(List.of("time", "lon"));
        assertThat(Elementwise.astype(Elementwise.sqrt(y), DType.FLOAT32).dims())
                .contains(List.of("time", "lon"));

        String out = tmp.resolve("y.zarr").toString();
        y.toZarr(out);
        ZarrArray stored = ZarrArray.open(out);
        assertThat(stored.attributes()).containsEntry("_ARRAY_DIMENSIONS", List.of("time", "lon"));
        Chunk values = stored.readRegion(new long[] {0, 0}, new int[] {4, 6});
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 6; j++) {
                assertThat(values.doubles()[i * 6 + j]).isEqualTo(3.0 * (10 * i + j));
            }
        }
        // Zarr v3 targets carry them as dimension_names.
        String v3 = tmp.resolve("y3.zarr").toString();
        y.toZarr(v3, ComputeOptions.builder().zarrFormat(ZarrFormat.v3()).build());
        ZarrV3Array s3 = ZarrV3Array.open(v3, StoreOptions.empty());
        assertThat(s3.metadata().dimensionNames()).containsExactly("time", "lon");
        assertThat(Cubed.fromZarr(v3, spec).dims()).contains(List.of("time", "lon"));
        assertThat(Files.exists(Path.of(v3, "zarr.json"))).isTrue();
    }

    @Test
    void broadcastingKeepsNamesOnlyWhenInputsAgree() {
        Spec spec = spec();
        CubedArray x = Cubed.fromZarr(stored("x.zarr", List.of("time", "lon")), spec);
        CubedArray lon = Creation.ones(new long[] {6}, new int[] {3}, DType.FLOAT64, spec)
                .withDims("lon");
        CubedArray other = Creation.ones(new long[] {6}, new int[] {3}, DType.FLOAT64, spec)
                .withDims("lat");
        CubedArray unnamed = Creation.ones(new long[] {4, 6}, new int[] {2, 3}, DType.FLOAT64, spec);
        assertThat(Elementwise.subtract(x, lon).dims()).contains(List.of("time", "lon"));
        assertThat(Elementwise.subtract(x, other).dims()).as("lon against lat").isEmpty();
        assertThat(Elementwise.add(unnamed, x).dims())
                .as("one input names every axis")
                .contains(List.of("time", "lon"));
        assertThat(Elementwise.add(unnamed, lon).dims())
                .as("the first axis has no name")
                .isEmpty();
        assertThat(Elementwise.clip(x, Scalar.ofDouble(1), Scalar.ofDouble(30)).dims())
                .contains(List.of("time", "lon"));
        // A reduction changes the axes: the result is unnamed unless named again.
        assertThat(Statistical.sum(x).dims()).isEmpty();
        assertThat(unnamed.withDims("y", "x").withDims((List<String>) null).dims())
                .isEmpty();
        assertThat(unnamed.withDims("y", "x").toString()).endsWith(", dims=[y, x]}");
    }

    @Test
    void badNamesAreRefusedNamingTheArray() throws Exception {
        Spec spec = spec();
        CubedArray unnamed = Creation.ones(new long[] {4, 6}, new int[] {2, 3}, DType.FLOAT64, spec);
        assertThatThrownBy(() -> unnamed.withDims("x"))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("withDims on " + unnamed.name())
                .hasMessageContaining("names 1 dimensions, but the array has 2");
        assertThatThrownBy(() -> unnamed.withDims("x", "x"))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("names 'x' twice");
        assertThatThrownBy(() -> unnamed.withDims("x", ""))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("has an empty name");
        String bad = stored("bad.zarr", null);
        Files.writeString(Path.of(bad, ".zattrs"), "{\"_ARRAY_DIMENSIONS\": [\"a\", 3]}", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> Cubed.fromZarr(bad, spec))
                .isInstanceOf(CubedException.class)
                .hasMessageContaining("malformed _ARRAY_DIMENSIONS in " + bad + "/.zattrs");
        assertThat(DimensionNames.read(ZarrArray.open(stored("ok.zarr", List.of("a", "b")))))
                .containsExactly("a", "b");
    }
}
