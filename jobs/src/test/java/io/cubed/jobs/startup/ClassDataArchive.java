package io.cubed.jobs.startup;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Makes the command line's class-data archive: {@code java ClassDataArchive JAR LIB_DIR ARCHIVE [HADOOP_LIB_DIR
 * SPARK_LIB_DIR]} (with the last two, the archive of the commands that run Spark, on the class path bin/cubed gives
 * them, Hadoop's client and Spark's jars after Cubed's, trained by {@code ClassListTraining spark}). Runs {@link
 * ClassListTraining} in a JVM of its own that lists what it loads — classes, and the lambda proxies and method-handle
 * forms it spins at run time — and dumps the list with {@code -Xshare:dump} on the class path {@code bin/cubed} runs
 * with ({@code JAR:LIB_DIR/*}), so that the JVM of every command maps them parsed and verified instead of loading the
 * classes from the jars and generating the rest with ASM. The build runs it in the package phase (jobs/pom.xml);
 * {@code -Dcubed.cds.skip} skips it.
 *
 * <p>A static archive, not the JVM's dynamic one ({@code -XX:ArchiveClassesAtExit}): with some dynamic archives Blosc's
 * scalar byte shuffle ran 3–5 times slower, its little-endian {@code VarHandle} accesses left un-inlined. With static
 * archives made from the same lists the JIT inlines them ({@code -XX:+PrintInlining}) and the shuffle keeps its speed
 * (docs/cloud.md, "Start-up").
 */
public final class ClassDataArchive {
    private ClassDataArchive() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 3 && args.length != 5) {
            throw new IllegalArgumentException(
                    "usage: ClassDataArchive JAR LIB_DIR ARCHIVE [HADOOP_LIB_DIR SPARK_LIB_DIR]");
        }
        Path jar = Path.of(args[0]).toAbsolutePath();
        Path lib = Path.of(args[1]).toAbsolutePath();
        Path archive = Path.of(args[2]).toAbsolutePath();
        Path sparkLib = args.length == 5 ? Path.of(args[4]).toAbsolutePath() : null;
        String classPath = jar + File.pathSeparator + lib + File.separator + "*";
        if (sparkLib != null) {
            Path hadoopLib = Path.of(args[3]).toAbsolutePath();
            classPath += File.pathSeparator + hadoopLib + File.separator + "*" + File.pathSeparator + sparkLib
                    + File.separator + "*";
        }
        Path loaded = Files.createTempFile("cubed-loaded-classes", ".lst");
        Path classes = archive.resolveSibling(archive.getFileName() + ".classes");
        try {
            Files.deleteIfExists(archive);
            String javaBin =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> training = new ArrayList<>(List.of(
                    javaBin,
                    "-XX:DumpLoadedClassList=" + loaded,
                    "--add-modules=jdk.incubator.vector",
                    // The command line's logging provider (the test class path has Spark's log4j binding first).
                    "-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider"));
            if (sparkLib != null) {
                // The module opens Spark needs on Java 17: those of Spark's own launcher, as bin/cubed gives them.
                for (String option : org.apache.spark.launcher.JavaModuleOptions.defaultModuleOptions()
                        .split("\\s+")) {
                    training.add(option);
                }
            }
            training.addAll(List.of("-cp", System.getProperty("java.class.path"), ClassListTraining.class.getName()));
            if (sparkLib != null) {
                training.add("spark");
            }
            run(training);
            List<String> kept = new ArrayList<>();
            for (String line : Files.readAllLines(loaded, StandardCharsets.UTF_8)) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    kept.add(line);
                }
            }
            Files.write(classes, kept, StandardCharsets.UTF_8);
            run(List.of(
                    javaBin,
                    "-Xshare:dump",
                    "-XX:SharedClassListFile=" + classes,
                    "-XX:SharedArchiveFile=" + archive,
                    "--add-modules=jdk.incubator.vector",
                    "-cp",
                    classPath));
            System.out.println("class-data archive " + archive + ": " + kept.size() + " classes and forms, "
                    + Files.size(archive) / (1 << 20) + " MiB");
        } finally {
            Files.deleteIfExists(loaded);
        }
    }

    /** Runs a JVM to its end; its output goes to this one's only when it fails. */
    private static void run(List<String> command) throws IOException, InterruptedException {
        String shown =
                String.join(" ", command.subList(0, command.indexOf("-cp"))) + " … " + command.get(command.size() - 1);
        Path log = Files.createTempFile("cubed-class-data", ".log");
        try {
            ProcessBuilder pb =
                    new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
            Process p = pb.start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("timed out: " + shown);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(
                        "exit " + p.exitValue() + ": " + shown + "\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
