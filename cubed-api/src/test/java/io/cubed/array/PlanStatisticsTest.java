package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.PlanStatistics;
import io.cubed.plan.Spec;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.testing.ExternalTool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plan statistics before and after fusion, and the plan as a Graphviz picture. */
class PlanStatisticsTest {
    @TempDir
    Path tmp;

    private CubedArray stored(Spec spec) {
        String url = tmp.resolve("x.zarr").toString();
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {3, 3}, new int[] {2, 2}, DType.FLOAT64)
                        .build());
        for (long i = 0; i < z.grid().numChunks(); i++) {
            long[] c = z.grid().chunkCoordsOf(i);
            z.writeChunk(Chunk.allocate(DType.FLOAT64, z.grid().chunkShapeAt(c)), c);
        }
        return Cubed.fromZarr(url, spec);
    }

    @Test
    void statisticsBeforeAndAfterFusion() {
        Spec spec = Spec.builder().workDir(tmp.resolve("w").toString()).build();
        CubedArray x = stored(spec);
        CubedArray d = Elementwise.negative(Elementwise.astype(Elementwise.negative(x), DType.FLOAT32));
        PlanStatistics[] s =
                d.planStatistics(ComputeOptions.builder().optimize(true).build());
        PlanStatistics after = s[0];
        PlanStatistics before = s[1];
        // Unfused: negative (reads x, 72 B; writes 72 B), astype (reads 72, writes 36), negative (reads 36, writes 36).
        assertThat(before.operations()).isEqualTo(3);
        assertThat(before.fusedOperations()).isZero();
        assertThat(before.tasks()).isEqualTo(12);
        assertThat(before.bytesRead()).isEqualTo(72 + 72 + 36);
        assertThat(before.bytesWritten()).isEqualTo(72 + 36 + 36);
        assertThat(before.intermediateBytes()).isEqualTo(72 + 36);
        // Fused: one operation reading x and writing the result only.
        assertThat(after.operations()).isEqualTo(1);
        assertThat(after.fusedOperations()).isEqualTo(2);
        assertThat(after.tasks()).isEqualTo(4);
        assertThat(after.bytesRead()).isEqualTo(72);
        assertThat(after.bytesWritten()).isEqualTo(36);
        assertThat(after.intermediateBytes()).isZero();
        assertThat(after.toString()).contains("1 operations (2 fused), 4 tasks");
        PlanStatistics[] off =
                d.planStatistics(ComputeOptions.builder().optimize(false).build());
        assertThat(off[0]).isEqualTo(off[1]).isEqualTo(before);
    }

    @Test
    void thePictureShowsOperationsArraysAndTheBudget() throws Exception {
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("w").toString())
                .allowedMem("150MB")
                .build();
        CubedArray x = stored(spec);
        CubedArray y = Elementwise.exp(Elementwise.add(x, Creation.onesLike(x)));
        CubedArray big = Blockwise.mapBlocks(
                (b, id) -> b[0],
                MapBlocksOptions.builder(DType.FLOAT64)
                        .extraMemBytes(200_000_000L)
                        .build(),
                y);
        List<Path> files = big.visualize(
                tmp.resolve("plan"), ComputeOptions.builder().optimize(true).build());
        String dot = Files.readString(tmp.resolve("plan.dot"), StandardCharsets.UTF_8);
        assertThat(dot).startsWith("digraph plan {");
        // y's two operations are fused into one node; the mapBlocks over the budget is red.
        assertThat(dot).containsPattern("op-\\d+ exp\\\\nfuses op-\\d+ add");
        assertThat(dot).contains("color=\"red\"");
        assertThat(dot).contains("(stored)").contains("(virtual)").contains("style=dashed");
        assertThat(dot).contains("(result)").contains("penwidth=2.5");
        assertThat(dot).contains("float64 [3, 3]\\nchunks [2, 2]");
        ExternalTool.require(files.size() == 3, "Graphviz's dot is not installed (apt-get install graphviz)");
        assertThat(files).containsExactly(tmp.resolve("plan.dot"), tmp.resolve("plan.svg"), tmp.resolve("plan.png"));
        assertThat(Files.readString(tmp.resolve("plan.svg"))).contains("<svg").contains("map_blocks");
        byte[] png = Files.readAllBytes(tmp.resolve("plan.png"));
        assertThat(png).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    }
}
