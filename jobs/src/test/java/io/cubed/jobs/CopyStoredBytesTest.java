package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cubed copy} between arrays that store chunks alike moves the stored bytes and projects no decoded chunk: it
 * runs within a budget of two chunks that a copy changing the codec (decoding and encoding) is refused under, before it
 * writes anything; both copies hold the source's values.
 */
class CopyStoredBytesTest {
    @TempDir
    Path tmp;

    @Test
    void aCopyThatKeepsTheCodecNeedsNoRoomForADecodedChunk() throws Exception {
        String src = tmp.resolve("src.zarr").toString();
        // 4 chunks of 32 x 64 float64: 16 kB each.
        ZarrArray a = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(new long[] {128, 64}, new int[] {32, 64}, DType.FLOAT64)
                        .compressor(Compressor.defaultCompressor())
                        .build());
        for (int c = 0; c < 4; c++) {
            double[] v = new double[32 * 64];
            for (int i = 0; i < v.length; i++) {
                v[i] = c * 10_000 + i * 0.25;
            }
            a.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {32, 64}, v), c, 0);
        }
        // Two chunks and a reserve of 0: the stored bytes read and the same bytes written.
        String[] budget = {"--allowed-mem", "33kB", "--reserved-mem", "0B", "--threads", "1"};
        String kept = tmp.resolve("kept.zarr").toString();
        CliRun ok = CliRun.of(concat(new String[] {"copy", src, kept}, budget));
        assertThat(ok.code()).as(ok.err()).isZero();
        for (int c = 0; c < 4; c++) {
            assertThat(Files.readAllBytes(Path.of(kept, c + ".0")))
                    .isEqualTo(Files.readAllBytes(Path.of(src, c + ".0")));
            assertThat(ZarrArray.open(kept).readChunk(c, 0).doubles())
                    .isEqualTo(a.readChunk(c, 0).doubles());
        }
        String recompressed = tmp.resolve("zstd.zarr").toString();
        CliRun refused = CliRun.of(concat(new String[] {"copy", src, recompressed, "--codec", "zstd:1"}, budget));
        assertThat(refused.code()).as(refused.out()).isEqualTo(2);
        assertThat(refused.err()).contains("copy of " + src).contains("raise --allowed-mem");
        assertThat(Path.of(recompressed)).doesNotExist();
        CliRun roomy = CliRun.of("copy", src, recompressed, "--codec", "zstd:1", "--threads", "1");
        assertThat(roomy.code()).as(roomy.err()).isZero();
        assertThat(ZarrArray.open(recompressed)
                        .readRegion(new long[] {0, 0}, new int[] {128, 64})
                        .doubles())
                .isEqualTo(a.readRegion(new long[] {0, 0}, new int[] {128, 64}).doubles());
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
