package io.cubed.spark.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.spark.SparkTestContext;
import io.cubed.testing.ExternalTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spark.read.format("zarr").load(path)} and {@code df.write.format("zarr").save(path)} in a directory named
 * {@code run 1 %41 #é 日本}, by a plain path and by {@code file:} URLs, on the local and the Hadoop backend: the path
 * means what Spark's own sources and Hadoop's {@code Path} take it for (the characters literally), and xarray reads
 * what was written there. Before, {@code file:} URLs were percent-decoded or, with a space, refused.
 */
class ZarrLocationSpellingsTest {
    private static final String PYTHON = System.getProperty("cubed.test.python", "/usr/bin/python3");

    /** write PATH: v[y, x] = 3 (8 y + x) - 7 on y = 0..5, x = 0, 10, …, 70; read PATH: v's values, row-major. */
    private static final String SCRIPT =
            """
            import sys
            import numpy as np, xarray as xr
            mode, path = sys.argv[1], sys.argv[2]
            if mode == "write":
                v = np.arange(48, dtype="i4").reshape(6, 8) * 3 - 7
                ds = xr.Dataset({"v": (("y", "x"), v)}, coords={"y": np.arange(6), "x": np.arange(8) * 10})
                ds.to_zarr(path, mode="w", encoding={"v": {"chunks": (2, 3)}})
            else:
                ds = xr.open_zarr(path)
                print(" ".join(str(int(a)) for a in ds["v"].values.ravel()))
            """;

    @TempDir
    Path tmp;

    private static String python(String mode, Path path) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(PYTHON, "-c", SCRIPT, mode, path.toString())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            ExternalTool.require(false, PYTHON + " cannot be run: " + e.getMessage());
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        ExternalTool.require(
                p.exitValue() == 0 || !out.contains("ModuleNotFoundError"),
                PYTHON + " cannot import xarray and zarr; install python3-xarray or set -Dcubed.test.python");
        assertThat(p.exitValue()).as("python %s %s: %s", mode, path, out).isZero();
        return out.strip();
    }

    /** {@code y,x,v} for every cell, by the formula the script wrote. */
    private static List<String> expectedRows() {
        List<String> rows = new ArrayList<>();
        for (int y = 0; y < 6; y++) {
            for (int x = 0; x < 8; x++) {
                rows.add(y + "," + (10 * x) + "," + (3 * (8 * y + x) - 7));
            }
        }
        return rows;
    }

    private static List<String> rows(Dataset<Row> df) {
        List<String> out = new ArrayList<>();
        for (Row r : df.select("y", "x", "v").collectAsList()) {
            out.add(r.get(0) + "," + r.get(1) + "," + r.get(2));
        }
        return out;
    }

    @Test
    void loadAndSaveWhereSparkAndXarrayMeanIt() throws Exception {
        SparkSession spark = SparkTestContext.session();
        Path dir = Files.createDirectories(tmp.resolve("run 1 %41 #é 日本"));
        python("write", dir.resolve("in put.zarr"));
        int n = 0;
        for (String in :
                List.of(dir + "/in put.zarr", "file://" + dir + "/in put.zarr", "file:" + dir + "/in put.zarr/")) {
            for (String backend : List.of("nio", "hadoop")) {
                Dataset<Row> df = spark.read()
                        .format("zarr")
                        .option("cubed.store.backend", backend)
                        .load(in);
                assertThat(rows(df)).as(in + " " + backend).containsExactlyInAnyOrderElementsOf(expectedRows());

                String out = "file://" + dir + "/sql out%41 " + (n++) + ".zarr";
                df.write()
                        .format("zarr")
                        .option("cubed.store.backend", backend)
                        .option("dims", "y,x")
                        .save(out);
                Path written = dir.resolve("sql out%41 " + (n - 1) + ".zarr");
                assertThat(written).as("written at the literal path").isDirectory();
                StringBuilder want = new StringBuilder();
                for (int i = 0; i < 48; i++) {
                    want.append(i == 0 ? "" : " ").append(3 * i - 7);
                }
                assertThat(python("read", written)).as(out).isEqualTo(want.toString());
            }
        }
        assertThat(dir.resolve("in put.zarr")).isDirectory();
        try (var listing = Files.list(dir)) {
            assertThat(listing.map(p -> p.getFileName().toString()).filter(s -> s.startsWith("sql outA")))
                    .as("nothing written at a percent-decoded path")
                    .isEmpty();
        }
    }
}
