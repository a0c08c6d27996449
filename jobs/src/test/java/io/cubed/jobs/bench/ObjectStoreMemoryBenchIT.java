package io.cubed.jobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.jobs.CubedCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cubed bench --store s3} at smoke size: W1-W4 (elementwise, reduction rounds, a rechunk through the work
 * directory, matmul) with inputs, outputs and the work directory on the S3 test server in its own JVM, 30 ms a request,
 * at the default store.concurrency. No measured operation exceeds its projection, and the in-flight term was exercised:
 * the projections count it, the measured slots kept several requests in flight, and what those requests held was
 * inside the measured peaks.
 */
class ObjectStoreMemoryBenchIT {
    @TempDir
    Path tmp;

    @Test
    void noOperationExceedsItsProjectionWithItsRequestsInFlightOnTheS3Server() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        // 8 MB per task: the rechunk takes two stages through the work directory, and the in-flight term (32 requests
        // of a chunk and a connection each) is cut to what allowedMem leaves beside the task, so the slots' budget
        // binds.
        int code = CubedCli.run(
                new PrintWriter(out),
                new PrintWriter(err),
                "bench",
                "--store",
                "s3",
                "--smoke",
                "--workloads",
                "W1,W2,W3,W4",
                "--threads",
                "2",
                "--latency-ms",
                "30",
                "--allowed-mem",
                "8MB",
                "--reserved-mem",
                "1MB",
                "--dir",
                tmp.resolve("bench").toString(),
                "--out",
                tmp.resolve("report").toString());
        assertThat(code).as(out + "\n" + err).isZero();
        String md = Files.readString(tmp.resolve("report/memory-s3.md"));
        assertThat(md).contains("No measured operation exceeded its projection.");

        List<Map<String, String>> rows = csv(tmp.resolve("report/memory-s3.csv"));
        assertThat(rows).extracting(r -> r.get("workload")).contains("W1", "W2", "W3", "W4");
        assertThat(rows.stream().filter(r -> r.get("workload").equals("W3")))
                .as("the rechunk goes through the work directory")
                .hasSizeGreaterThan(1);
        for (Map<String, String> r : rows) {
            String what = r.get("workload") + " " + r.get("stage");
            assertThat(Long.parseLong(r.get("measured_tasks"))).as(what).isPositive();
            assertThat(r.get("within")).as(what).isEqualTo("yes");
            assertThat(Long.parseLong(r.get("max_measured_bytes")))
                    .as(what)
                    .isLessThanOrEqualTo(
                            Long.parseLong(r.get("projected_bytes")) - Long.parseLong(r.get("reserved_bytes")));
            // Every stage reads or writes the server: its projection has room for requests in flight.
            assertThat(Long.parseLong(r.get("io_bytes"))).as(what).isPositive();
            assertThat(Long.parseLong(r.get("slot_max_held_bytes")))
                    .as(what)
                    .isLessThanOrEqualTo(Long.parseLong(r.get("io_bytes")));
        }
        // The stages whose tasks read several chunks: the measured slot had many requests in flight at once (so did
        // the server), and its requests held bytes at the measured peak, which counted them.
        for (Map<String, String> r : rows) {
            String what = r.get("workload") + " " + r.get("stage");
            if (r.get("workload").equals("W2")) {
                continue;
            }
            assertThat(Integer.parseInt(r.get("slot_max_in_flight"))).as(what).isGreaterThan(1);
            assertThat(Long.parseLong(r.get("server_max_in_flight"))).as(what).isGreaterThan(1);
        }
        assertThat(rows.stream()
                        .filter(r -> !r.get("workload").equals("W2"))
                        .filter(r -> Long.parseLong(r.get("request_bytes_at_peak")) > 0)
                        .map(r -> r.get("workload"))
                        .distinct())
                .containsExactlyInAnyOrder("W1", "W3", "W4");
    }

    private static List<Map<String, String>> csv(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file);
        String[] header = lines.get(0).split(",");
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",");
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], cells[i]);
            }
            rows.add(row);
        }
        return rows;
    }
}
