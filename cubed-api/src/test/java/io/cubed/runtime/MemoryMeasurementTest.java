package io.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.Blockwise;
import io.cubed.array.CubedArray;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The in-process executor's memory measurement against buffers counted by hand and against the projection. */
class MemoryMeasurementTest {
    private static final long CHUNK = 1000L * 1000 * 8; // one 1000 x 1000 float64 chunk: 8 MB

    @TempDir
    Path dir;

    @Test
    void measuredTasksHoldTheBuffersTheModelCountsAndStayWithinTheProjection() {
        String url = dir.resolve("x.zarr").toString();
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {4000, 1000}, new int[] {1000, 1000}, DType.FLOAT64)
                        .compressor(null)
                        .build());
        for (int i = 0; i < 4; i++) {
            Chunk c = Chunk.allocate(DType.FLOAT64, new int[] {1000, 1000});
            java.util.Arrays.fill(c.doubles(), i + 0.5);
            z.writeChunk(c, i, 0);
        }
        LocalExecutor executor = new LocalExecutor(2, 1, 0).withMemoryMeasurement(2);
        Spec spec = Spec.builder()
                .workDir(dir.resolve("work").toString())
                .allowedMem("500MB")
                .reservedMem(0)
                .executor(executor)
                .build();
        CubedArray x = Cubed.fromZarr(url, spec);
        CubedArray y = Blockwise.mapBlocks(
                (blocks, id) -> {
                    Chunk out = Chunk.allocate(DType.FLOAT64, blocks[0].shape());
                    double[] in = blocks[0].doubles();
                    for (int i = 0; i < in.length; i++) {
                        out.doubles()[i] = -in[i];
                    }
                    return out;
                },
                DType.FLOAT64,
                x);
        Map<Long, TaskResult> results = new ConcurrentHashMap<>();
        long[] projected = new long[1];
        Callback rec = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd e) {
                results.put(e.result().taskIndex(), e.result());
                projected[0] = e.stage().projectedMemBytes();
            }
        };
        y.toZarr(dir.resolve("y.zarr").toString(), rec);

        assertThat(results).hasSize(4);
        for (long t = 0; t < 4; t++) {
            TaskResult r = results.get(t);
            if (t < 2) {
                // Reading the input holds its stored bytes and the decoded chunk (2 x 8 MB; uncompressed, the
                // stored bytes are the decompressed bytes), writing holds the output chunk and its bytes: at least
                // 16 MB live at some checkpoint, and never more than the plan projected. The measure is the live heap
                // minus the heap live when the task began, so objects of that baseline that die during the task
                // (tens of kB of the runtime's own) come off it: a 256 kB tolerance below.
                assertThat(r.memoryMeasured()).isTrue();
                assertThat(r.peakLiveBytes()).as("task %d", t).isBetween(2 * CHUNK - 256 * 1024, projected[0]);
            } else {
                assertThat(r.memoryMeasured()).as("task %d is not measured", t).isFalse();
                assertThat(r.peakLiveBytes()).isEqualTo(-1);
            }
        }
        // The values are unaffected by measuring.
        ZarrArray out = ZarrArray.open(dir.resolve("y.zarr").toString());
        for (int i = 0; i < 4; i++) {
            assertThat(out.readChunk(i, 0).doubles()).containsOnly(-(i + 0.5));
        }
        assertThat(executor.name()).contains("measuring memory");
    }

    @Test
    void siblingReductionsOfOneAsarrayStayWithinTheStageProjectedWithItsDataOnce() {
        // sum(a) and mean(a, axis=0) over one 16 MB asarray in eight 2 MB chunks: their first rounds run as one stage
        // whose figure counts the data once. Every measured task of every stage stays within its stage's projection.
        LocalExecutor executor = new LocalExecutor(2, 1, 0).withMemoryMeasurement(2);
        Spec spec = Spec.builder()
                .workDir(dir.resolve("work").toString())
                .allowedMem("500MB")
                .reservedMem(0)
                .executor(executor)
                .build();
        int rows = 4000;
        int cols = 500;
        Chunk data = Chunk.allocate(DType.FLOAT64, new int[] {rows, cols});
        for (int k = 0; k < rows * cols; k++) {
            data.doubles()[k] = (k % 13) - 6;
        }
        CubedArray a = Cubed.asarray(data, spec, 500, cols);
        CubedArray total = io.cubed.array.Statistical.sum(a);
        CubedArray colMean = io.cubed.array.Statistical.mean(a, io.cubed.array.ReductionOptions.axis(0));
        Map<String, Long> projected = new ConcurrentHashMap<>();
        Map<String, Long> peak = new ConcurrentHashMap<>();
        Callback rec = new Callback() {
            @Override
            public void onTaskEnd(TaskEnd e) {
                if (e.result().memoryMeasured()) {
                    String stage = e.stage().description();
                    projected.put(stage, e.stage().projectedMemBytes());
                    peak.merge(stage, e.result().peakLiveBytes(), Math::max);
                }
            }
        };
        java.util.List<Chunk> got = Cubed.compute(
                java.util.List.of(total, colMean),
                io.cubed.array.ComputeOptions.builder().build(),
                rec);
        assertThat(peak.keySet()).anyMatch(d -> d.contains("sum round 1/") && d.contains("mean round 1/"));
        // The objects around the element bytes (a chunk's header, keys, a task's bookkeeping), which reservedMem
        // covers and which is 0 here, are allowed for as in ProjectionSweepTest: the last rounds project a few kB.
        long objectSlack = 256 * 1024;
        for (Map.Entry<String, Long> e : peak.entrySet()) {
            System.out.println("measured " + e.getValue() + " of " + projected.get(e.getKey()) + ": " + e.getKey());
            assertThat(e.getValue()).as(e.getKey()).isLessThanOrEqualTo(projected.get(e.getKey()) + objectSlack);
        }
        double sum = 0;
        double[] mean = new double[cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                sum += data.doubles()[i * cols + j];
                mean[j] += data.doubles()[i * cols + j] / rows;
            }
        }
        assertThat(got.get(0).doubles()[0]).isEqualTo(sum);
        assertThat(got.get(1).doubles()).containsExactly(mean, org.assertj.core.data.Offset.offset(1e-12));
    }
}
