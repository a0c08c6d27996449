package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/cubed} starts from the class-data archive the build makes ({@code jobs/target/cubed.jsa}, package phase):
 * the JVM's class-loading log of a {@code cubed demo} shows the command line's classes, Cubed's and picocli's, and the
 * lambda proxies they spin, mapped from the archive ("source: shared objects file"), and with {@code CUBED_CDS=off}
 * loaded from the jars again; {@code cubed sql}, run with the build's copy of Spark's jars, maps Spark's classes from
 * the second archive ({@code jobs/target/cubed-spark.jsa}).
 */
class ClassDataArchiveIT {
    @TempDir
    Path tmp;

    @Test
    void binCubedMapsTheCommandLinesClassesFromTheBuildsArchive() throws Exception {
        assertThat(Path.of("target", "cubed.jsa"))
                .as("made in the package phase (unless -Dcubed.cds.skip)")
                .isRegularFile();

        List<String> on = demoLoading("on");
        List<String> cubed = loadsOf(on, "io.cubed.");
        assertThat(cubed).anyMatch(l -> l.startsWith("io.cubed.jobs.CubedCli source: shared objects file"));
        assertThat(loadsOf(on, "picocli.CommandLine ")).singleElement().satisfies(l -> assertThat(l)
                .contains("shared objects file"));
        long shared =
                cubed.stream().filter(l -> l.contains("shared objects file")).count();
        assertThat(shared)
                .as("Cubed's classes mapped from the archive, of %d loaded", cubed.size())
                .isGreaterThanOrEqualTo(cubed.size() * 9L / 10);
        assertThat(cubed)
                .as("lambda proxies from the archive, not spun at run time")
                .anyMatch(l -> l.contains("$$Lambda$") && l.contains("shared objects file"));

        List<String> off = demoLoading("off");
        assertThat(loadsOf(off, "io.cubed.jobs.CubedCli "))
                .singleElement()
                .satisfies(l -> assertThat(l).contains("source: file:").doesNotContain("shared objects file"));
    }

    @Test
    void binCubedSqlMapsSparksClassesFromTheSparkArchive() throws Exception {
        assertThat(Path.of("target", "cubed-spark.jsa")).isRegularFile();
        Path log = tmp.resolve("classes-sql.log");
        BinCubed.Result r = BinCubed.run(
                tmp,
                Map.of("CUBED_NO_BUILD", "1", "CUBED_JAVA_OPTS", "-Xmx1g -Xlog:class+load=info:file=" + log + ":none"),
                "sql",
                "SELECT 6 * 7 AS answer");
        assertThat(r.code()).as(r.output()).isZero();
        assertThat(r.output()).contains("|    42|");
        List<String> loaded = Files.readAllLines(log, StandardCharsets.UTF_8);
        // Classes from class files, in the archive or in the jars (not the Scala lambdas Spark spins at run time,
        // serializable ones, which the JVM does not archive).
        List<String> spark = loadsOf(loaded, "org.apache.spark.").stream()
                .filter(l -> l.contains("shared objects file") || l.contains("source: file:"))
                .toList();
        assertThat(loadsOf(loaded, "org.apache.spark.sql.SparkSession "))
                .singleElement()
                .satisfies(l -> assertThat(l).contains("shared objects file"));
        assertThat(spark.stream().filter(l -> l.contains("shared objects file")).count())
                .as("Spark's classes mapped from the archive, of %d loaded", spark.size())
                .isGreaterThanOrEqualTo(spark.size() * 9L / 10);
    }

    /** The class-loading log of a small {@code cubed demo} run with {@code CUBED_CDS} set to {@code cds}. */
    private List<String> demoLoading(String cds) throws Exception {
        Path log = tmp.resolve("classes-" + cds + ".log");
        BinCubed.Result r = BinCubed.run(
                tmp,
                Map.of(
                        "CUBED_CDS",
                        cds,
                        "CUBED_NO_BUILD",
                        "1",
                        "CUBED_JAVA_OPTS",
                        "-Xmx512m -Xlog:class+load=info:file=" + log + ":none"),
                "demo",
                "--size-mb",
                "2",
                "--chunk-mb",
                "1",
                "--threads",
                "2",
                "--dir",
                tmp.resolve("demo-" + cds).toString());
        assertThat(r.code()).as(r.output()).isZero();
        assertThat(r.output()).contains("all values equal");
        return Files.readAllLines(log, StandardCharsets.UTF_8);
    }

    private static List<String> loadsOf(List<String> log, String prefix) {
        return log.stream().filter(l -> l.startsWith(prefix)).toList();
    }
}
