package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The exit code, standard output and standard error of one in-process run of the {@code cubed} command line. */
record CliRun(int code, String out, String err) {
    /** Runs {@code cubed args...} in this JVM and captures what it prints. */
    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = CubedCli.run(new PrintWriter(out), new PrintWriter(err), args);
        return new CliRun(code, out.toString(), err.toString());
    }

    /** Runs {@code cubed args...} in this JVM with each of {@code store}'s options as a {@code --conf KEY=VALUE}. */
    static CliRun withStore(io.cubed.storage.StoreOptions store, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        for (java.util.Map.Entry<String, String> e : store.asMap().entrySet()) {
            all.add("--conf");
            all.add(e.getKey() + "=" + e.getValue());
        }
        return of(all.toArray(String[]::new));
    }

    /** Starts {@code cubed args...} in a child JVM on this test's classpath (512 MB heap), its output to {@code log}. */
    static Process startChild(List<String> args, Path log) throws IOException {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        assertThat(cp).contains(File.pathSeparator);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx512m");
        cmd.addAll(List.of("-cp", cp, CubedCli.class.getName()));
        cmd.addAll(args);
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }
}
