package io.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.array.Manipulation;
import io.cubed.dtype.DType;
import io.cubed.error.TaskFailedException;
import io.cubed.plan.Spec;
import io.cubed.storage.RetryingStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Float64Fill;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Store faults under the Spark executor ({@code local[2,3]}): chunk reads and writes through {@link FaultyFileSystem}
 * (the real Hadoop store stack, {@code HadoopStore} and {@code RetryingStore}, on a file system that times out on
 * chosen requests or flips bytes) in a computation reading a Zarr array, doubling it and rechunking it.
 */
class SparkStoreFaultsTest {
    private static final int ROWS = 40;
    private static final int COLS = 60;

    @TempDir
    Path tmp;

    private final String id = "t" + UUID.randomUUID().toString().replace("-", "");
    private final FaultyFileSystem.Faults faults = FaultyFileSystem.faults(id);

    private static double value(long i, long j) {
        return 100.0 * i + j + 0.5;
    }

    private String url(String name) {
        return "faulty://" + id + tmp.resolve(name).toAbsolutePath();
    }

    /** Writes the input ({@code ROWS x COLS}, chunks 10 x 10), arms the faults and runs {@code 2x} rechunked. */
    private void compute(StoreOptions options) {
        String in = url("in.zarr");
        ZarrArray x0 = ZarrArray.create(
                in,
                ZarrCreateOptions.builder(new long[] {ROWS, COLS}, new int[] {10, 10}, DType.FLOAT64)
                        .build(),
                options);
        Float64Fill.writeAll(x0, SparkStoreFaultsTest::value);
        Spec spec = SparkExecutor.create(SparkTestContext.get())
                .specBuilder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem("100MB")
                .reservedMem("10MB")
                .storeOptions(options)
                .build();
        CubedArray x = Cubed.fromZarr(in, spec);
        CubedArray y = Manipulation.rechunk(Elementwise.add(x, x), 20, 30);
        faults.armed = true;
        try {
            y.toZarr(url("out.zarr"));
        } finally {
            faults.armed = false;
        }
    }

    private StoreOptions options(int storeAttempts) {
        return StoreOptions.empty()
                .with("fs.faulty.impl", FaultyFileSystem.class.getName())
                .with(RetryingStore.ATTEMPTS, String.valueOf(storeAttempts))
                .with(RetryingStore.BASE_DELAY_MS, "5");
    }

    /** Every element of the output, read through the plain local path, against 2 x the input formula. */
    private void assertOutputIsTwiceTheInput() {
        ZarrArray out = ZarrArray.open(tmp.resolve("out.zarr").toString());
        assertThat(out.metadata().chunks()).containsExactly(20, 30);
        assertThat(out.writtenChunkCount()).isEqualTo(4);
        for (int bi = 0; bi < 2; bi++) {
            for (int bj = 0; bj < 2; bj++) {
                double[] v = out.readChunk(bi, bj).doubles();
                for (int r = 0; r < 20; r++) {
                    for (int k = 0; k < 30; k++) {
                        assertThat(v[r * 30 + k])
                                .as("element (%d, %d)", bi * 20 + r, bj * 30 + k)
                                .isEqualTo(2 * value(bi * 20 + r, bj * 30 + k));
                    }
                }
            }
        }
    }

    @Test
    void transientFaultsAreRetriedByTheStore() {
        faults.failingReads.addAll(List.of(2, 5, 9));
        faults.failingWrites.addAll(List.of(1, 3));
        compute(options(4));
        assertThat(faults.injected.get()).as("faults injected").isEqualTo(5);
        assertOutputIsTwiceTheInput();
    }

    @Test
    void transientFaultsWithoutStoreRetriesAreRetriedBySparkTasks() {
        faults.failingReads.addAll(List.of(1, 4));
        faults.failingWrites.add(2);
        compute(options(1));
        assertThat(faults.injected.get()).as("faults injected").isEqualTo(3);
        assertOutputIsTwiceTheInput();
    }

    @Test
    void aCorruptChunkFailsNamingTheArrayTheChunkAndTheCause() {
        faults.corruptKey = "1.2";
        assertThatThrownBy(() -> compute(options(4)))
                .isInstanceOf(TaskFailedException.class)
                .hasMessageContaining("corrupt chunk faulty://" + id)
                .hasMessageContaining("in.zarr/1.2")
                .hasMessageContaining("failed after 1 attempt: ")
                .satisfies(e -> assertThat(e.getMessage())
                        .as("one line, no Spark stack trace")
                        .doesNotContain("\n")
                        .doesNotContain("org.apache.spark"));
        assertThat(faults.injected.get())
                .as("corrupt data is not transient: the chunk is read once, no Spark retry")
                .isEqualTo(1);
    }
}
