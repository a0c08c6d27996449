package io.cubed.jobs.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rechunk job on Spark {@code local[2]} through spark-submit, on an array four times the heap of the JVM that runs
 * it (in local mode the driver is the executor): row stripes to column stripes of a 10240 x 10240 float64 array (800
 * MiB) in a child JVM of 200 MiB heap, with {@code allowedMem} 48 MB. Every output value is checked against the
 * formula that generated the input.
 */
class SparkRechunkIT {
    private static final int N = 10_240;
    private static final int STRIPE = 64;
    private static final String HEAP = "200m";
    private static final long HEAP_BYTES = 200L << 20;

    @TempDir
    Path tmp;

    /** Element (i, j) of the input: {@code i N + j}, exact in float64. */
    private static double value(long i, long j) {
        return (double) (i * N + j);
    }

    @Test
    void rowStripesToColumnStripesOfAnArrayFourTimesTheHeap() throws Exception {
        String src = tmp.resolve("rows.zarr").toString();
        ZarrArray rows = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(new long[] {N, N}, new int[] {STRIPE, N}, DType.FLOAT64)
                        .build());
        assertThat(rows.grid().numChunks() * (long) STRIPE * N * 8)
                .as("the array is at least 4 x the child's heap")
                .isGreaterThanOrEqualTo(4 * HEAP_BYTES);
        LongStream.range(0, N / STRIPE).parallel().forEach(c -> {
            Chunk chunk = Chunk.allocate(DType.FLOAT64, STRIPE, N);
            double[] d = chunk.doubles();
            for (int i = 0; i < STRIPE; i++) {
                for (int j = 0; j < N; j++) {
                    d[i * N + j] = value(c * STRIPE + i, j);
                }
            }
            rows.writeChunk(chunk, c, 0);
        });

        String dst = tmp.resolve("columns.zarr").toString();
        Path work = tmp.resolve("work");
        SparkSubmitProcess.Result r = SparkSubmitProcess.run(
                HEAP,
                List.of(
                        "--master",
                        "local[2]",
                        "--driver-memory",
                        HEAP,
                        "--conf",
                        "spark.ui.enabled=false",
                        // Below Spark's 450 MiB minimum heap: a smaller reserve, and most of the heap to user memory
                        // (Cubed caches nothing and shuffles nothing).
                        "--conf",
                        "spark.testing.reservedMemory=" + (64L << 20),
                        "--conf",
                        "spark.memory.fraction=0.1",
                        "--class",
                        "io.cubed.jobs.spark.SparkRechunkJob",
                        SparkSubmitProcess.jobsJar().toString(),
                        src,
                        dst,
                        "--chunks",
                        "-1," + STRIPE,
                        "--allowed-mem",
                        "48MB",
                        "--reserved-mem",
                        "8MB",
                        "--work-dir",
                        work.toString()),
                tmp.resolve("spark-submit.log"),
                240);
        assertThat(r.exitCode()).as(r.output()).isZero();
        String out = r.output();
        assertThat(out)
                .contains("memory: ")
                .contains("executor=spark(local[2])")
                .contains("wrote " + dst);
        Matcher stages = Pattern.compile("rechunk \\(stage \\d+/(\\d+)\\)").matcher(out);
        assertThat(stages.find()).as(out).isTrue();
        assertThat(Integer.parseInt(stages.group(1))).as("stages").isGreaterThanOrEqualTo(2);

        ZarrArray columns = ZarrArray.open(dst);
        assertThat(columns.metadata().shape()).containsExactly(N, N);
        assertThat(columns.metadata().chunks()).containsExactly(N, STRIPE);
        assertThat(columns.metadata().dtype()).isEqualTo(DType.FLOAT64);
        assertThat(columns.writtenChunkCount()).isEqualTo(N / STRIPE);
        LongStream.range(0, N / STRIPE).parallel().forEach(c -> {
            double[] d = columns.readChunk(0, c).doubles();
            for (int i = 0; i < N; i++) {
                for (int k = 0; k < STRIPE; k++) {
                    double expected = value(i, c * STRIPE + k);
                    if (d[i * STRIPE + k] != expected) {
                        throw new AssertionError(
                                "(" + i + ", " + (c * STRIPE + k) + ") is " + d[i * STRIPE + k] + ", not " + expected);
                    }
                }
            }
        });
        assertThat(work.toFile().list()).as("intermediates deleted").noneMatch(f -> f.startsWith("cubed-"));
    }
}
