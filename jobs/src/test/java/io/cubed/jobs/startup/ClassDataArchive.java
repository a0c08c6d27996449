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
 * Makes the command line's class-data archive: {@code java ClassDataArchive JAR LIB_DIR ARCHIVE}. Runs {@link
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
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: ClassDataArchive JAR LIB_DIR ARCHIVE");
        }
        Path jar = Path.of(args[0]).toAbsolutePath();
        Path lib = Path.of(args[1]).toAbsolutePath();
        Path archive = Path.of(args[2]).toAbsolutePath();
        Path loaded = Files.createTempFile("cubed-loaded-classes", ".lst");
        Path classes = archive.resolveSibling(archive.getFileName() + ".classes");
        try {
            Files.deleteIfExists(archive);
            String javaBin =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            run(List.of(
                    javaBin,
                    "-XX:DumpLoadedClassList=" + loaded,
                    "--add-modules=jdk.incubator.vector",
                    // The command line's logging provider (the test class path has Spark's log4j binding first).
                    "-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider",
                    "-cp",
                    System.getProperty("java.class.path"),
                    ClassListTraining.class.getName()));
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
                    jar + File.pathSeparator + lib + File.separator + "*"));
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
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
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
