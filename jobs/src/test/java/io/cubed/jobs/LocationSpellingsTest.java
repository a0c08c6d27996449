package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.plan.Spec;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Json;
import io.cubed.storage.zarr.ZarrGroup;
import io.cubed.testing.ExternalTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Directories whose names hold a space, {@code %41}, {@code #}, {@code é} and {@code 日本}, named by a plain path and by
 * {@code file:} URLs, through every entry point: {@code Cubed.fromZarr}/{@code toZarr}, groups, {@code cubed info},
 * {@code copy}, {@code rechunk}, {@code --resume}, saved plans and {@code clean}. zarr-python (which, through fsspec,
 * reads a {@code file:} URL's characters literally, as Hadoop's {@code Path} does) writes the inputs and reads the
 * outputs at the literal paths; values are checked against the formula that made them. Before, a {@code file:} URL
 * was percent-decoded ({@code out%20copy.zarr} written to {@code out copy.zarr}) and one with a space, {@code #} or
 * {@code ?} refused.
 */
class LocationSpellingsTest {
    private static final String PYTHON = "/usr/bin/python3";

    /** write PATH: a 6 x 8 int32 array in 2 x 3 chunks, value 3 (8 i + j) - 7; group PATH: a group of three. */
    private static final String SCRIPT =
            """
            import json, sys
            import numpy as np, zarr
            mode, path = sys.argv[1], sys.argv[2]
            values = np.arange(48, dtype="i4").reshape(6, 8) * 3 - 7
            if mode == "write":
                z = zarr.open(path, mode="w", shape=(6, 8), chunks=(2, 3), dtype="i4")
                z[:] = values
            elif mode == "group":
                g = zarr.open_group(path, mode="w")
                for k, name in enumerate(["a b", "a%41", "x#y"]):
                    a = g.create_dataset(name, shape=(6, 8), chunks=(3, 3), dtype="i4")
                    a[:] = values + 1000 * k
            else:
                z = zarr.open(path, mode="r")
                print(json.dumps({"shape": list(z.shape), "chunks": list(z.chunks), "values": z[:].ravel().tolist()}))
            """;

    @TempDir
    Path tmp;

    private Path dir;

    @BeforeEach
    void pythonAndDirectory() throws Exception {
        boolean available;
        try {
            Process p = new ProcessBuilder(PYTHON, "-c", "import zarr, numpy").start();
            available = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            available = false;
        }
        ExternalTool.require(available, PYTHON + " with zarr-python is not installed (apt-get install python3-zarr)");
        dir = Files.createDirectories(tmp.resolve("run 1 %41 #é 日本"));
    }

    private static String python(String mode, Path path) throws Exception {
        return python(mode, path.toString());
    }

    /** Runs the script on {@code location}, a path or a URL zarr-python opens through fsspec. */
    private static String python(String mode, String location) throws Exception {
        Process p = new ProcessBuilder(PYTHON, "-c", SCRIPT, mode, location)
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("python %s %s: %s", mode, location, out).isZero();
        return out;
    }

    /** 3 (8 i + j) - 7 + offset, row-major: what the script wrote. */
    private static List<Long> expected(long offset) {
        List<Long> v = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 8; j++) {
                v.add(3L * (8 * i + j) - 7 + offset);
            }
        }
        return v;
    }

    /** zarr-python reads the array at the literal path {@code path}: its chunks and values. */
    private static void pythonReads(Path path, List<Long> chunks) throws Exception {
        assertThat(path).isDirectory();
        Map<?, ?> m = (Map<?, ?>) Json.parse(python("read", path).strip());
        assertThat(m.get("shape")).isEqualTo(List.of(6L, 8L));
        assertThat(m.get("chunks")).isEqualTo(chunks);
        assertThat(m.get("values")).isEqualTo(expected(0));
    }

    private static CliRun ok(String... args) {
        CliRun r = CliRun.of(args);
        assertThat(r.code()).as(String.join(" ", args) + ": " + r.err()).isZero();
        return r;
    }

    @Test
    void theApiReadsAndWritesWhereZarrPythonDoes() throws Exception {
        python("write", dir.resolve("in put.zarr"));
        Spec spec = Spec.builder().workDir("file://" + dir + "/work dir").build();
        for (String in : List.of("file://" + dir + "/in put.zarr", "file:" + dir + "/in put.zarr/")) {
            assertThat(Cubed.fromZarr(in, spec).compute().toLongArray()).as(in).containsExactly(toArray(expected(0)));
        }
        Cubed.fromZarr(dir + "/in put.zarr", spec, 4, 6).toZarr("file://" + dir + "/api #out%41.zarr");
        pythonReads(dir.resolve("api #out%41.zarr"), List.of(4L, 6L));
        assertThat(dir.resolve("api #outA.zarr")).doesNotExist();
        assertThat(dir.resolve("work dir")).isDirectory();

        // One file: URL string, given to zarr-python (fsspec) and to Cubed, names one array.
        String url = "file://" + dir + "/py url%41 #1.zarr";
        python("write", url);
        assertThat(dir.resolve("py url%41 #1.zarr")).isDirectory();
        assertThat(Cubed.fromZarr(url, spec).compute().toLongArray()).containsExactly(toArray(expected(0)));
        Cubed.fromZarr(url, spec).toZarr(url.replace("#1", "#2"));
        Map<?, ?> back =
                (Map<?, ?>) Json.parse(python("read", url.replace("#1", "#2")).strip());
        assertThat(back.get("values")).isEqualTo(expected(0));
        assertThat(dir.resolve("py url%41 #2.zarr")).isDirectory();

        // A group's members with a space, '%41' and '#' in their names, in a group named by a file: URL.
        python("group", dir.resolve("grp.zarr"));
        ZarrGroup g = ZarrGroup.open("file://" + dir + "/grp.zarr", StoreOptions.empty());
        assertThat(g.arrayNames()).containsExactly("a b", "a%41", "x#y");
        List<String> names = List.of("a b", "a%41", "x#y");
        for (int k = 0; k < names.size(); k++) {
            assertThat(Cubed.fromZarr(g.memberUrl(names.get(k)), spec).compute().toLongArray())
                    .as(names.get(k))
                    .containsExactly(toArray(expected(1000L * k)));
        }
    }

    private static long[] toArray(List<Long> v) {
        return v.stream().mapToLong(Long::longValue).toArray();
    }

    @Test
    void theCommandLineCopiesRechunksResumesAndCleansThere() throws Exception {
        python("write", dir.resolve("in put.zarr"));
        String work = "file://" + dir + "/work dir";
        assertThat(ok("info", "file://" + dir + "/in put.zarr").out()).contains("int32");

        ok(
                "copy",
                "file://" + dir + "/in put.zarr",
                "file:" + dir + "/out%20copy.zarr",
                "--chunks",
                "3,4",
                "--work-dir",
                work,
                "--resume");
        pythonReads(dir.resolve("out%20copy.zarr"), List.of(3L, 4L));
        assertThat(dir.resolve("out copy.zarr")).doesNotExist();

        // Resumed with other spellings of the same two arrays: one resume id, so its task is not run again.
        CliRun resumed = ok(
                "copy",
                dir + "/in put.zarr",
                dir + "//out%20copy.zarr/",
                "--chunks",
                "3,4",
                "--work-dir",
                work,
                "--resume");
        assertThat(resumed.out()).containsPattern("tasks: 0 run, [1-9]\\d* skipped");
        pythonReads(dir.resolve("out%20copy.zarr"), List.of(3L, 4L));

        Path plan = dir.resolve("plan #1.json");
        ok(
                "rechunk",
                dir + "/in put.zarr",
                "file://" + dir + "/re#chunked.zarr",
                "--chunks",
                "6,1",
                "--work-dir",
                work,
                "--save-plan",
                plan.toString());
        pythonReads(dir.resolve("re#chunked.zarr"), List.of(6L, 1L));
        List<?> saved = (List<?>) ((Map<?, ?>) Json.parse(Files.readString(plan))).get("arguments");
        assertThat(saved.subList(0, 3)).isEqualTo(List.of("rechunk", dir + "/in put.zarr", dir + "/re#chunked.zarr"));
        assertThat(saved.get(saved.indexOf("--work-dir") + 1)).isEqualTo(dir + "/work dir");
        assertThat(ok("resume", plan.toString()).out()).containsPattern("tasks: 0 run, [1-9]\\d* skipped");

        assertThat(ok("clean", "--work-dir", work).err()).doesNotContain("does not exist");
    }

    /**
     * A saved plan names local paths absolutely, the work directory too, so that {@code cubed resume} from another
     * directory finds the same arrays and intermediates. Before, a relative {@code --work-dir} was saved as given, and
     * a relative path with a ':' in it (not a scheme to Hadoop's Path: a '/' comes first) too.
     */
    @Test
    void aSavedPlanNamesRelativeLocalPathsAbsolutely() throws Exception {
        python("write", dir.resolve("in put.zarr"));
        Path cwd = Path.of("").toAbsolutePath();
        String relativeWork = cwd.relativize(tmp.resolve("rel work")).toString();
        String relativeOut = cwd.relativize(dir) + "/out:1.zarr";
        Path plan = tmp.resolve("plan.json");
        ok(
                "rechunk",
                dir + "/in put.zarr",
                relativeOut,
                "--chunks",
                "6,1",
                "--work-dir",
                relativeWork,
                "--save-plan",
                plan.toString());
        pythonReads(dir.resolve("out:1.zarr"), List.of(6L, 1L));
        List<?> saved = (List<?>) ((Map<?, ?>) Json.parse(Files.readString(plan))).get("arguments");
        assertThat(saved.get(2)).isEqualTo(dir + "/out:1.zarr");
        assertThat(saved.get(saved.indexOf("--work-dir") + 1))
                .isEqualTo(tmp.resolve("rel work").toString());
        assertThat(ok("resume", plan.toString()).out()).containsPattern("tasks: 0 run, [1-9]\\d* skipped");
    }

    /** A location that names no local path is refused before anything runs, naming it and what is wrong. */
    @Test
    void anUnreadableLocationIsAUsageErrorSayingWhy() {
        CliRun relative = CliRun.of("info", "file:data/x.zarr");
        assertThat(relative.code()).as(relative.err()).isEqualTo(2);
        assertThat(relative.err())
                .contains("'file:data/x.zarr' has the relative path 'data/x.zarr'")
                .contains("needs an absolute path");
        CliRun host = CliRun.of("copy", "file://nas" + dir + "/x.zarr", dir + "/y.zarr");
        assertThat(host.code()).as(host.err()).isEqualTo(2);
        assertThat(host.err()).contains("names the host 'nas'");
        assertThat(dir.resolve("y.zarr")).doesNotExist();
    }

    @Test
    void resumeIdsReadLocalSpellingsAsOnePlace() {
        String canonical = Resume.canonicalUrl(dir + "/x.zarr");
        assertThat(canonical).isEqualTo("file://" + dir + "/x.zarr");
        for (String s : List.of("file:" + dir + "/x.zarr", "file://" + dir + "//x.zarr/", dir + "/y/../x.zarr")) {
            assertThat(Resume.canonicalUrl(s)).as(s).isEqualTo(canonical);
        }
        assertThat(Resume.canonicalUrl("file://" + dir + "/x%2Ezarr")).isEqualTo("file://" + dir + "/x%2Ezarr");
    }
}
