package io.cubed.spark;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A Spark standalone Master and one Worker, each a separate JVM on 127.0.0.1, started from the Maven jars of this
 * JVM's classpath: they are linked (class directories: packed) into a temporary {@code SPARK_HOME/jars}, which the
 * Worker also gives to the executors it launches, so Cubed's classes reach them. {@link #close} kills both and the
 * executors.
 */
final class StandaloneCluster implements AutoCloseable {
    private final Path home;
    private final List<Process> processes = new ArrayList<>();
    private final String masterUrl;

    private StandaloneCluster(Path home, String masterUrl) {
        this.home = home;
        this.masterUrl = masterUrl;
    }

    /** Starts a Master and a Worker offering {@code workerCores} cores and {@code workerMemory} (e.g. "1200m"). */
    static StandaloneCluster start(Path dir, int workerCores, String workerMemory) throws Exception {
        Path home = Files.createDirectories(dir.resolve("spark-home"));
        Path jars = Files.createDirectories(home.resolve("jars"));
        linkClasspath(jars);
        // The daemons log at INFO (the test resources' log4j2.properties says WARN): readiness is read from the logs.
        Files.writeString(
                home.resolve("log4j2-daemons.properties"),
                "rootLogger.level = info\nrootLogger.appenderRef.stdout.ref = console\n"
                        + "appender.console.type = Console\nappender.console.name = console\n"
                        + "appender.console.layout.type = PatternLayout\n"
                        + "appender.console.layout.pattern = %d{HH:mm:ss.SSS} %p %c{1}: %m%n\n");
        int masterPort = freePort();
        String url = "spark://127.0.0.1:" + masterPort;
        StandaloneCluster c = new StandaloneCluster(home, url);
        try {
            Path masterLog = dir.resolve("master.log");
            c.launch(
                    masterLog,
                    "org.apache.spark.deploy.master.Master",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    Integer.toString(masterPort),
                    "--webui-port",
                    Integer.toString(freePort()));
            waitFor(masterLog, "I have been elected leader", 60);
            Path workerLog = dir.resolve("worker.log");
            c.launch(
                    workerLog,
                    "org.apache.spark.deploy.worker.Worker",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    Integer.toString(freePort()),
                    "--webui-port",
                    Integer.toString(freePort()),
                    "--cores",
                    Integer.toString(workerCores),
                    "--memory",
                    workerMemory,
                    "--work-dir",
                    Files.createDirectories(dir.resolve("work")).toString(),
                    url);
            waitFor(workerLog, "Successfully registered with master", 60);
            return c;
        } catch (Exception | Error e) {
            c.close();
            throw e;
        }
    }

    /** The Worker's process: the executors it launches are its child processes. */
    ProcessHandle worker() {
        return processes.get(1).toHandle();
    }

    String masterUrl() {
        return masterUrl;
    }

    Path sparkHome() {
        return home;
    }

    private void launch(Path log, String mainClass, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-opens") || a.startsWith("-XX:+IgnoreUnrecognized")) {
                cmd.add(a);
            }
        }
        cmd.add("-Dlog4j2.configurationFile=" + home.resolve("log4j2-daemons.properties"));
        cmd.add("-cp");
        cmd.add(home.resolve("jars") + "/*");
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.put("SPARK_HOME", home.toString());
        env.put("SPARK_SCALA_VERSION", "2.12");
        env.put("SPARK_LOCAL_IP", "127.0.0.1");
        env.put("SPARK_NO_DAEMONIZE", "1");
        processes.add(pb.start());
    }

    /** Links every jar of this JVM's test classpath into {@code jars}; class directories become jars. */
    static void linkClasspath(Path jars) throws IOException {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        int n = 0;
        for (String entry : cp.split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry);
            if (Files.isDirectory(p)) {
                packDirectory(
                        p,
                        jars.resolve("dir" + n++ + "-"
                                + p.getParent().getParent().getFileName() + "-" + p.getFileName() + ".jar"));
            } else if (entry.endsWith(".jar") && Files.exists(p)) {
                Path link = jars.resolve(p.getFileName());
                if (!Files.exists(link)) {
                    Files.createSymbolicLink(link, p.toAbsolutePath());
                }
            }
        }
    }

    private static void packDirectory(Path dir, Path jar) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                out.putNextEntry(new java.util.jar.JarEntry(
                        dir.relativize(f).toString().replace(java.io.File.separatorChar, '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static void waitFor(Path log, String text, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log) && Files.readString(log).contains(text)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("no '" + text + "' in " + log + " after " + seconds + " s:\n"
                + (Files.exists(log) ? Files.readString(log) : "(no log)"));
    }

    @Override
    public void close() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process p = processes.get(i);
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            try {
                if (!p.waitFor(15, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
        processes.clear();
    }
}
