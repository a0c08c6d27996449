package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.zarr.IncompleteMark;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.testing.ExternalTool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A copy that fails half-way leaves its destination marked incomplete: the command says how to finish or remove it,
 * {@code cubed info} shows it, readers refuse it, zarr-python still opens it and sees the mark as an attribute, and
 * {@code --resume} finishes it and removes the mark.
 */
class IncompleteCopyIT {
    @TempDir
    Path tmp;

    @Test
    void aFailedCopyIsMarkedUntilResumedToTheEnd() throws Exception {
        String src = tmp.resolve("src.zarr").toString();
        ZarrArray a = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(new long[] {8, 4}, new int[] {2, 4}, DType.FLOAT64)
                        .build());
        for (int c = 0; c < 4; c++) {
            a.writeChunk(Chunk.full(DType.FLOAT64, io.cubed.dtype.Scalar.ofDouble(c), 2, 4), c, 0);
        }
        byte[] good = Files.readAllBytes(Path.of(src, "2.0"));
        Files.write(Path.of(src, "2.0"), new byte[] {1, 2, 3});
        String dst = tmp.resolve("dst.zarr").toString();

        CliRun failed = CliRun.of("copy", src, dst, "--codec", "zlib:1", "--threads", "1");
        assertThat(failed.code()).as(failed.err()).isEqualTo(1);
        assertThat(failed.err())
                .contains("corrupt chunk " + src + "/2.0")
                .contains(dst + " is left incomplete (marked so in its attributes), and --resume alone cannot finish"
                        + " it: the input chunk " + src + "/2.0 is corrupt")
                .contains("then run the same command with --resume to finish " + dst + "; or delete " + dst);
        CliRun info = CliRun.of("info", dst);
        assertThat(info.out())
                .containsPattern("status: +INCOMPLETE \\(being written by cubed copy since \\d{4}-[^;]+; to finish"
                        + " it: run the same cubed copy command with --resume; or delete it\\)");
        CliRun reading = CliRun.of("copy", dst, tmp.resolve("again.zarr").toString());
        assertThat(reading.code()).isEqualTo(1);
        assertThat(reading.err()).contains("cannot read " + dst + ": it is incomplete, being written by cubed copy");

        pythonSeesTheMark(dst);

        Files.write(Path.of(src, "2.0"), good);
        CliRun resumed = CliRun.of("copy", src, dst, "--codec", "zlib:1", "--resume");
        assertThat(resumed.code()).as(resumed.err()).isZero();
        assertThat(CliRun.of("info", dst).out()).contains("status:       complete");
        ZarrArray b = ZarrArray.open(dst);
        assertThat(b.attributes()).doesNotContainKey(IncompleteMark.ATTRIBUTE);
        for (int c = 0; c < 4; c++) {
            assertThat(b.readChunk(c, 0).doubles()).containsOnly(c);
        }
    }

    /** zarr-python opens the marked array and reads the mark as an ordinary attribute. */
    private void pythonSeesTheMark(String dst) throws Exception {
        boolean available;
        try {
            Process p = new ProcessBuilder("/usr/bin/python3", "-c", "import zarr").start();
            available = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            available = false;
        }
        ExternalTool.require(
                available, "/usr/bin/python3 with zarr-python is not installed (apt-get install python3-zarr)");
        Path script = tmp.resolve("mark.py");
        Files.writeString(
                script,
                "import sys, zarr\n"
                        + "z = zarr.open_array(sys.argv[1], mode='r')\n"
                        + "m = z.attrs['" + IncompleteMark.ATTRIBUTE + "']\n"
                        + "print(z.shape, m['by'], z[2, 0], z[4, 0])\n",
                StandardCharsets.UTF_8);
        Process p = new ProcessBuilder("/usr/bin/python3", script.toString(), dst)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        // Chunk 1 was copied; chunk 2 (rows 4 and 5) was never written: zarr-python gives the fill value there.
        assertThat(out.strip()).isEqualTo("(8, 4) cubed copy 1.0 0.0");
    }
}
