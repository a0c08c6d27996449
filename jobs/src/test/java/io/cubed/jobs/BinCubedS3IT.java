package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.fs.S3TestServer;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/cubed} on {@code s3a://}, end to end in separate processes against an S3 server on 127.0.0.1: the README's
 * script (connector jars from Maven, {@code CUBED_CLASSPATH}, credentials from the environment) runs as written, with
 * only the endpoint and the path of {@code bin/cubed} replaced; {@code --jars} works too; without connectors the error
 * says how to add them.
 */
class BinCubedS3IT {
    private static final String ACCESS = "my-access-key";
    private static final String SECRET = "my-secret-key";
    private static S3TestServer s3;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3TestServer.start("my-bucket", ACCESS, SECRET);
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
    }

    /** Writes {@code s3a://my-bucket/name}: 6 x 8 float64 in 2 x 4 chunks, element (i, j) = 10 i + j + 0.25. */
    private static ZarrArray input(String name) {
        ZarrArray a = ZarrArray.create(
                s3.url(name),
                ZarrCreateOptions.builder(new long[] {6, 8}, new int[] {2, 4}, DType.FLOAT64)
                        .build(),
                s3.options());
        for (long k = 0; k < a.grid().numChunks(); k++) {
            long[] c = a.grid().chunkCoordsOf(k);
            long[] off = a.grid().chunkOffset(c);
            Chunk chunk = Chunk.allocate(DType.FLOAT64, 2, 4);
            for (int i = 0; i < 2; i++) {
                for (int j = 0; j < 4; j++) {
                    chunk.doubles()[i * 4 + j] = 10 * (off[0] + i) + off[1] + j + 0.25;
                }
            }
            a.writeChunk(chunk, c);
        }
        return a;
    }

    private static void assertCopied(String name) {
        ZarrArray out = ZarrArray.open(s3.url(name), s3.options());
        double[] v = out.readRegion(new long[] {0, 0}, new int[] {6, 8}).doubles();
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 8; j++) {
                assertThat(v[i * 8 + j]).isEqualTo(10 * i + j + 0.25);
            }
        }
    }

    /** The bash block of the README after {@code <!-- example: BinCubedS3IT -->}. */
    static String readmeScript() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        int at = lines.indexOf("<!-- example: BinCubedS3IT -->");
        assertThat(at).as("README marker").isGreaterThanOrEqualTo(0);
        assertThat(lines.get(at + 1)).isEqualTo("```bash");
        int end = lines.subList(at + 2, lines.size()).indexOf("```") + at + 2;
        return String.join("\n", lines.subList(at + 2, end)) + "\n";
    }

    @Test
    void theReadmesS3ScriptRunsAsWritten() throws Exception {
        input("in.zarr");
        String script = readmeScript()
                .replace("http://minio.example.com:9000", "http://127.0.0.1:" + s3.port())
                .replace("bin/cubed ", BinCubed.script() + " ");
        Path file = tmp.resolve("readme-s3.sh");
        Files.writeString(file, script, StandardCharsets.UTF_8);
        s3.resetStats();
        BinCubed.Result r = BinCubed.bash(tmp, Map.of("AWS_REGION", "us-east-1"), file);
        assertThat(r.code()).as(r.output()).isZero();
        // One request per chunk: a GET of each source chunk, a PUT of each copy, nothing else on their keys.
        io.cubed.storage.fs.S3ServerStats stats = s3.stats();
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 2; j++) {
                assertThat(stats.keyCounts("in.zarr/" + i + "." + j))
                        .isEqualTo(Map.of(io.cubed.storage.fs.S3Operation.GET_OBJECT, 1L));
                assertThat(stats.keyCounts("out.zarr/" + i + "." + j))
                        .isEqualTo(Map.of(io.cubed.storage.fs.S3Operation.PUT_OBJECT, 1L));
            }
        }
        // Not a terminal: progress comes as log lines, with the operation, the tasks, the rates.
        assertThat(r.output())
                .contains("INFO io.cubed.progress - op-001 copy of s3a://my-bucket/in.zarr to s3a://my-bucket/out.zarr:"
                        + " 6 tasks")
                .containsPattern(
                        "io.cubed.progress - op-001 copy of .*: done, 6 tasks in [\\d.]+ s \\([\\d.]+ tasks/s\\)")
                .contains("copied 6 of 6 chunks")
                .contains("shape:        [6, 8]")
                .contains("zstd");
        assertThat(ZarrArray.open(s3.url("out.zarr"), s3.options()).metadata().compressor())
                .isEqualTo(new Compressor.Zstd(3, false));
        assertCopied("out.zarr");
    }

    /**
     * s3a:// needs no connector jar through Cubed's own S3 client (the default); through S3A ({@code
     * cubed.store.s3.client=hadoop}) it needs hadoop-aws and the AWS SDK, which {@code --jars} adds, and without them
     * the error says how.
     */
    @Test
    void s3aNeedsNoJarsAndThroughS3aJarsBeforeTheCommandAddConnectorsAndWithoutThemTheErrorSaysHow() throws Exception {
        input("in2.zarr");
        String endpoint = "fs.s3a.endpoint=http://127.0.0.1:" + s3.port();
        Map<String, String> env =
                Map.of("AWS_ACCESS_KEY_ID", ACCESS, "AWS_SECRET_ACCESS_KEY", SECRET, "AWS_REGION", "us-east-1");
        BinCubed.Result own = BinCubed.run(
                tmp, env, "info", s3.url("in2.zarr"), "--conf", endpoint, "--conf", "fs.s3a.path.style.access=true");
        assertThat(own.code()).as(own.output()).isZero();
        assertThat(own.output()).contains("shape:        [6, 8]");

        BinCubed.Result none = BinCubed.run(
                tmp,
                env,
                "info",
                s3.url("in2.zarr"),
                "--conf",
                endpoint,
                "--conf",
                "fs.s3a.path.style.access=true",
                "--conf",
                "cubed.store.s3.client=hadoop");
        assertThat(none.code()).isEqualTo(1);
        assertThat(none.output())
                .contains("no Hadoop file system for s3a:// on the class path")
                .contains("bin/cubed --jars A.jar,B.jar, CUBED_CLASSPATH or HADOOP_HOME");

        String jars = jarOf(org.apache.hadoop.fs.s3a.S3AFileSystem.class) + ","
                + jarOf(com.amazonaws.auth.AWSCredentials.class);
        BinCubed.Result copy = BinCubed.run(
                tmp,
                env,
                "--jars",
                jars,
                "copy",
                s3.url("in2.zarr"),
                s3.url("out2.zarr"),
                "--conf",
                endpoint,
                "--conf",
                "fs.s3a.path.style.access=true",
                "--conf",
                "cubed.store.s3.client=hadoop");
        assertThat(copy.code()).as(copy.output()).isZero();
        assertCopied("out2.zarr");
    }

    /**
     * {@code cubed sql --output s3a://….zarr --format zarr} writes through Cubed's S3 client, as the tables are read:
     * the Zarr writer looked at, emptied and cleaned up its output through Hadoop's file system of the path, S3A,
     * which bin/cubed does not put on the class path, and failed with "Class org.apache.hadoop.fs.s3a.S3AFileSystem
     * not found" before writing anything.
     */
    @Test
    void sqlWritesAZarrOutputToS3aThroughCubedsClient() throws Exception {
        input("sql-in.zarr");
        String endpoint = "fs.s3a.endpoint=http://127.0.0.1:" + s3.port();
        Map<String, String> env = Map.of(
                "AWS_ACCESS_KEY_ID",
                ACCESS,
                "AWS_SECRET_ACCESS_KEY",
                SECRET,
                "AWS_REGION",
                "us-east-1",
                "SPARK_LOCAL_IP",
                "127.0.0.1");
        String[] args = {
            "sql",
            "--table",
            "t=" + s3.url("sql-in.zarr"),
            "--output",
            s3.url("sql out/result.zarr"),
            "--format",
            "zarr",
            "--dims",
            "dim_0,dim_1",
            "--conf",
            endpoint,
            "--conf",
            "fs.s3a.path.style.access=true",
            "SELECT dim_0, dim_1, `sql-in` * 2 AS twice FROM t"
        };
        BinCubed.Result sql = BinCubed.run(tmp, env, args);
        assertThat(sql.code()).as(sql.output()).isZero();
        ZarrArray twice = ZarrArray.open(s3.url("sql out/result.zarr/twice"), s3.options());
        double[] v = twice.readRegion(new long[] {0, 0}, new int[] {6, 8}).doubles();
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 8; j++) {
                assertThat(v[i * 8 + j]).isEqualTo(2 * (10 * i + j + 0.25));
            }
        }
        // Again: the output exists now, and mode error (the default) refuses it before Spark writes anything.
        BinCubed.Result again = BinCubed.run(tmp, env, args);
        assertThat(again.code()).as(again.output()).isEqualTo(2);
        assertThat(again.output()).contains(s3.url("sql out/result.zarr"));
    }

    private static String jarOf(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
    }
}
