package io.cubed.jobs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** Runs {@code bin/cubed} (or a shell script calling it) as a separate process, as a user would, capturing its output. */
final class BinCubed {
    private BinCubed() {}

    /** The exit code and everything the process printed (standard output and error together). */
    record Result(int code, String output) {}

    /** The repository's {@code bin/cubed} (the tests run in {@code jobs/}). */
    static Path script() {
        Path p = Path.of("..", "bin", "cubed").toAbsolutePath().normalize();
        if (!Files.isExecutable(p)) {
            throw new IllegalStateException("bin/cubed not found at " + p);
        }
        return p;
    }

    /** Runs {@code bin/cubed args...} in {@code dir} with {@code env} added to this process's environment. */
    static Result run(Path dir, Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(script().toString());
        command.addAll(List.of(args));
        return exec(dir, env, Set.of(), command);
    }

    /**
     * Runs {@code bin/cubed args...} in {@code dir} with {@code env} added to this process's environment and the
     * variables {@code unset} removed from it (SPARK_HOME, say).
     */
    static Result runWithout(Path dir, Set<String> unset, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(script().toString());
        command.addAll(List.of(args));
        return exec(dir, env, unset, command);
    }

    /** Runs {@code bash -euo pipefail script} in {@code dir} with {@code env} added. */
    static Result bash(Path dir, Map<String, String> env, Path script) throws IOException, InterruptedException {
        return exec(dir, env, Set.of(), List.of("bash", "-euo", "pipefail", script.toString()));
    }

    private static Result exec(Path dir, Map<String, String> env, Set<String> unset, List<String> command)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile(dir, "bin-cubed-", ".log");
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        pb.environment().putAll(env);
        pb.environment().keySet().removeAll(unset);
        Process p = pb.start();
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + command + "\n" + Files.readString(log));
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        return new Result(p.exitValue(), out);
    }
}
