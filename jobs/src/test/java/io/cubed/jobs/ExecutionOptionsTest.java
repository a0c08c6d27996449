package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.jobs.spark.SparkRechunkJob;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The settings of a computing command come from its options, then {@code CUBED_*} variables, then the Spark conf, then
 * a properties file; {@code --executor} picks the in-process executor or Spark. Run through the real {@code rechunk}
 * command.
 */
class ExecutionOptionsTest {
    @TempDir
    Path tmp;

    private String src;

    @BeforeEach
    void rows() {
        src = tmp.resolve("rows.zarr").toString();
        ZarrArray rows = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(new long[] {40, 30}, new int[] {1, 30}, DType.FLOAT64)
                        .build());
        for (int i = 0; i < 40; i++) {
            Chunk c = Chunk.allocate(DType.FLOAT64, new int[] {1, 30});
            for (int j = 0; j < 30; j++) {
                c.doubles()[j] = 100.0 * i + j;
            }
            rows.writeChunk(c, i, 0);
        }
    }

    private record Result(int code, String out, String err) {}

    private static Result run(RechunkCommand command, Map<String, String> env, String... args) {
        command.exec.environment = env;
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println(e.getMessage());
            return 1;
        });
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    private void assertColumns(String dst) {
        ZarrArray cols = ZarrArray.open(dst);
        assertThat(cols.metadata().chunks()).containsExactly(40, 1);
        for (int j = 0; j < 30; j++) {
            double[] d = cols.readChunk(0, j).doubles();
            for (int i = 0; i < 40; i++) {
                assertThat(d[i]).isEqualTo(100.0 * i + j);
            }
        }
    }

    @Test
    void optionsBeatEnvironmentWhichBeatsTheConfigFile() throws Exception {
        Path work = tmp.resolve("work");
        Path config = Files.writeString(
                tmp.resolve("cubed.properties"), "allowedMem=2200B\nreservedMem=0\nthreads=1\nworkDir=" + work + "\n");
        Result r = run(
                new RechunkCommand(),
                Map.of("CUBED_RESERVED_MEM", "100B", "CUBED_THREADS", "2"),
                src,
                tmp.resolve("cols.zarr").toString(),
                "--chunks",
                "-1,1",
                "--config",
                config.toString(),
                "--threads",
                "1",
                "--dry-run");
        assertThat(r.code()).as(r.err()).isZero();
        // allowedMem and workDir from the file, reservedMem from the environment, threads from the option.
        assertThat(r.out())
                .contains("allowedMem=2.2 kB, reservedMem=100 bytes")
                .contains("workDir=" + work)
                .contains("executor=local(threads=1)");

        Result badEnv = run(
                new RechunkCommand(),
                Map.of("CUBED_THREADS", "zero"),
                src,
                tmp.resolve("x.zarr").toString(),
                "--chunks",
                "-1,1");
        assertThat(badEnv.code()).isEqualTo(1);
        assertThat(badEnv.err())
                .contains("setting threads from environment variable CUBED_THREADS: 'zero' is not an integer");
        assertThat(tmp.resolve("x.zarr")).doesNotExist();
    }

    @Test
    void theSameCommandRunsOnSparkAndStopsTheSessionItStarted() {
        String dst = tmp.resolve("cols.zarr").toString();
        // SparkRechunkJob is the rechunk command with Spark as its default executor.
        Result r = run(
                new SparkRechunkJob(),
                Map.of(),
                src,
                dst,
                "--chunks",
                "-1,1",
                "--allowed-mem",
                "2200B",
                "--reserved-mem",
                "0",
                "--threads",
                "2",
                "--work-dir",
                tmp.resolve("work").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("memory: ")
                .contains("executor=spark(local[2])")
                .contains("wrote " + dst);
        assertColumns(dst);
        assertThat(SparkSession.getActiveSession().isEmpty()).isTrue();

        // --executor local on the Spark job: the option wins over the job's default.
        String local = tmp.resolve("cols-local.zarr").toString();
        Result l = run(
                new SparkRechunkJob(),
                Map.of(),
                src,
                local,
                "--chunks",
                "-1,1",
                "--allowed-mem",
                "2200B",
                "--reserved-mem",
                "0",
                "--executor",
                "local",
                "--work-dir",
                tmp.resolve("work").toString());
        assertThat(l.code()).as(l.err()).isZero();
        assertThat(l.out()).contains("executor=local(").doesNotContain("memory: ");
        assertColumns(local);
    }
}
