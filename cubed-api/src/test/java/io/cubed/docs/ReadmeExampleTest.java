package io.cubed.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.plan.Spec;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the README's example and checks that the README shows exactly the code between the {@code // README:start}
 * and {@code // README:end} markers below, so the two cannot drift apart.
 */
class ReadmeExampleTest {
    @TempDir
    Path tmp;

    @Test
    void theReadmeExampleRunsAndIsTheCodeShown() throws Exception {
        String dir = tmp.toString();
        // Inputs: two 1000 x 1000 float64 arrays, a(i, j) = i and b(i, j) = j, in chunks of 250 x 1000.
        for (String name : List.of("a", "b")) {
            ZarrArray z = ZarrArray.create(
                    dir + "/" + name + ".zarr",
                    ZarrCreateOptions.builder(new long[] {1000, 1000}, new int[] {250, 1000}, DType.FLOAT64)
                            .build());
            for (int c = 0; c < 4; c++) {
                Chunk chunk = Chunk.allocate(DType.FLOAT64, 250, 1000);
                for (int i = 0; i < 250; i++) {
                    for (int j = 0; j < 1000; j++) {
                        chunk.doubles()[i * 1000 + j] = name.equals("a") ? c * 250 + i : j;
                    }
                }
                z.writeChunk(chunk, c, 0);
            }
        }

        // README:start
        Spec spec = Spec.builder().workDir(dir + "/work").allowedMem("500MB").build();
        CubedArray a = Cubed.fromZarr(dir + "/a.zarr", spec);
        CubedArray b = Cubed.fromZarr(dir + "/b.zarr", spec);
        CubedArray mean = Elementwise.multiply(Elementwise.add(a, b), Scalar.ofDouble(0.5)); // lazy
        System.out.println(mean.explain()); // add fused into multiply: 4 tasks, memory per task
        mean.toZarr(dir + "/mean.zarr"); // runs the plan; no data comes back
        double corner = mean.compute().get(999, 999).doubleValue(); // 999.0
        // README:end

        assertThat(corner).isEqualTo(999.0);
        Chunk stored = ZarrArray.open(dir + "/mean.zarr").readRegion(new long[] {0, 0}, new int[] {1000, 1000});
        for (int i = 0; i < 1000; i += 37) {
            for (int j = 0; j < 1000; j += 41) {
                assertThat(stored.doubles()[i * 1000 + j]).isEqualTo((i + j) * 0.5);
            }
        }
        assertThat(readmeSnippet()).isEqualTo(sourceSnippet());
    }

    /** The lines between the markers in this file, without their common indentation. */
    private static List<String> sourceSnippet() throws Exception {
        Path source = Path.of("src/test/java/io/cubed/docs/ReadmeExampleTest.java");
        List<String> lines = Files.readAllLines(source);
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String line : lines) {
            if (line.trim().equals("// README:end")) {
                break;
            }
            if (in) {
                out.add(line.length() >= 8 ? line.substring(8) : line.strip());
            }
            if (line.trim().equals("// README:start")) {
                in = true;
            }
        }
        return out;
    }

    /** The body of the README's Java block that follows the line {@code <!-- example: ReadmeExampleTest -->}. */
    private static List<String> readmeSnippet() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("../README.md"));
        int marker = lines.indexOf("<!-- example: ReadmeExampleTest -->");
        assertThat(marker).as("README marker").isNotNegative();
        List<String> out = new ArrayList<>();
        int i = marker + 2; // skip the ```java fence
        while (!lines.get(i).equals("```")) {
            out.add(lines.get(i++));
        }
        return out;
    }
}
