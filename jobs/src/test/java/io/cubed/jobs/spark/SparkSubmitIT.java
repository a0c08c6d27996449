package io.cubed.jobs.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.storage.zarr.ZarrArray;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code org.apache.spark.deploy.SparkSubmit} (Maven's Spark jars, no Spark distribution) in a child JVM with
 * {@code jobs/target/cubed-jobs-spark.jar} on {@code local[2]}, as a user's spark-submit would. The child's classpath
 * holds Spark and Hadoop but no Cubed class: those must come from the submitted jar.
 */
class SparkSubmitIT {
    @TempDir
    Path tmp;

    @Test
    void sparkSubmitRunsTheDemoJobFromTheJobsJar() throws Exception {
        Path output = tmp.resolve("y.zarr");
        // The README's command, with the test's paths and a small size.
        SparkSubmitProcess.Result r = SparkSubmitProcess.submit(
                List.of(),
                "io.cubed.jobs.spark.SparkDemoJob",
                List.of("--output", output.toString(), "--size-mb", "64"),
                tmp.resolve("spark-submit.log"),
                150);
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output())
                .contains("wrote " + output + ": 8000000 float64 in 8 chunks, 8 tasks")
                .contains("sampled values equal 2 x + 1")
                .contains("on spark(local[2])")
                // Spark's lz4-java 1.8 comes first and has no accelerated compressor: ours, from the submitted jar.
                .containsPattern("LZ4 acceleration in the driver: isolated file:\\S*/cubed-jobs-spark\\.jar");
        ZarrArray y = ZarrArray.open(output.toString());
        assertThat(y.readChunk(5).doubles()[12345]).isEqualTo(2.0 * (5 * 1_000_000 + 12345) + 1);
    }

    @Test
    void sparkSubmitRunsTheSqlBenchOverZarrAndParquet() throws Exception {
        // format("zarr") must resolve from the submitted jar's service registration; the bench checks that both
        // formats give the same answers and fails otherwise.
        Path dir = tmp.resolve("sql-bench");
        SparkSubmitProcess.Result r = SparkSubmitProcess.submit(
                List.of(),
                "io.cubed.jobs.CubedCli",
                List.of("sql-bench", "--dir", dir.toString(), "--scale", "0.05", "--rounds", "1"),
                tmp.resolve("sql-bench.log"),
                240);
        assertThat(r.exitCode()).as(r.output()).isZero();
        String report = java.nio.file.Files.readString(dir.resolve("sql-report.md"));
        // 5 x 361 x 720 in chunks of 1 x 181 x 360: 20 chunks; one time step is 4 of them, one grid column 5.
        assertThat(report)
                .contains("5 x 361 x 720 float32 (1,299,600 rows)")
                .containsPattern(
                        "\\| Q1 \\| full scan, one aggregate \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+ \\| 20 of 20 \\|")
                .containsPattern("\\| Q3 \\| one time step \\(1/5 of time\\) \\|.* \\| 4 of 20 \\|")
                .containsPattern("\\| Q4 \\| one grid column, all times \\|.* \\| 5 of 20 \\|")
                // The packed int16 copy decodes to the values Parquet holds (the bench compares the answers).
                .containsPattern("\\| Q5 \\| full scan of the packed int16 copy, decoded \\|.* \\| 20 of 20 \\|")
                .containsPattern("\\| t2m_packed: int16 to float32 .* \\(`decodeCf=false` is off\\) \\| [0-9.]+ \\|")
                .containsPattern("\\| t2m_packed: the same decoding with the fill value as NaN.*"
                        + " \\(`nanAsNull=false` is on, `decodeCf=false` is off\\) \\| [0-9.]+ \\|")
                .containsPattern("\\| t2m: float32 with NaN as NULL .* \\(`nanAsNull=false` is off\\) \\| [0-9.]+ \\|")
                // 10^7 x 0.05 rows written as Parquet and as Zarr; the bench checks both read back alike.
                .contains("500,000 rows (time 5 x lat 200 x lon 500")
                .containsPattern("\\| Zarr \\| [0-9.]+ \\|")
                .containsPattern("Zarr / Parquet \\(medians\\): [0-9.]+");
    }

    @Test
    void sparkSubmitRunsTheCommandLineWithTheExecutorFromTheSparkConf() throws Exception {
        String src = tmp.resolve("a.zarr").toString();
        ZarrArray a = ZarrArray.create(
                src,
                io.cubed.storage.zarr.ZarrCreateOptions.builder(
                                new long[] {6}, new int[] {2}, io.cubed.dtype.DType.INT64)
                        .build());
        for (long c = 0; c < 3; c++) {
            long[] values = {10 * c, 10 * c + 1};
            a.writeChunk(io.cubed.chunk.Chunk.wrap(io.cubed.dtype.DType.INT64, new int[] {values.length}, values), c);
        }
        String dst = tmp.resolve("b.zarr").toString();
        // One jar: the command line's main class, the Spark executor chosen by spark.cubed.executor.
        SparkSubmitProcess.Result r = SparkSubmitProcess.submit(
                List.of("spark.cubed.executor=spark"),
                "io.cubed.jobs.CubedCli",
                List.of("copy", src, dst, "--codec", "zlib:1"),
                tmp.resolve("copy.log"),
                120);
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains("copied 3 of 3 chunks").contains("on the spark(local[2])");
        ZarrArray b = ZarrArray.open(dst);
        assertThat(b.readChunk(0).longs()).containsExactly(0, 1);
        assertThat(b.readChunk(1).longs()).containsExactly(10, 11);
        assertThat(b.readChunk(2).longs()).containsExactly(20, 21);
    }

    /**
     * Under spark-submit every codec works with the libraries Spark provides (zstd-jni, lz4-java) and the ones in the jar
     * (commons-compress, relocated): a Zstandard array rechunked to LZ4, then copied to bzip2, values checked.
     */
    @Test
    void sparkSubmitReadsAndWritesTheCodecsWhoseLibrariesSparkProvides() throws Exception {
        String src = tmp.resolve("zstd.zarr").toString();
        ZarrArray a = ZarrArray.create(
                src,
                io.cubed.storage.zarr.ZarrCreateOptions.builder(
                                new long[] {4, 6}, new int[] {2, 6}, io.cubed.dtype.DType.FLOAT64)
                        .compressor(io.cubed.storage.zarr.Compressor.parseSpec("zstd:1"))
                        .build());
        for (long c = 0; c < 2; c++) {
            double[] values = new double[12];
            for (int k = 0; k < 12; k++) {
                values[k] = 12 * c + k;
            }
            a.writeChunk(io.cubed.chunk.Chunk.wrap(io.cubed.dtype.DType.FLOAT64, new int[] {2, 6}, values), c, 0);
        }
        String lz4 = tmp.resolve("lz4.zarr").toString();
        String bz2 = tmp.resolve("bz2.zarr").toString();
        List<List<String>> commands = List.of(
                List.of(
                        "rechunk",
                        src,
                        lz4,
                        "--chunks",
                        "4,3",
                        "--codec",
                        "lz4",
                        "--work-dir",
                        tmp.resolve("w").toString()),
                List.of("copy", lz4, bz2, "--codec", "bz2:1"));
        int n = 0;
        for (List<String> command : commands) {
            SparkSubmitProcess.Result r = SparkSubmitProcess.submit(
                    List.of("spark.cubed.executor=spark"),
                    "io.cubed.jobs.CubedCli",
                    command,
                    tmp.resolve("codecs-" + n++ + ".log"),
                    150);
            assertThat(r.exitCode()).as(r.output()).isZero();
        }
        for (String url : List.of(lz4, bz2)) {
            ZarrArray b = ZarrArray.open(url);
            double[] v = b.readRegion(new long[] {0, 0}, new int[] {4, 6}).doubles();
            for (int k = 0; k < 24; k++) {
                assertThat(v[k]).as(url).isEqualTo(k);
            }
        }
        assertThat(ZarrArray.open(bz2).metadata().compressor())
                .isEqualTo(io.cubed.storage.zarr.Compressor.parseSpec("bz2:1"));
    }
}
