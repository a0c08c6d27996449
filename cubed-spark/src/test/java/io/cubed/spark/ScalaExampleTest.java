package io.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.tools.nsc.Settings;
import scala.tools.nsc.interpreter.IMain;
import scala.tools.nsc.interpreter.Results;

/**
 * Runs the README's Scala example through the Scala 2.12 interpreter (the Scala of Spark's _2.12 build), with the
 * test classpath: the Java API used from Scala as a Scala user would, and the README cannot show code that does not
 * compile or gives another result.
 */
class ScalaExampleTest {
    @TempDir
    Path tmp;

    @Test
    void theReadmeScalaExampleCompilesAndRuns() throws Exception {
        String dir = tmp.toString();
        for (String name : List.of("a", "b")) {
            ZarrArray z = ZarrArray.create(
                    dir + "/" + name + ".zarr",
                    ZarrCreateOptions.builder(new long[] {100, 100}, new int[] {25, 100}, DType.FLOAT64)
                            .build());
            for (int c = 0; c < 4; c++) {
                Chunk chunk = Chunk.allocate(DType.FLOAT64, 25, 100);
                for (int i = 0; i < 25; i++) {
                    for (int j = 0; j < 100; j++) {
                        chunk.doubles()[i * 100 + j] = name.equals("a") ? c * 25 + i : j;
                    }
                }
                z.writeChunk(chunk, c, 0);
            }
        }
        String code = readmeScala();
        Settings settings = new Settings();
        settings.processArgumentString("-usejavacp");
        StringWriter log = new StringWriter();
        IMain scala = new IMain(settings, new PrintWriter(log));
        try {
            assertThat(scala.interpret("val dir = \"" + dir.replace("\\", "/") + "\""))
                    .isEqualTo(Results.Success$.MODULE$);
            assertThat(scala.interpret(code)).as(log.toString()).isEqualTo(Results.Success$.MODULE$);
            Object corner = scala.valueOfTerm("corner").get();
            Object rowMeans = scala.valueOfTerm("rowMeans").get();
            // mean of a(i, j) = i and b(i, j) = j at (99, 99); the mean over axis 1 of (i + j) / 2 at row 99.
            assertThat(corner).isEqualTo(99.0);
            assertThat(((double[]) rowMeans)[99]).isEqualTo((99 + 49.5) / 2);
        } finally {
            scala.close();
        }
    }

    /** The body of the README's Scala block that follows {@code <!-- example: ScalaExampleTest -->}. */
    private static String readmeScala() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("../README.md"));
        int marker = lines.indexOf("<!-- example: ScalaExampleTest -->");
        assertThat(marker).as("README marker").isNotNegative();
        assertThat(lines.get(marker + 1)).isEqualTo("```scala");
        List<String> out = new ArrayList<>();
        int i = marker + 2;
        while (!lines.get(i).equals("```")) {
            out.add(lines.get(i++));
        }
        return String.join("\n", out);
    }
}
