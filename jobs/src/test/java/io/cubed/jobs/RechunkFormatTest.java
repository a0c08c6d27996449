package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrV3Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cubed rechunk} writes DST in the source's format (compressor, fill value, Zarr version) unless {@code --codec}
 * or {@code --zarr-format} say otherwise, and {@code --save-plan} with {@code --dry-run} saves the plan without
 * computing, for {@code cubed resume} to run later.
 */
class RechunkFormatTest {
    @TempDir
    Path tmp;

    /** An 8 x 6 float64 array in row chunks, element (i, j) = 10 i + j, one chunk left unwritten (fill value). */
    private String rows(String name, Compressor compressor, double fill) {
        String url = tmp.resolve(name).toString();
        ZarrArray a = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {8, 6}, new int[] {2, 6}, DType.FLOAT64)
                        .compressor(compressor)
                        .fillValue(Scalar.ofDouble(fill))
                        .build());
        for (int r = 0; r < 3; r++) {
            Chunk c = Chunk.allocate(DType.FLOAT64, new int[] {2, 6});
            for (int k = 0; k < 12; k++) {
                c.doubles()[k] = 10 * (2 * r + k / 6) + k % 6;
            }
            a.writeChunk(c, r, 0);
        }
        return url;
    }

    private static void assertRechunkedValues(String url, double fill) {
        ZarrArray b = ZarrArray.open(url);
        assertThat(b.grid().chunkShape()).containsExactly(8, 3);
        double[] v = b.readRegion(new long[] {0, 0}, new int[] {8, 6}).doubles();
        for (int i = 0; i < 8; i++) {
            for (int j = 0; j < 6; j++) {
                assertThat(v[i * 6 + j]).isEqualTo(i < 6 ? 10 * i + j : fill);
            }
        }
    }

    @Test
    void theSourcesCompressorAndFillValueAreKeptUnlessCodecSaysOtherwise() {
        String src = rows("rows.zarr", new Compressor.Zstd(3, false), -7);
        String dst = tmp.resolve("cols.zarr").toString();
        CliRun r = CliRun.of(
                "rechunk",
                src,
                dst,
                "--chunks",
                "-1,3",
                "--work-dir",
                tmp.resolve("w").toString());
        assertThat(r.code()).as(r.err()).isZero();
        ZarrArray b = ZarrArray.open(dst);
        assertThat(b.metadata().compressor()).isEqualTo(new Compressor.Zstd(3, false));
        assertThat(b.fillValue().doubleValue()).isEqualTo(-7);
        assertRechunkedValues(dst, -7);

        String zlib = tmp.resolve("zlib.zarr").toString();
        CliRun z = CliRun.of(
                "rechunk",
                src,
                zlib,
                "--chunks",
                "-1,3",
                "--codec",
                "zlib:1",
                "--work-dir",
                tmp.resolve("w").toString());
        assertThat(z.code()).as(z.err()).isZero();
        assertThat(ZarrArray.open(zlib).metadata().compressor()).isEqualTo(new Compressor.Zlib(1));
        assertThat(ZarrArray.open(zlib).fillValue().doubleValue()).isEqualTo(-7);
        assertRechunkedValues(zlib, -7);
    }

    @Test
    void aZarrV3SourceGivesAZarrV3DestinationAndZarrFormatConverts() {
        ZarrV3Array v3 = V3Arrays.create(
                tmp.resolve("v3.zarr").toString(),
                new long[] {6, 4},
                new int[] {2, 4},
                DType.FLOAT64,
                Scalar.ofDouble(0),
                java.util.List.of(
                        new io.cubed.storage.zarr.V3Codec.Bytes(false),
                        new io.cubed.storage.zarr.V3Codec.Zstd(1, false)),
                Set.of());
        String dst = tmp.resolve("v3-cols.zarr").toString();
        long[] shape = v3.grid().shape();
        CliRun r = CliRun.of(
                "rechunk",
                v3.url(),
                dst,
                "--chunks",
                shape[0] + ",1",
                "--work-dir",
                tmp.resolve("w").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Zarr.open(dst, StoreOptions.empty())).isInstanceOf(ZarrV3Array.class);
        String v2 = tmp.resolve("v2-cols.zarr").toString();
        CliRun c = CliRun.of(
                "rechunk",
                v3.url(),
                v2,
                "--chunks",
                shape[0] + ",1",
                "--zarr-format",
                "2",
                "--work-dir",
                tmp.resolve("w").toString());
        assertThat(c.code()).as(c.err()).isZero();
        assertThat(Zarr.open(v2, StoreOptions.empty())).isInstanceOf(ZarrArray.class);
        for (String url : new String[] {dst, v2}) {
            double[] got = Zarr.open(url, StoreOptions.empty())
                    .readRegion(new long[shape.length], new int[] {(int) shape[0], (int) shape[1]})
                    .doubles();
            for (int i = 0; i < shape[0]; i++) {
                for (int j = 0; j < shape[1]; j++) {
                    assertThat(got[(int) (i * shape[1] + j)]).isEqualTo(V3Arrays.value(i, j));
                }
            }
        }
    }

    @Test
    void saveplanWithDryRunSavesThePlanWithoutComputingAndResumeRunsIt() throws Exception {
        String src = rows("rows.zarr", Compressor.defaultCompressor(), 0);
        String dst = tmp.resolve("cols.zarr").toString();
        Path plan = tmp.resolve("plan.json");
        CliRun dry = CliRun.of(
                "rechunk",
                src,
                dst,
                "--chunks",
                "-1,3",
                "--dry-run",
                "--save-plan",
                plan.toString(),
                "--work-dir",
                tmp.resolve("w").toString());
        assertThat(dry.code()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("plan saved to " + plan);
        assertThat(Files.exists(plan)).isTrue();
        assertThat(Files.exists(Path.of(dst))).as("nothing computed").isFalse();
        CliRun run = CliRun.of("resume", plan.toString());
        assertThat(run.code()).as(run.err()).isZero();
        assertRechunkedValues(dst, 0);
    }
}
