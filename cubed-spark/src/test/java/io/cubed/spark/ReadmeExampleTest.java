package io.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.BlockFunction;
import io.cubed.array.Blockwise;
import io.cubed.array.CubedArray;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the Java snippet of README.md ("Running on Spark") on the test's local Spark, and checks that the README shows
 * exactly the code between the {@code // README:start} and {@code // README:end} markers below.
 */
class ReadmeExampleTest {
    @TempDir
    Path tmp;

    /** The README's function: every element times two. */
    public static final class Scale implements BlockFunction {
        private static final long serialVersionUID = 1L;

        @Override
        public Chunk apply(Chunk[] blocks, long[] blockId) {
            double[] in = blocks[0].doubles();
            Chunk out = Chunk.allocate(DType.FLOAT64, blocks[0].shape());
            for (int i = 0; i < in.length; i++) {
                out.doubles()[i] = 2 * in[i];
            }
            return out;
        }
    }

    @Test
    void theReadmeSnippetRunsAndIsTheCodeShown() throws IOException {
        SparkTestContext.get(); // the session below joins the shared test context
        String input = tmp.resolve("input.zarr").toString();
        String output = tmp.resolve("output.zarr").toString();
        String workDir = tmp.resolve("work").toString();
        ZarrArray in = ZarrArray.create(
                input,
                ZarrCreateOptions.builder(new long[] {100}, new int[] {30}, DType.FLOAT64)
                        .build());
        for (long c = 0; c < 4; c++) {
            int n = in.grid().chunkShapeAt(new long[] {c})[0];
            double[] d = new double[n];
            for (int i = 0; i < n; i++) {
                d[i] = c * 30 + i;
            }
            in.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {n}, d), new long[] {c});
        }

        // README:start
        SparkSession spark = SparkSession.builder().appName("cubed-example").getOrCreate();
        SparkExecutor executor = SparkExecutor.create(spark);
        Spec spec = executor.specBuilder() // the executor, and store options from spark.hadoop.* settings
                .workDir(workDir)
                .allowedMem("200MB")
                .build();
        CubedArray x = Cubed.fromZarr(input, spec);
        CubedArray y = Blockwise.mapBlocks(new Scale(), DType.FLOAT64, x);
        y.toZarr(output);
        // README:end

        Chunk got = ZarrArray.open(output).readRegion(new long[] {0}, new int[] {100});
        for (int i = 0; i < 100; i++) {
            assertThat(got.doubles()[i]).isEqualTo(2.0 * i);
        }
        assertThat(readmeSnippet()).isEqualTo(sourceSnippet());
    }

    /** The lines between the markers in this file, without their common indentation. */
    private static List<String> sourceSnippet() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("src/test/java/io/cubed/spark/ReadmeExampleTest.java"));
        int start = lines.indexOf("        // README:start");
        int end = lines.indexOf("        // README:end");
        assertThat(start).as("start marker").isNotNegative();
        return lines.subList(start + 1, end).stream()
                .map(l -> l.length() >= 8 ? l.substring(8) : l.strip())
                .toList();
    }

    /** The body of the README's Java block that follows the line {@code <!-- example: SparkReadmeExample -->}. */
    private static List<String> readmeSnippet() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("../README.md"));
        int marker = lines.indexOf("<!-- example: SparkReadmeExample -->");
        assertThat(marker).as("README marker").isNotNegative();
        List<String> out = new ArrayList<>();
        for (int i = marker + 2; !lines.get(i).equals("```"); i++) { // marker + 1 is the ```java fence
            out.add(lines.get(i));
        }
        return out;
    }
}
