package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.SpecConfig;
import io.cubed.SpecConfig.Source;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ExecutionOptionsTest {
    @TempDir
    Path tmp;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    /** A 10 x 6 int32 array in 3 x 4 chunks, value 100 i + j, with chunk (1, 1) never written. */
    private String source() {
        String url = tmp.resolve("src.zarr").toString();
        ZarrArray a = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {10, 6}, new int[] {3, 4}, DType.INT32)
                        .compressor(new Compressor.Zlib(1))
                        .build());
        for (long ci = 0; ci < 4; ci++) {
            for (long cj = 0; cj < 2; cj++) {
                if (ci == 1 && cj == 1) {
                    continue;
                }
                int[] shape = a.grid().chunkShapeAt(new long[] {ci, cj});
                Chunk c = Chunk.allocate(DType.INT32, shape);
                int[] d = c.ints();
                for (int r = 0; r < shape[0]; r++) {
                    for (int k = 0; k < shape[1]; k++) {
                        d[r * shape[1] + k] = (int) (100 * (ci * 3 + r) + cj * 4 + k);
                    }
                }
                a.writeChunk(c, ci, cj);
            }
        }
        return url;
    }

    private static void assertCopy(String dstUrl) {
        ZarrArray b = ZarrArray.open(dstUrl);
        assertThat(b.chunkExists(1, 1)).isFalse();
        for (long ci = 0; ci < 4; ci++) {
            for (long cj = 0; cj < 2; cj++) {
                if (ci == 1 && cj == 1) {
                    continue;
                }
                int[] shape = b.grid().chunkShapeAt(new long[] {ci, cj});
                int[] d = b.readChunk(ci, cj).ints();
                for (int r = 0; r < shape[0]; r++) {
                    for (int k = 0; k < shape[1]; k++) {
                        assertThat(d[r * shape[1] + k]).isEqualTo((int) (100 * (ci * 3 + r) + cj * 4 + k));
                    }
                }
            }
        }
    }

    @Test
    void copyOnSparkAndLocallyWritesTheSameValues() {
        String src = source();
        String viaSpark = tmp.resolve("spark.zarr").toString();
        CliRun r = run("copy", src, viaSpark, "--codec", "zstd:1", "--executor", "spark", "--threads", "2");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("copied 7 of 8 chunks").contains("spark(local[2])");
        assertCopy(viaSpark);
        assertThat(ZarrArray.open(viaSpark).metadata().compressor()).isEqualTo(Compressor.parseSpec("zstd:1"));
        // The session the command started is stopped.
        assertThat(SparkSession.getActiveSession().isEmpty()).isTrue();

        String local = tmp.resolve("local.zarr").toString();
        CliRun l = run("copy", src, local, "--executor", "local", "--threads", "3");
        assertThat(l.code()).as(l.err()).isZero();
        assertThat(l.out()).contains("copied 7 of 8 chunks").contains("in-process executor (3 threads)");
        assertCopy(local);
    }

    @Test
    void oneLocalThreadIsNamedInTheSingular() {
        String src = source();
        CliRun one = run("copy", src, tmp.resolve("one.zarr").toString(), "--threads", "1");
        assertThat(one.code()).as(one.err()).isZero();
        assertThat(one.out()).contains("on the in-process executor (1 thread)").doesNotContain("1 threads");
        assertCopy(tmp.resolve("one.zarr").toString());
    }

    @Test
    void rechunkOnSpark() {
        String src = source();
        String dst = tmp.resolve("cols.zarr").toString();
        CliRun r = run(
                "rechunk",
                src,
                dst,
                "--chunks",
                "-1,2",
                "--executor",
                "spark",
                "--threads",
                "2",
                "--allowed-mem",
                "40MB",
                "--reserved-mem",
                "1MB",
                "--work-dir",
                tmp.resolve("work").toString());
        assertThat(r.code()).as(r.err()).isZero();
        ZarrArray y = ZarrArray.open(dst);
        assertThat(y.metadata().chunks()).containsExactly(10, 2);
        int[] col23 = y.readChunk(0, 1).ints(); // columns 2 and 3, all 10 rows, all from written chunks
        for (int i = 0; i < 10; i++) {
            assertThat(col23[i * 2]).as("row %d col 2", i).isEqualTo(100 * i + 2);
            assertThat(col23[i * 2 + 1]).as("row %d col 3", i).isEqualTo(100 * i + 3);
        }
        int[] col45 = y.readChunk(0, 2).ints(); // columns 4 and 5: rows 3..5 are the unwritten chunk's fill, 0
        for (int i = 0; i < 10; i++) {
            int fill = (i >= 3 && i < 6) ? 0 : 1;
            assertThat(col45[i * 2]).as("row %d col 4", i).isEqualTo(fill * (100 * i + 4));
        }
    }

    @Test
    void optionsOverEnvironmentOverSparkConfOverFile() throws Exception {
        Path file = tmp.resolve("cubed.properties");
        Files.writeString(file, "allowedMem=1GB\nreservedMem=10MB\nthreads=1\nworkDir=/from/file\n");
        RechunkCommand cmd = new RechunkCommand();
        new CommandLine(cmd)
                .parseArgs("a", "b", "--chunks", "1", "--config", file.toString(), "--threads", "4", "--conf", "x=y");
        SpecConfig c = cmd.execution
                .environment(Map.of("CUBED_ALLOWED_MEM", "3GB", "CUBED_THREADS", "3"))
                .config(Map.of("spark.cubed.allowedMem", "2GB", "spark.cubed.workDir", "/from/spark"), cmd.store.conf);
        assertThat(c.threads()).isEqualTo(4);
        assertThat(c.get("threads").source()).isEqualTo(Source.COMMAND_LINE);
        assertThat(c.allowedMem()).isEqualTo(io.cubed.memory.MemorySize.parse("3GB"));
        assertThat(c.workDir()).isEqualTo("/from/spark");
        assertThat(c.reservedMem()).isEqualTo(io.cubed.memory.MemorySize.parse("10MB"));
        assertThat(c.storeOptions().get("x")).isEqualTo("y");
        assertThat(c.executor()).isEqualTo("local");
        assertThat(c.configFile()).isEqualTo(file.toString());
    }

    @Test
    void badExecutorAndBadSettingsNameTheirSource() {
        String src = source();
        CliRun r = run("copy", src, tmp.resolve("x.zarr").toString(), "--executor", "yarn");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("setting executor from option --executor: 'yarn' must be local or spark");
        assertThat(Files.exists(tmp.resolve("x.zarr"))).isFalse();
        CliRun m = run("rechunk", src, tmp.resolve("y.zarr").toString(), "--chunks", "1,1", "--allowed-mem", "lots");
        assertThat(m.code()).isEqualTo(2);
        assertThat(m.err()).contains("setting allowedMem from option --allowed-mem: 'lots' is not a memory size");
    }
}
