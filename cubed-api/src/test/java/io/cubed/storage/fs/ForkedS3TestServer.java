package io.cubed.storage.fs;

import io.cubed.storage.StoreOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The S3 test server ({@link S3TestServer#main}) in a JVM of its own, started from the tests' class path: for tests
 * that measure this JVM's heap, which must not count the server's objects (its connections, threads and pools, which
 * change while the test measures).
 */
public final class ForkedS3TestServer implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;
    private final PrintWriter in;
    private final int port;
    private final String bucket;

    private ForkedS3TestServer(Process process, BufferedReader out, PrintWriter in, int port, String bucket) {
        this.process = process;
        this.out = out;
        this.in = in;
        this.port = port;
        this.bucket = bucket;
    }

    /** Starts a server with bucket {@code bucket} and waits (up to 60 s) until it serves. */
    public static ForkedS3TestServer start(String bucket) throws Exception {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx512m",
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                        "-cp",
                        classPath,
                        S3TestServer.class.getName(),
                        "--bucket",
                        bucket)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter in = new PrintWriter(p.getOutputStream(), true, StandardCharsets.UTF_8);
        String first;
        try {
            first = CompletableFuture.supplyAsync(() -> {
                        try {
                            return out.readLine();
                        } catch (IOException e) {
                            return null;
                        }
                    })
                    .get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            p.destroyForcibly();
            throw e;
        }
        if (first == null || !first.startsWith("PORT ")) {
            p.destroyForcibly();
            throw new IOException("the forked S3 test server did not start: " + first);
        }
        return new ForkedS3TestServer(
                p, out, in, Integer.parseInt(first.substring(5).trim()), bucket);
    }

    /** {@code s3a://BUCKET/path}. */
    public String url(String path) {
        return "s3a://" + bucket + "/" + path;
    }

    /** s3a options for this server, as {@link S3TestServer#options()}. */
    public StoreOptions options() {
        return S3TestServer.options(port);
    }

    /** Holds every later request for {@code millis} before serving it. */
    public void setLatencyMillis(int millis) throws IOException {
        in.println("latency " + millis);
        String answer = out.readLine();
        if (answer == null || answer.startsWith("ERROR")) {
            throw new IOException("the forked S3 test server refused 'latency " + millis + "': " + answer);
        }
    }

    /** Stops the server's process. */
    @Override
    public void close() throws Exception {
        in.println("stop");
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
