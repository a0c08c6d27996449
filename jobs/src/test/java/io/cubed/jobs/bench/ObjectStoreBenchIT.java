package io.cubed.jobs.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cubed.jobs.CubedCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cubed bench --object-store} at smoke size, run as a user runs it: the S3 test server in its own JVM (from
 * {@code jobs/target/s3-server-lib}), {@code bin/cubed copy} as a command, Dask over HTTP as the peer. Every copy
 * matches the source, and the server counted one GET per chunk plus the three metadata documents, for both.
 */
class ObjectStoreBenchIT {
    @TempDir
    Path tmp;

    @Test
    void theObjectStoreBenchCopiesWithOneRequestPerChunkAndChecksEveryCopy() throws Exception {
        boolean dask = BenchCommandTest.python("/usr/bin/python3", "import dask.array, zarr, fsspec, aiohttp") == 0;
        assumeTrue(dask || System.getenv("CI") == null, "CI installs Dask, fsspec and aiohttp: they must be here");
        List<String> args = new ArrayList<>(List.of(
                "bench",
                "--object-store",
                "--smoke",
                "--latency-ms",
                "5,0",
                "--concurrency",
                "4",
                "--sharded",
                "--threads",
                "2",
                "--dir",
                tmp.resolve("bench").toString(),
                "--out",
                tmp.resolve("report").toString()));
        if (dask) {
            args.add("--peer");
            args.add("dask");
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = CubedCli.run(new PrintWriter(out), new PrintWriter(err), args.toArray(new String[0]));
        assertThat(code).as(out + "\n" + err).isZero();
        List<String> rows = new ArrayList<>();
        List<String> sharded = new ArrayList<>();
        for (String line : Files.readAllLines(tmp.resolve("report/object-store.md"))) {
            if (line.startsWith("| 5 ms") || line.startsWith("| 0 ms")) {
                (line.contains("| sharded v3") ? sharded : rows).add(line);
            }
        }
        // The sharded copy (one shard of 4 x 4 inner chunks), summed by inner chunks and by whole shards per latency.
        assertThat(sharded).hasSize(4);
        for (String row : sharded) {
            String[] cells = row.split("\\|");
            assertThat(cells[cells.length - 1].trim()).as(row).isEqualTo("match");
            // No HEAD, no LIST: only GETs.
            assertThat(cells[7].trim()).as(row).isEqualTo("none");
            double getsPerChunk = Double.parseDouble(cells[6].trim());
            if (row.contains("by inner chunks")) {
                // The sum's first round reads 2 x 2 inner chunks a task: read ahead, the two of each row of the shard
                // side by side are one GET (8 in all), read by a task that found them not read ahead each its own (up
                // to 16); then the shard's index (a suffix range) once per task slot (2 threads), and the metadata
                // documents: (8..16 + 1..2 + 2..3) / 16.
                assertThat(getsPerChunk).as(row).isBetween((8 + 1 + 2) / 16.0, (16 + 2 + 3) / 16.0);
            } else {
                // One GET for the whole shard, plus the metadata documents, over 16 chunks.
                assertThat(getsPerChunk).as(row).isLessThan(0.5);
            }
        }
        // Per latency: ours, ours with one request in flight per task, Dask's when it runs, and the sum in the JVM.
        assertThat(rows).hasSize(dask ? 8 : 6);
        for (String row : rows) {
            String[] cells = row.split("\\|");
            assertThat(cells[cells.length - 1].trim()).as(row).isEqualTo("match");
            // 16 chunks: 16 GETs, and 3 of metadata (ours: zarr.json, .zarray, .zattrs, each once; Dask's zarr: as
            // many).
            assertThat(cells[6].trim()).as(row).isEqualTo("1.19");
            assertThat(cells[7].trim()).as(row).isEqualTo("none");
            // In flight, as the server counts them: the stage's mean, the busy time's mean, the most at once. Every
            // run makes 16 chunk GETs: the stage's mean is above 0 (below 1 where the stage has idle gaps between
            // requests, as at 0 ms), the busy time's at least 1, neither above the most.
            String[] inFlight = cells[8].trim().split("; ");
            assertThat(inFlight).as(row).hasSize(3);
            double stage = Double.parseDouble(inFlight[0]);
            double busy = Double.parseDouble(inFlight[1]);
            long max = Long.parseLong(inFlight[2]);
            assertThat(stage).as(row).isPositive().isLessThanOrEqualTo(max);
            assertThat(busy).as(row).isBetween(1.0, (double) max);
        }
    }
}
