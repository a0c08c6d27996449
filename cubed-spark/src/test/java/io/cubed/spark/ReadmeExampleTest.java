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
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the Java snippet of README.md ("Running on Spark") as written there, on the test's local Spark. */
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
    void theReadmeSnippetRuns() {
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

        // --- README snippet starts here ---
        SparkSession spark = SparkSession.builder().appName("cubed-example").getOrCreate();
        SparkExecutor executor = SparkExecutor.create(spark);
        Spec spec = executor.specBuilder() // the executor, and store options from spark.hadoop.* settings
                .workDir(workDir)
                .allowedMem("200MB")
                .build();
        CubedArray x = Cubed.fromZarr(input, spec);
        CubedArray y = Blockwise.mapBlocks(new Scale(), DType.FLOAT64, x);
        y.toZarr(output);
        // --- README snippet ends here ---

        Chunk got = ZarrArray.open(output).readRegion(new long[] {0}, new int[] {100});
        for (int i = 0; i < 100; i++) {
            assertThat(got.doubles()[i]).isEqualTo(2.0 * i);
        }
    }
}
