package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.fs.S3Operation;
import io.cubed.storage.fs.S3ServerStats;
import io.cubed.storage.fs.S3TestServer;
import io.cubed.storage.zarr.Json;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --request-stats FILE}: what a command wrote there is what the S3 server served it, operation by operation;
 * a command that fails writes it too, and one that makes no S3 request writes zeros.
 */
class RequestStatsFileIT {
    private static S3TestServer s3;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3TestServer.start("request-stats");
        ZarrArray a = ZarrArray.create(
                s3.url("in.zarr"),
                ZarrCreateOptions.builder(new long[] {6, 8}, new int[] {2, 4}, DType.FLOAT64)
                        .build(),
                s3.options());
        for (long k = 0; k < a.grid().numChunks(); k++) {
            a.writeChunk(Chunk.allocate(DType.FLOAT64, 2, 4), a.grid().chunkCoordsOf(k));
        }
    }

    @AfterAll
    static void stop() {
        s3.close();
    }

    private static List<String> args(String... first) {
        List<String> args = new ArrayList<>(List.of(first));
        for (Map.Entry<String, String> e : s3.options().asMap().entrySet()) {
            args.add("--conf");
            args.add(e.getKey() + "=" + e.getValue());
        }
        return args;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> read(Path file) throws Exception {
        return (Map<String, Object>) Json.parse(Files.readString(file));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> counts(Map<String, Object> stats) {
        return (Map<String, Object>) stats.get("counts");
    }

    @Test
    void aCopysCountsAreTheServers() throws Exception {
        Path file = tmp.resolve("stats/copy.json");
        List<String> args = args(
                "copy",
                s3.url("in.zarr"),
                tmp.resolve("out.zarr").toString(),
                "--threads",
                "2",
                "--request-stats",
                file.toString());
        s3.resetStats();
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertThat(run.code()).as(run.err()).isZero();
        S3ServerStats server = s3.stats();
        Map<String, Object> stats = read(file);
        // 6 chunks and 3 metadata documents (zarr.json, absent; .zarray; .zattrs), each one GET, nothing else.
        assertThat(server.count(S3Operation.GET_OBJECT)).isEqualTo(9);
        assertThat(server.total()).isEqualTo(9);
        assertThat(counts(stats)).isEqualTo(Map.of("GET", 9L));
        assertThat(stats.get("requests")).isEqualTo(9L);
        assertThat(stats.get("client")).isEqualTo("cubed");
        long max = (Long) stats.get("maxInFlight");
        // The client counts a request from before it is sent until its body is read, so over a span that holds the
        // server's: at the server's busiest moment the client had at least as many; more may wait in the client.
        assertThat(max).isBetween((long) Math.max(1, server.maxInFlight()), 9L);
        assertThat((Double) stats.get("meanInFlight")).isBetween(1.0, (double) max);
        assertThat((Double) stats.get("busyMs")).isPositive();
    }

    @Test
    void aFailedCommandWritesItsRequestsToo() throws Exception {
        Path file = tmp.resolve("failed.json");
        s3.resetStats();
        CliRun run = CliRun.of(args("info", s3.url("missing.zarr"), "--request-stats", file.toString())
                .toArray(String[]::new));
        assertThat(run.code()).isNotZero();
        assertThat(run.err()).contains("missing.zarr");
        Map<String, Object> stats = read(file);
        Map<String, Long> expected = new java.util.TreeMap<>();
        s3.stats().counts().forEach((op, n) -> {
            if (n > 0) {
                expected.put(
                        op == S3Operation.GET_OBJECT ? "GET" : op == S3Operation.HEAD_OBJECT ? "HEAD" : op.name(), n);
            }
        });
        assertThat(expected).isNotEmpty();
        assertThat(counts(stats)).isEqualTo(expected);
    }

    @Test
    void withoutS3TheCountsAreZero() throws Exception {
        Path file = tmp.resolve("local.json");
        CliRun made = CliRun.of(
                args("copy", s3.url("in.zarr"), tmp.resolve("local-in.zarr").toString())
                        .toArray(String[]::new));
        assertThat(made.code()).as(made.err()).isZero();
        CliRun run = CliRun.of("info", tmp.resolve("local-in.zarr").toString(), "--request-stats", file.toString());
        assertThat(run.code()).as(run.err()).isZero();
        Map<String, Object> stats = read(file);
        assertThat(stats.get("requests")).isEqualTo(0L);
        assertThat(counts(stats)).isEmpty();
        assertThat(stats.get("maxInFlight")).isEqualTo(0L);
    }
}
