package io.cubed.jobs.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code org.apache.spark.deploy.SparkSubmit} from the Maven jars (no Spark distribution) in a child JVM with
 * {@code jobs/target/cubed-jobs-spark.jar}, as a user's spark-submit would. The child's classpath holds Spark and
 * Hadoop (with Spark's own lz4-java 1.8, not the newer one Cubed depends on) but no Cubed class: those must come from
 * the submitted jar.
 */
final class SparkSubmitProcess {
    /** What the child printed (stdout and stderr) and its exit code. */
    record Result(int exitCode, String output) {}

    private SparkSubmitProcess() {}

    /** The shaded jar built by {@code mvn package}. */
    static Path jobsJar() {
        Path jar = Path.of(System.getProperty("cubed.jobs.spark.jar", "target/cubed-jobs-spark.jar"));
        assertThat(jar).as("built by mvn package").exists();
        return jar;
    }

    /**
     * Runs the jobs jar's {@code mainClass} with {@code args} as a user's {@code spark-submit --master local[2] --conf
     * spark.ui.enabled=false [--conf c ...] --class mainClass cubed-jobs-spark.jar args} would, in a JVM with a 1 GB
     * heap; each of {@code confs} ({@code key=value}) is one more {@code --conf}. See {@link #run}.
     */
    static Result submit(List<String> confs, String mainClass, List<String> args, Path log, long timeoutSeconds)
            throws IOException, InterruptedException {
        List<String> submitArgs = new ArrayList<>(List.of("--master", "local[2]", "--conf", "spark.ui.enabled=false"));
        for (String c : confs) {
            submitArgs.add("--conf");
            submitArgs.add(c);
        }
        submitArgs.addAll(List.of("--class", mainClass, jobsJar().toString()));
        submitArgs.addAll(args);
        return run("1g", submitArgs, log, timeoutSeconds);
    }

    /**
     * Runs {@code SparkSubmit sparkSubmitArgs} in a JVM with heap {@code xmx} (e.g. {@code 1g}), logging to {@code
     * log}, and fails the test if it does not finish within {@code timeoutSeconds}.
     */
    static Result run(String xmx, List<String> sparkSubmitArgs, Path log, long timeoutSeconds)
            throws IOException, InterruptedException {
        List<String> cp = new ArrayList<>();
        String testCp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (String e : testCp.split(File.pathSeparator)) {
            boolean cubed = e.contains("/io/cubed/")
                    || e.contains("/cubed-api/")
                    || e.contains("/cubed-spark/")
                    || e.contains("/jobs/target/");
            if (e.contains("/at/yawk/lz4/")) {
                // Cubed's own lz4-java, which the build gives Spark too: in its place Spark's own, as a Spark
                // distribution has it (org.lz4 1.8, no LZ4 acceleration, first); the submitted jar carries ours.
                Path sparkLz4 = Path.of("target", "spark-lz4", "lz4-java-spark.jar");
                assertThat(sparkLz4)
                        .as("copied by the build (maven-dependency-plugin)")
                        .exists();
                cp.add(sparkLz4.toAbsolutePath().toString());
            } else if (e.endsWith(".jar") && !cubed && !e.contains("picocli") && !e.contains("slf4j-simple")) {
                cp.add(e);
            }
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + xmx);
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-opens") || a.startsWith("-XX:+IgnoreUnrecognized")) {
                cmd.add(a);
            }
        }
        cmd.addAll(List.of("-cp", String.join(File.pathSeparator, cp), "org.apache.spark.deploy.SparkSubmit"));
        cmd.addAll(sparkSubmitArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        pb.environment().remove("SPARK_HOME");
        Process p = pb.start();
        boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        String out = Files.readString(log);
        assertThat(done).as("spark-submit finished in time:\n" + out).isTrue();
        return new Result(p.exitValue(), out);
    }
}
