package io.cubed.jobs.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.storage.zarr.ZarrArray;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
        Path jar = Path.of(System.getProperty("cubed.jobs.spark.jar", "target/cubed-jobs-spark.jar"));
        assertThat(jar).as("built by mvn package").exists();
        List<String> cp = new ArrayList<>();
        String testCp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (String e : testCp.split(File.pathSeparator)) {
            boolean cubed = e.contains("/io/cubed/")
                    || e.contains("/cubed-api/")
                    || e.contains("/cubed-spark/")
                    || e.contains("/jobs/target/");
            if (e.endsWith(".jar") && !cubed && !e.contains("picocli") && !e.contains("slf4j-simple")) {
                cp.add(e);
            }
        }
        Path output = tmp.resolve("y.zarr");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx1g");
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-opens") || a.startsWith("-XX:+IgnoreUnrecognized")) {
                cmd.add(a);
            }
        }
        cmd.addAll(List.of("-cp", String.join(File.pathSeparator, cp), "org.apache.spark.deploy.SparkSubmit"));
        // The README's command, with the test's paths and a small size.
        cmd.addAll(List.of(
                "--master",
                "local[2]",
                "--conf",
                "spark.ui.enabled=false",
                "--class",
                "io.cubed.jobs.spark.SparkDemoJob",
                jar.toString(),
                "--output",
                output.toString(),
                "--size-mb",
                "64"));
        Path log = tmp.resolve("spark-submit.log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        pb.environment().remove("SPARK_HOME");
        Process p = pb.start();
        boolean done = p.waitFor(150, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        String out = Files.readString(log);
        assertThat(done).as("spark-submit finished in time:\n" + out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out)
                .contains("wrote " + output + ": 8000000 float64 in 8 chunks, 8 tasks")
                .contains("sampled values equal 2 x + 1")
                .contains("on spark(local[2])");
        ZarrArray y = ZarrArray.open(output.toString());
        assertThat(y.readChunk(5).doubles()[12345]).isEqualTo(2.0 * (5 * 1_000_000 + 12345) + 1);
    }
}
