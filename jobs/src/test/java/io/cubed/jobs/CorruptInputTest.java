package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.CorruptDataException;
import io.cubed.error.TaskFailedException;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A corrupt input chunk: the failure names it and says to mend the input before {@code --resume}, which alone would
 * read the same bytes again; mended, {@code --resume} finishes the output.
 */
class CorruptInputTest {
    @TempDir
    Path tmp;

    /** Puts the good chunk 2 of {@code src} back and runs {@code args} again with {@code --resume}, which succeeds. */
    private void mendAndResume(String src, String[] args) throws Exception {
        Files.move(tmp.resolve("good-2.0"), Path.of(src, "2.0"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        String[] resume = java.util.Arrays.copyOf(args, args.length + 1);
        resume[args.length] = "--resume";
        CliRun mended = CliRun.of(resume);
        assertThat(mended.code()).as(mended.err()).isZero();
    }

    /** An 8 x 4 float64 array in chunks of 2 rows, chunk c holding c everywhere, with chunk 2 corrupt. */
    private String corruptInput() throws Exception {
        String src = tmp.resolve("src.zarr").toString();
        ZarrArray a = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(new long[] {8, 4}, new int[] {2, 4}, DType.FLOAT64)
                        .build());
        for (int c = 0; c < 4; c++) {
            a.writeChunk(Chunk.full(DType.FLOAT64, io.cubed.dtype.Scalar.ofDouble(c), 2, 4), c, 0);
        }
        Files.move(Path.of(src, "2.0"), tmp.resolve("good-2.0"));
        Files.write(Path.of(src, "2.0"), new byte[] {1, 2, 3});
        return src;
    }

    /**
     * A copy that keeps the codec moves the stored bytes as they are (the output's chunk files are the input's), and
     * still refuses a chunk whose Blosc header shows it cut short, naming it, with the advice to mend it first.
     */
    @Test
    void aCopyThatKeepsTheCodecMovesTheStoredBytesAndStillRefusesACorruptChunk() throws Exception {
        String src = corruptInput();
        String dst = tmp.resolve("dst.zarr").toString();
        String[] args = {"copy", src, dst, "--threads", "1"};
        CliRun failed = CliRun.of(args);
        assertThat(failed.code()).as(failed.err()).isEqualTo(1);
        assertThat(failed.err())
                .contains("corrupt chunk " + src + "/2.0: ")
                .contains("the input chunk " + src + "/2.0 is corrupt, and every run reads it again");
        assertThat(Path.of(dst, "2.0")).doesNotExist();

        mendAndResume(src, args);
        ZarrArray out = ZarrArray.open(dst);
        for (int c = 0; c < 4; c++) {
            assertThat(Files.readAllBytes(Path.of(dst, c + ".0")))
                    .as("chunk %d moved as stored", c)
                    .isEqualTo(Files.readAllBytes(Path.of(src, c + ".0")));
            assertThat(out.readChunk(c, 0).doubles()).containsOnly(c);
        }
    }

    @Test
    void aRechunkThatMeetsACorruptInputChunkSaysToMendItBeforeResuming() throws Exception {
        String src = corruptInput();
        String dst = tmp.resolve("dst.zarr").toString();
        String[] args = {
            "rechunk",
            src,
            dst,
            "--chunks",
            "4,2",
            "--threads",
            "1",
            "--work-dir",
            tmp.resolve("work").toString()
        };
        CliRun failed = CliRun.of(args);
        assertThat(failed.code()).as(failed.err()).isEqualTo(1);
        assertThat(failed.err())
                .startsWith("cubed: ")
                .contains("corrupt chunk " + src + "/2.0: ")
                .contains("; " + dst + " is left incomplete (marked so in its attributes), and --resume alone cannot"
                        + " finish it: the input chunk " + src + "/2.0 is corrupt, and every run reads it again."
                        + " Mend the input first (write that chunk, or " + src + ", again from where it came from,"
                        + " or restore it from a copy), then run the same command with --resume to finish " + dst
                        + "; or delete " + dst + "\n")
                .doesNotContain("run the same command with --resume to finish it, or delete it");

        mendAndResume(src, args);
        ZarrArray out = ZarrArray.open(dst);
        for (int r = 0; r < 2; r++) {
            for (int c = 0; c < 2; c++) {
                double[] v = out.readChunk(r, c).doubles();
                // Output chunk (r, c) holds rows 4r..4r+3: two rows of input chunk 2r, two of 2r + 1.
                assertThat(v).containsExactly(2 * r, 2 * r, 2 * r, 2 * r, 2 * r + 1, 2 * r + 1, 2 * r + 1, 2 * r + 1);
            }
        }
    }

    @Test
    void onlyAChunkOfTheInputCountsAsACorruptInputChunk() {
        String src = tmp.resolve("src.zarr").toString();
        Throwable inInput = new TaskFailedException(
                "op-001", "copy", 1, 1, new CorruptDataException("corrupt chunk " + src + "/1.0: bad zlib stream"));
        assertThat(CopyCommand.corruptInputChunk(inInput, src)).isEqualTo(src + "/1.0");
        assertThat(CopyCommand.corruptInputChunk(inInput, tmp.resolve("src.zarr/") + "/"))
                .isEqualTo(src + "/1.0");
        Throwable elsewhere = new CorruptDataException(
                "corrupt chunk " + tmp.resolve("work/cubed-x/0001-rechunk-0.zarr/0.0") + ": crc32c mismatch");
        assertThat(CopyCommand.corruptInputChunk(elsewhere, src)).isNull();
        assertThat(CopyCommand.corruptInputChunk(new CorruptDataException("unreadable"), src))
                .isNull();
        assertThat(CopyCommand.corruptInputChunk(new RuntimeException("corrupt chunk " + src + "/1.0: x"), src))
                .isNull();
    }
}
