package io.cubed.jobs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.storage.Store;
import io.cubed.storage.fs.S3TestServer;
import io.cubed.storage.fs.Stores;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code target/s3-server-lib}, which {@code mvn package} fills: {@code java -cp 'target/s3-server-lib/*'
 * io.cubed.storage.fs.S3TestServer} serves signed writes and unsigned reads after its latency and answers its
 * commands, and none of its jars is on the command line's class path ({@code target/lib}) or in the shaded jar.
 */
class S3ServerLibIT {
    @TempDir
    Path tmp;

    private static Path lib() {
        Path lib = Path.of(System.getProperty("cubed.jobs.s3ServerLib", "target/s3-server-lib"));
        assertThat(lib).as("filled by mvn package").isDirectory();
        return lib;
    }

    @Test
    void theTestServerJarsStayOutOfTheCommandLineAndTheShadedJar() throws Exception {
        List<String> serverJars;
        try (Stream<Path> files = Files.list(lib())) {
            serverJars = files.map(f -> f.getFileName().toString()).toList();
        }
        assertThat(serverJars)
                .anyMatch(j -> j.startsWith("s3proxy-"))
                .anyMatch(j -> j.startsWith("cubed-api-") && j.endsWith("-tests.jar"))
                .anyMatch(j -> j.startsWith("slf4j-simple-"))
                .noneMatch(j -> j.startsWith("spark-") || j.startsWith("hadoop-") || j.startsWith("junit-"));
        try (Stream<Path> files = Files.list(lib().resolveSibling("lib"))) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .noneMatch(j -> j.startsWith("s3proxy-") || j.endsWith("-tests.jar"));
        }
        try (JarFile shaded = new JarFile(System.getProperty("cubed.jobs.spark.jar", "target/cubed-jobs-spark.jar"))) {
            assertThat(shaded.stream().map(e -> e.getName()))
                    .noneMatch(n -> n.startsWith("org/gaul/") || n.startsWith("io/cubed/storage/fs/S3TestServer"));
        }
    }

    @Test
    void theServerRunsFromItsLibraryDirectory() throws Exception {
        Path log = tmp.resolve("server.log");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        lib().toAbsolutePath() + "/*",
                        "io.cubed.storage.fs.S3TestServer",
                        "--bucket",
                        "lib-test",
                        "--latency-ms",
                        "30",
                        "--anonymous-reads")
                .redirectError(log.toFile())
                .start();
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), UTF_8));
                PrintWriter in = new PrintWriter(new OutputStreamWriter(p.getOutputStream(), UTF_8), true)) {
            String first = CompletableFuture.supplyAsync(() -> readLine(out)).get(60, TimeUnit.SECONDS);
            assertThat(first)
                    .as("first line; the log: %s", Files.readString(log))
                    .matches("PORT \\d+");
            int port = Integer.parseInt(first.substring(5));
            try (Store store = Stores.open("s3a://lib-test/data", S3TestServer.options(port))) {
                store.put("k", "signed".getBytes(UTF_8));
                assertThat(store.list("")).containsExactly("k");
            }
            in.println("reset");
            assertThat(out.readLine()).isEqualTo("OK");

            long start = System.nanoTime();
            HttpResponse<String> hit = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/lib-test/data/k"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            HttpResponse<String> miss = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/lib-test/data/missing"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(hit.body()).isEqualTo("signed");
            assertThat(millis).as("ms for a GET held 30 ms").isGreaterThanOrEqualTo(30);
            assertThat(miss.statusCode()).isEqualTo(404);
            in.println("stats");
            assertThat(out.readLine())
                    .contains("\"counts\":{\"GET_OBJECT\":2,")
                    .contains("\"keys\":{\"GET_OBJECT\":{\"distinct\":2,\"max\":1},")
                    .endsWith(",\"latencyMs\":30}");
            in.println("stop");
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isZero();
        } finally {
            p.destroyForcibly();
        }
    }

    private static String readLine(BufferedReader reader) {
        try {
            return reader.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
