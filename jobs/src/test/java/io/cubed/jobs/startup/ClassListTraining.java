package io.cubed.jobs.startup;

import io.cubed.jobs.CubedCli;
import io.cubed.storage.fs.S3TestServer;
import io.cubed.storage.zarr.blosc.BloscCodec;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The training run of the command line's class-data archives: runs the paths users take first — the usage, {@code
 * demo}, {@code info}, {@code copy} from and to S3 (against the in-process S3 test server on 127.0.0.1), {@code copy
 * --codec zstd:3}, {@code rechunk} — on small arrays in one JVM, so that a JVM started with {@code
 * -XX:DumpLoadedClassList} lists the classes they load. The build (jobs/pom.xml, package phase) runs it so and dumps
 * {@code jobs/target/cubed.jsa} from the list, which {@code bin/cubed} maps at start (docs/cloud.md, "Start-up").
 *
 * <p>It lives with the tests because it needs the S3 test server, which is test-scoped; the classes of the server and
 * of this class are in the list too, and the dump, run on the command line's class path, skips them.
 */
public final class ClassListTraining {
    private ClassListTraining() {}

    /**
     * {@code ClassListTraining} trains for the commands without Spark; {@code ClassListTraining spark} for those that
     * run Spark ({@code sql}, {@code --executor spark}), whose archive also holds Spark's classes.
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("spark")) {
            spark();
            return;
        }
        // The vector byte shuffle takes over from the scalar loops once warm (after 12 GiB of shuffling, more than
        // these small arrays hold): warm it now, so that its classes are listed too.
        BloscCodec.warmUp();
        Path dir = Files.createTempDirectory("cubed-class-list-training");
        S3TestServer server = S3TestServer.start("training");
        try {
            List<String> s3 = new ArrayList<>();
            server.options().asMap().forEach((k, v) -> s3.addAll(List.of("--conf", k + "=" + v)));
            String demo = dir.resolve("demo").toString();
            String remote = server.url("copy.zarr");
            run("--help");
            run("copy", "--help");
            run("demo", "--size-mb", "4", "--chunk-mb", "1", "--threads", "2", "--dir", demo);
            run("info", demo + "/output.zarr");
            run(with(s3, "copy", demo + "/output.zarr", remote, "--threads", "2"));
            run(with(s3, "info", remote));
            run(with(s3, "copy", remote, dir.resolve("back.zarr").toString(), "--threads", "2"));
            run("copy", demo + "/output.zarr", dir.resolve("zstd.zarr").toString(), "--codec", "zstd:3");
            run(
                    "rechunk",
                    demo + "/output.zarr",
                    dir.resolve("rechunked.zarr").toString(),
                    "--chunks",
                    "256,128",
                    "--threads",
                    "2",
                    "--allowed-mem",
                    "200MB",
                    "--work-dir",
                    dir.resolve("work").toString());
        } finally {
            server.close();
            deleteTree(dir);
        }
    }

    /** A query of {@code cubed sql} (grouped, filtered, written as CSV) and a copy on the Spark executor. */
    private static void spark() throws Exception {
        Path dir = Files.createTempDirectory("cubed-class-list-training");
        try {
            String demo = dir.resolve("demo").toString();
            run("demo", "--size-mb", "2", "--chunk-mb", "1", "--threads", "2", "--dir", demo);
            String table = "t=" + demo + "/output.zarr";
            run(
                    "sql",
                    "SELECT dim_0 % 4 AS k, count(*), avg(output) FROM t WHERE dim_1 < 100 GROUP BY k",
                    "--table",
                    table);
            run(
                    "sql",
                    "SELECT * FROM t WHERE dim_0 = 3",
                    "--table",
                    table,
                    "--output",
                    dir.resolve("rows.csv").toString(),
                    "--format",
                    "csv");
            run(
                    "copy",
                    demo + "/output.zarr",
                    dir.resolve("copy.zarr").toString(),
                    "--executor",
                    "spark",
                    "--threads",
                    "2");
        } finally {
            deleteTree(dir);
        }
    }

    private static String[] with(List<String> conf, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(conf);
        return all.toArray(String[]::new);
    }

    /** Runs one command, its output discarded; a failure fails the training (and the build), with the output. */
    private static void run(String... args) {
        StringWriter err = new StringWriter();
        int code = CubedCli.run(
                new PrintWriter(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8),
                new PrintWriter(err),
                args);
        if (code != 0) {
            throw new IllegalStateException("cubed " + String.join(" ", args) + " exited with " + code + ": " + err);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
