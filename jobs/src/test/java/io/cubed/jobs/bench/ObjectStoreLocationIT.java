package io.cubed.jobs.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cubed.jobs.CubedCli;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cubed bench --object-store --location s3a://...} at smoke size against the S3 test server in a JVM of its own
 * (5 ms per request), given as any location is: its URL, and its endpoint and credentials as {@code --conf}. The
 * requests Cubed's client counted (in each {@code cubed copy} and in the bench's JVM for the sum) are one GET per chunk
 * plus the three metadata documents, and add up to what the server served; Dask reads the same objects from the
 * server's anonymous HTTP URL given as {@code --peer-url}; every copy matches; the bench's prefix is gone afterwards.
 */
class ObjectStoreLocationIT {
    @TempDir
    Path tmp;

    private static List<String> conf(Map<String, String> options) {
        List<String> args = new ArrayList<>();
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(options).entrySet()) {
            args.add("--conf");
            args.add(e.getKey() + "=" + e.getValue());
        }
        return args;
    }

    private record Result(int code, String out, String err) {}

    private static Result cubed(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = CubedCli.run(new PrintWriter(out), new PrintWriter(err), args.toArray(new String[0]));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void theBenchAtAnS3LocationCountsRequestsInTheClientAsTheServerDoes() throws Exception {
        boolean dask = BenchCommandTest.python("/usr/bin/python3", "import dask.array, zarr, fsspec, aiohttp") == 0;
        assumeTrue(dask || System.getenv("CI") == null, "CI installs Dask, fsspec and aiohttp: they must be here");
        try (S3ServerProcess server = S3ServerProcess.start("location", 5)) {
            List<String> args = new ArrayList<>(List.of(
                    "bench",
                    "--object-store",
                    "--smoke",
                    "--location",
                    server.s3aUrl("runs/"),
                    "--concurrency",
                    "4",
                    "--threads",
                    "2",
                    "--dir",
                    tmp.resolve("bench").toString(),
                    "--out",
                    tmp.resolve("report").toString()));
            args.addAll(conf(server.options()));
            if (dask) {
                args.addAll(List.of("--peer", "dask", "--peer-url", server.httpUrl("runs")));
            }
            server.reset();
            Result r = cubed(args);
            assertThat(r.code()).as(r.out() + "\n" + r.err()).isZero();
            Map<String, Object> served = server.stats();

            String report = Files.readString(tmp.resolve("report/object-store.md"));
            assertThat(report)
                    .contains("from " + server.s3aUrl("runs/cubed-bench-"))
                    .contains("as Cubed's S3 client counted them")
                    .contains(dask ? "over HTTP at " + server.httpUrl("runs/cubed-bench-") : "Dask not run");
            List<String> rows = new ArrayList<>();
            for (String line : report.split("\n")) {
                if (line.startsWith("| its own |")) {
                    rows.add(line);
                }
            }
            // Ours, ours with one request in flight per task, the sum in the bench's JVM, and Dask's when it runs.
            assertThat(rows).hasSize(dask ? 4 : 3);
            for (String row : rows) {
                String[] cells = row.split("\\|");
                assertThat(cells[cells.length - 1].trim()).as(row).isEqualTo("match");
                if (cells[2].trim().equals("Dask")) {
                    assertThat(cells[6].trim()).as(row).isEqualTo("not counted");
                    continue;
                }
                // 16 chunks: 16 GETs, and 3 of metadata (zarr.json, absent, .zarray and .zattrs), counted by the
                // client.
                assertThat(cells[6].trim()).as(row).isEqualTo("1.19");
                assertThat(cells[7].trim()).as(row).isEqualTo("none");
                // In flight as the client counts: no stage mean ("-", the server's figure), the busy time's mean, the
                // most at once.
                String[] inFlight = cells[8].trim().split("; ");
                assertThat(inFlight).as(row).hasSize(3);
                assertThat(inFlight[0]).as(row).isEqualTo("-");
                long max = Long.parseLong(inFlight[2]);
                assertThat(Double.parseDouble(inFlight[1])).as(row).isBetween(1.0, (double) max);
                if (cells[2].trim().equals("ours, 1 request in flight per task")) {
                    // Two tasks at a time, one request each; the metadata is read before they start.
                    assertThat(max).as(row).isBetween(1L, 2L);
                }
            }

            // What the server served: the client's GETs (19 in each of the three runs counted by the client), Dask's
            // 19 and the anonymous GET of the bench's marker by which the bench checked --peer-url; the upload (every
            // file of the array, and the marker) as PUTs; the cleanup as one listing and one bulk delete.
            long files;
            try (Stream<Path> s = Files.walk(tmp.resolve("bench/object-store/input/in.zarr"))) {
                files = s.filter(Files::isRegularFile).count();
            }
            Map<String, Long> counts = ObjectStoreBench.counts(served);
            assertThat(counts)
                    .as(served.toString())
                    .isEqualTo(Map.of(
                            "GET_OBJECT",
                            3 * 19L + (dask ? 19 + 1 : 0),
                            "PUT_OBJECT",
                            files + 1,
                            "LIST",
                            1L,
                            "DELETE_OBJECTS",
                            1L));
            // Nothing is left under the location.
            assertThat(Stores.open(server.s3aUrl("runs"), StoreOptions.of(server.options()))
                            .list(""))
                    .isEmpty();
        }
    }

    @Test
    void withoutAPeerUrlTheReportSaysWhyDaskDidNotRun() throws Exception {
        try (S3ServerProcess server = S3ServerProcess.start("location", 0)) {
            List<String> args = new ArrayList<>(List.of(
                    "bench",
                    "--object-store",
                    "--smoke",
                    "--location",
                    server.s3aUrl("runs"),
                    "--peer",
                    "dask",
                    "--threads",
                    "2",
                    "--dir",
                    tmp.resolve("bench").toString(),
                    "--out",
                    tmp.resolve("report").toString()));
            args.addAll(conf(server.options()));
            Result r = cubed(args);
            assertThat(r.code()).as(r.out() + "\n" + r.err()).isZero();
            String why = "Dask not run: no --peer-url: Dask reads s3a:// only through s3fs";
            assertThat(r.out()).contains(why);
            String report = Files.readString(tmp.resolve("report/object-store.md"));
            assertThat(report).contains(why);
            // Ours and ours with one request in flight per task; no Dask row.
            assertThat(report.lines().filter(l -> l.startsWith("| its own |")))
                    .hasSize(2)
                    .allSatisfy(row -> {
                        String[] cells = row.split("\\|");
                        assertThat(cells[2]).doesNotContain("Dask");
                        assertThat(cells[6].trim()).isEqualTo("1.19");
                        assertThat(cells[cells.length - 1].trim()).isEqualTo("match");
                    });
        }
    }

    @Test
    void aLocationThatCannotBeReachedOrRefusesTheCredentialsFailsNamingIt() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        List<String> unreachable = new ArrayList<>(List.of(
                "bench",
                "--object-store",
                "--smoke",
                "--location",
                "s3a://nowhere/bench",
                "--dir",
                tmp.resolve("bench").toString(),
                "--conf",
                "fs.s3a.endpoint=http://127.0.0.1:" + closed,
                "--conf",
                "fs.s3a.path.style.access=true",
                "--conf",
                "fs.s3a.endpoint.region=us-east-1",
                "--conf",
                "cubed.store.retry.attempts=1",
                "--conf",
                "fs.s3a.access.key=a",
                "--conf",
                "fs.s3a.secret.key=b"));
        Result r = cubed(unreachable);
        assertThat(r.code()).as(r.out()).isEqualTo(1);
        assertThat(r.err())
                .contains("cannot write to --location s3a://nowhere/bench")
                .contains("fs.s3a.endpoint http://127.0.0.1:" + closed);
        // Refused before the input was written.
        assertThat(tmp.resolve("bench/object-store/input")).doesNotExist();

        try (S3ServerProcess server = S3ServerProcess.start("location", 0)) {
            Map<String, String> wrong = new java.util.TreeMap<>(server.options());
            wrong.put("fs.s3a.secret.key", "not-the-secret");
            List<String> args = new ArrayList<>(List.of(
                    "bench",
                    "--object-store",
                    "--smoke",
                    "--location",
                    server.s3aUrl("runs"),
                    "--dir",
                    tmp.resolve("bench").toString()));
            args.addAll(conf(wrong));
            r = cubed(args);
            assertThat(r.code()).as(r.out()).isEqualTo(1);
            assertThat(r.err())
                    .contains("cannot write to --location " + server.s3aUrl("runs"))
                    .contains("403")
                    .contains("credentials");
            assertThat(r.err()).doesNotContain("not-the-secret");
        }
    }
}
