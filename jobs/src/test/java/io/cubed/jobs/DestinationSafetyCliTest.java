package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.testing.TreeSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No command writes over, into or around its own input: copy, rechunk and quadratic-means refuse such a destination in
 * every spelling with exit code 2 and a one-line message naming both paths, before anything is deleted or written; the
 * demo refuses a directory it did not make. The source's files stay byte for byte as they were.
 */
class DestinationSafetyCliTest {
    @TempDir
    Path tmp;

    private Path data;
    private Path src;

    @BeforeEach
    void writeSource() {
        data = tmp.resolve("data");
        src = data.resolve("x.zarr");
        ZarrArray a = ZarrArray.create(
                src.toString(),
                ZarrCreateOptions.builder(new long[] {6, 4}, new int[] {3, 2}, DType.FLOAT64)
                        .build());
        for (long i = 0; i < a.grid().numChunks(); i++) {
            long[] c = a.grid().chunkCoordsOf(i);
            a.writeChunk(
                    Chunk.full(DType.FLOAT64, Scalar.ofDouble(i + 1), a.grid().chunkShapeAt(c)), c);
        }
    }

    /** Runs the command, expects a refusal naming {@code src}, and checks that nothing under data/ changed. */
    private CliRun refused(String... args) {
        Map<String, byte[]> before = TreeSnapshot.of(data);
        assertThat(before).containsKeys("x.zarr/.zarray", "x.zarr/0.0", "x.zarr/1.1");
        CliRun r = CliRun.of(args);
        assertThat(r.code())
                .as(String.join(" ", args) + "\n" + r.out() + r.err())
                .isEqualTo(2);
        assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).contains(src.toString());
        Map<String, byte[]> after = TreeSnapshot.of(data);
        assertThat(after.keySet()).as(String.join(" ", args)).isEqualTo(before.keySet());
        for (String k : before.keySet()) {
            assertThat(after.get(k)).as(k).isEqualTo(before.get(k));
        }
        return r;
    }

    /** The spellings of the source a user may type: relative, ./, trailing /, absolute, symlink, file: URI. */
    private List<String> spellingsOfTheSource() throws IOException {
        Path link = Files.createSymbolicLink(tmp.resolve("link.zarr"), src);
        String relative = Path.of("").toAbsolutePath().relativize(src).toString();
        return List.of(
                src.toString(),
                src + "/",
                relative,
                "./" + relative,
                relative + "/",
                data + "/../data/x.zarr",
                link.toString(),
                src.toUri().toString(),
                "file://" + src);
    }

    @Test
    void copyOntoItselfWithOverwriteIsRefusedInEverySpelling() throws IOException {
        for (String dst : spellingsOfTheSource()) {
            CliRun r = refused("copy", src.toString(), dst, "--overwrite");
            assertThat(r.err()).contains("is the source").contains("cubed: copy: the destination");
            refused("copy", dst, src.toString(), "--overwrite");
            refused("copy", src.toString(), dst, "--overwrite", "--codec", "zstd:1");
            refused("copy", src.toString(), dst, "--resume");
            refused("copy", src.toString(), dst, "--chunks", "6,4");
        }
    }

    @Test
    void copyIntoOrAroundTheSourceIsRefused() {
        assertThat(refused("copy", src.toString(), src + "/inner.zarr").err()).contains("lies inside the source");
        assertThat(refused("copy", src.toString(), data.toString(), "--overwrite")
                        .err())
                .contains("contains the source");
        assertThat(refused("copy", src.toString(), tmp.toString(), "--overwrite")
                        .err())
                .contains("contains the source");
    }

    @Test
    void rechunkOntoIntoOrAroundItsSourceIsRefused() throws IOException {
        for (String dst : spellingsOfTheSource()) {
            refused("rechunk", src.toString(), dst, "--chunks", "6,1");
            refused("rechunk", src.toString(), dst, "--chunks", "6,1", "--resume");
        }
        refused("rechunk", src.toString(), src + "/inner.zarr", "--chunks", "6,1");
        refused("rechunk", src.toString(), data.toString(), "--chunks", "6,1");
    }

    @Test
    void quadraticMeansOntoAnInputIsRefused() {
        Path other = tmp.resolve("v.zarr");
        CliRun copy = CliRun.of("copy", src.toString(), other.toString());
        assertThat(copy.code()).as(copy.err()).isZero();
        refused("quadratic-means", src.toString(), "--u", src.toString(), "--v", other.toString());
        refused("quadratic-means", src + "/", "--u", other.toString(), "--v", src.toString());
        refused("quadratic-means", src + "/mean.zarr", "--u", src.toString(), "--v", other.toString());
    }

    @Test
    void aDestinationBesideTheSourceIsWritten() {
        String beside = src + "-copy";
        CliRun r = CliRun.of("copy", src.toString(), beside);
        assertThat(r.code()).as(r.err()).isZero();
        ZarrArray a = ZarrArray.open(src.toString());
        ZarrArray b = ZarrArray.open(beside);
        for (long i = 0; i < a.grid().numChunks(); i++) {
            long[] c = a.grid().chunkCoordsOf(i);
            assertThat(b.readChunk(c).doubles()).containsOnly(i + 1.0);
        }
        // Overwriting another array (not the source) still works.
        CliRun again = CliRun.of("copy", src.toString(), beside, "--overwrite", "--codec", "zlib:1");
        assertThat(again.code()).as(again.err()).isZero();
    }

    @Test
    void aDirectoryOfOtherFilesIsNeitherWrittenIntoNorDeleted() throws IOException {
        Path mine = Files.createDirectories(tmp.resolve("mine/sub"));
        Files.writeString(mine.resolve("notes.txt"), "theirs");
        Files.writeString(tmp.resolve("mine/important.txt"), "theirs");
        Map<String, byte[]> before = TreeSnapshot.of(tmp.resolve("mine"));
        String dir = tmp.resolve("mine").toString();
        for (String[] args : List.of(
                new String[] {"copy", src.toString(), dir},
                new String[] {"copy", src.toString(), dir, "--overwrite"},
                new String[] {"copy", src.toString(), dir, "--overwrite", "--chunks", "6,4"},
                new String[] {"rechunk", src.toString(), dir, "--chunks", "6,4"})) {
            CliRun r = CliRun.of(args);
            assertThat(r.code()).as(String.join(" ", args) + "\n" + r.err()).isEqualTo(2);
            assertThat(r.err())
                    .contains("cannot create an array at " + dir + ": it is not empty and not a Zarr array: it holds "
                            + "'important.txt', 'sub'");
            assertThat(TreeSnapshot.of(tmp.resolve("mine")).keySet()).isEqualTo(before.keySet());
        }
        // An array that also holds a user's file is not replaced: --overwrite would delete the file with it.
        String beside = src + "-copy";
        assertThat(CliRun.of("copy", src.toString(), beside).code()).isZero();
        Files.writeString(Path.of(beside, "README"), "theirs");
        CliRun r = CliRun.of("copy", src.toString(), beside, "--overwrite", "--codec", "zlib:1");
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err())
                .contains("cannot replace the array at " + beside + ": besides the array, it holds 'README'");
        assertThat(Path.of(beside, "README")).hasContent("theirs");
        assertThat(Path.of(beside, "0.0")).exists();
        // An empty DST would be the working directory.
        for (String command : List.of("copy", "rechunk")) {
            CliRun empty = command.equals("copy")
                    ? CliRun.of("copy", src.toString(), "", "--overwrite")
                    : CliRun.of("rechunk", src.toString(), "", "--chunks", "6,4");
            assertThat(empty.code()).as(empty.err()).isEqualTo(2);
            assertThat(empty.err()).contains("no store location given ('')");
        }
    }

    @Test
    void demoRefusesADirectoryItDidNotMake() throws IOException {
        // Inside a Zarr array.
        refused("demo", "--dir", src.resolve("demo").toString(), "--size-mb", "1", "--chunk-mb", "1");
        refused("demo", "--dir", src.toString(), "--size-mb", "1", "--chunk-mb", "1");
        // A directory with the user's files: its input.zarr would be replaced.
        Path mine = Files.createDirectories(tmp.resolve("mine"));
        Files.writeString(mine.resolve("notes.txt"), "mine");
        List<String> args = new ArrayList<>(List.of("demo", "--dir", mine.toString(), "--size-mb", "1"));
        CliRun r = CliRun.of(args.toArray(new String[0]));
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("is not empty and was not made by cubed demo");
        assertThat(Files.readString(mine.resolve("notes.txt"))).isEqualTo("mine");
        assertThat(mine.resolve("input.zarr")).doesNotExist();
        // A new directory is made and marked; the demo runs there again.
        Path fresh = tmp.resolve("fresh");
        for (int i = 0; i < 2; i++) {
            CliRun ok = CliRun.of("demo", "--dir", fresh.toString(), "--size-mb", "1", "--chunk-mb", "1");
            assertThat(ok.code()).as(ok.err()).isZero();
        }
        assertThat(fresh.resolve(DemoCommand.MARKER)).exists();
    }
}
