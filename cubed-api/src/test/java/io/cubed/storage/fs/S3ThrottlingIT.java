package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.array.Manipulation;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.RetryingStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Float64Fill;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A computation reading and writing Zarr on {@code s3a://} through {@link ThrottlingS3Proxy}, which answers {@code 503
 * SlowDown} to the first GETs and PUTs of chunk keys: s3a gives up at once (its own retries are set to one attempt),
 * {@code RetryingStore} retries, and every element of the result is right.
 */
class S3ThrottlingIT {
    private static final int THROTTLED = 4;

    @TempDir
    Path tmp;

    private static double value(long i, long j) {
        return 7.0 * i - j + 0.125;
    }

    @Test
    void throttledRequestsAreRetriedAndTheResultIsRight() throws Exception {
        try (S3TestServer s3 = S3TestServer.start("throttled");
                ThrottlingS3Proxy proxy = new ThrottlingS3Proxy(s3.port(), THROTTLED)) {
            // The input is written straight to the server; the computation goes through the proxy.
            String in = s3.url("in.zarr");
            ZarrArray x0 = ZarrArray.create(
                    in,
                    ZarrCreateOptions.builder(new long[] {30, 40}, new int[] {10, 10}, DType.FLOAT64)
                            .build(),
                    s3.options());
            Float64Fill.writeAll(x0, S3ThrottlingIT::value);
            StoreOptions viaProxy = s3.options()
                    .with("fs.s3a.endpoint", "http://127.0.0.1:" + proxy.port())
                    .with(RetryingStore.ATTEMPTS, "6")
                    .with(RetryingStore.BASE_DELAY_MS, "5");
            Spec spec = Spec.builder()
                    .workDir(tmp.resolve("work").toString())
                    .executor(new LocalExecutor(2, 1, 0))
                    .storeOptions(viaProxy)
                    .build();
            CubedArray y =
                    Manipulation.rechunk(Elementwise.add(Cubed.fromZarr(in, spec), Cubed.fromZarr(in, spec)), 15, 40);
            y.toZarr(s3.url("out.zarr"));

            assertThat(proxy.refusedGets.get())
                    .as("chunk GETs refused with 503")
                    .isEqualTo(THROTTLED);
            assertThat(proxy.refusedPuts.get())
                    .as("chunk PUTs refused with 503")
                    .isEqualTo(THROTTLED);
            assertThat(proxy.chunkGets.get())
                    .as("every input chunk read, after the refusals")
                    .isGreaterThanOrEqualTo(12 + THROTTLED);
            ZarrArray out = ZarrArray.open(s3.url("out.zarr"), s3.options());
            assertThat(out.metadata().chunks()).containsExactly(15, 40);
            for (int b = 0; b < 2; b++) {
                double[] v = out.readChunk(b, 0).doubles();
                for (int r = 0; r < 15; r++) {
                    for (int k = 0; k < 40; k++) {
                        assertThat(v[r * 40 + k])
                                .as("element (%d, %d)", b * 15 + r, k)
                                .isEqualTo(2 * value(b * 15 + r, k));
                    }
                }
            }
        }
    }
}
