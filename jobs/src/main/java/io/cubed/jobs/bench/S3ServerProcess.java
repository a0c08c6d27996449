package io.cubed.jobs.bench;

import io.cubed.error.InvalidArgumentException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The S3 test server of {@code cubed bench --object-store} in a JVM of its own (the project's S3 test server: s3proxy
 * with a per-request delay, request counters and anonymous reads), from the jars the build copies to {@code
 * jobs/target/s3-server-lib}: it talks to it over its standard input and output ({@code stats}, {@code reset}, {@code
 * latency N}, {@code stop}). As the bench's location, the server counts every request.
 */
final class S3ServerProcess implements BenchLocation {
    static final String ACCESS_KEY = "cubed-test-access";
    static final String SECRET_KEY = "cubed-test-secret";

    private final Process process;
    private final BufferedReader out;
    private final PrintWriter in;
    private final int port;
    private final String bucket;

    private S3ServerProcess(Process process, BufferedReader out, PrintWriter in, int port, String bucket) {
        this.process = process;
        this.out = out;
        this.in = in;
        this.port = port;
        this.bucket = bucket;
    }

    /** The command line's jar (or, in the build's tests, its classes directory). */
    static Path commandLineJar() {
        try {
            return Path.of(S3ServerProcess.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (java.net.URISyntaxException | SecurityException e) {
            throw new InvalidArgumentException("bench --object-store: cannot find the command line's jar: " + e, e);
        }
    }

    /** The directory of the server's jars, beside the command line's jar; fails saying how to build it. */
    static Path libraryDirectory() {
        Path lib = commandLineJar().getParent().resolve("s3-server-lib");
        if (Files.isDirectory(lib)) {
            return lib;
        }
        throw new InvalidArgumentException("bench --object-store: no S3 test server at " + lib + "; build it with mvn"
                + " -pl jobs -am package -DskipTests (it copies the server's jars there)");
    }

    /** Starts the server with {@code bucket}, {@code latencyMillis} per request and anonymous reads. */
    static S3ServerProcess start(String bucket, int latencyMillis) throws IOException {
        return start(bucket, latencyMillis, null);
    }

    /**
     * As {@link #start(String, int)}, keeping the objects in files under {@code directory} (created if missing) rather
     * than in the server's heap when it is not null: for inputs of gigabytes.
     */
    static S3ServerProcess start(String bucket, int latencyMillis, Path directory) throws IOException {
        Path lib = libraryDirectory();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Xmx1g",
                "-Dorg.slf4j.simpleLogger.logFile=System.err",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp",
                lib + "/*",
                "io.cubed.storage.fs.S3TestServer",
                "--bucket",
                bucket,
                "--latency-ms",
                Integer.toString(latencyMillis),
                "--anonymous-reads"));
        if (directory != null) {
            Files.createDirectories(directory);
            cmd.addAll(List.of("--dir", directory.toAbsolutePath().toString()));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter in = new PrintWriter(p.getOutputStream(), true, StandardCharsets.UTF_8);
        String line = out.readLine();
        if (line == null || !line.startsWith("PORT ")) {
            p.destroyForcibly();
            throw new IOException("the S3 test server did not start (" + String.join(" ", cmd) + "): " + line);
        }
        return new S3ServerProcess(
                p, out, in, Integer.parseInt(line.substring(5).trim()), bucket);
    }

    int port() {
        return port;
    }

    /** {@code s3a://BUCKET/path}. */
    @Override
    public String s3aUrl(String path) {
        return "s3a://" + bucket + "/" + path;
    }

    /** The anonymous HTTP URL of {@code path}, as Python's fsspec reads it. */
    @Override
    public String httpUrl(String path) {
        return "http://127.0.0.1:" + port + "/" + bucket + "/" + path;
    }

    /** The s3a options of this server (endpoint, path-style, the test keys). */
    @Override
    public Map<String, String> options() {
        return Map.of(
                "fs.s3a.endpoint",
                "http://127.0.0.1:" + port,
                "fs.s3a.endpoint.region",
                "us-east-1",
                "fs.s3a.path.style.access",
                "true",
                "fs.s3a.access.key",
                ACCESS_KEY,
                "fs.s3a.secret.key",
                SECRET_KEY);
    }

    private synchronized String command(String line) throws IOException {
        in.println(line);
        String answer = out.readLine();
        if (answer == null) {
            throw new IOException("the S3 test server ended while answering '" + line + "'");
        }
        return answer;
    }

    /** The counters since the last {@link #reset}, as the server's JSON object. */
    @SuppressWarnings("unchecked")
    Map<String, Object> stats() throws IOException {
        return (Map<String, Object>) io.cubed.storage.zarr.Json.parse(command("stats"));
    }

    @Override
    public void reset() throws IOException {
        command("reset");
    }

    @Override
    public void latency(int millis) throws IOException {
        command("latency " + millis);
    }

    @Override
    public String noPeer() {
        return null;
    }

    @Override
    public String description() {
        return "the S3 test server (s3proxy, in its own JVM on 127.0.0.1)";
    }

    @Override
    public String countedBy() {
        return "as the server counted them";
    }

    @Override
    public Counts commandCounts(Path clientStats) throws IOException {
        return Counts.of(stats());
    }

    @Override
    public Counts jvmCounts() throws IOException {
        return Counts.of(stats());
    }

    @Override
    public Counts peerCounts() throws IOException {
        return Counts.of(stats());
    }

    @Override
    public void close() throws IOException {
        try {
            in.println("stop");
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
