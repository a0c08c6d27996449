package io.cubed.jobs.bench;

import io.cubed.error.InvalidArgumentException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Dask peer of {@code cubed bench --peer dask}: runs each workload in Dask (Debian's {@code python3-dask}, threads
 * scheduler) on the same input files, one new Python process per run, and measures floors that do not depend on this
 * project's code. The Python side is the resource {@code dask_workloads.py}, extracted next to the bench inputs.
 */
final class DaskPeer {
    /**
     * The interpreter: the system property {@value #PYTHON_PROPERTY}, else the environment variable {@value
     * #PYTHON_ENV}, else Debian's {@code /usr/bin/python3} (where apt installs python3-dask).
     */
    static final String PYTHON_ENV = "CUBED_BENCH_PYTHON";

    static final String PYTHON_PROPERTY = "cubed.bench.python";

    /** The figures of one Dask run: wall seconds, peak resident MB, and whether its results match ours. */
    record Run(double seconds, double maxRssMb, String check) implements java.io.Serializable {}

    /**
     * Floors measured without our code: plain reads of the stored chunk files (page cache, one reused buffer, one
     * thread) and c-blosc's decode and encode of the same frames on one thread, in MB per second.
     */
    record Floors(double readMbPerSecond, double storedMb, double decodeMbPerSecond, double encodeMbPerSecond) {
        /** Seconds that native Blosc needs on {@code threads} threads to decode {@code read} and encode {@code written}. */
        double codecSeconds(long read, long written, int threads) {
            return (read / 1e6 / decodeMbPerSecond + written / 1e6 / encodeMbPerSecond) / threads;
        }
    }

    private final String python;
    private final Path script;
    private final int threads;

    private DaskPeer(String python, Path script, int threads) {
        this.python = python;
        this.script = script;
        this.threads = threads;
    }

    /**
     * Checks that the interpreter imports dask, zarr and numcodecs, and extracts the script under {@code dir}.
     *
     * @throws InvalidArgumentException naming the packages to install when it does not
     */
    static DaskPeer start(Path dir, int threads) throws IOException {
        String python =
                System.getProperty(PYTHON_PROPERTY, System.getenv().getOrDefault(PYTHON_ENV, "/usr/bin/python3"));
        String[] probe = {python, "-c", "import dask, dask.array, zarr, numcodecs, numpy"};
        String problem;
        try {
            Output o = exec(List.of(probe), Map.of());
            problem = o.code == 0 ? null : lastLine(o.err);
        } catch (IOException e) {
            problem = e.getMessage();
        }
        if (problem != null) {
            throw new InvalidArgumentException("bench --peer dask: " + python + " cannot run Dask (" + problem
                    + "); install python3-dask and python3-zarr (apt-get install -y python3-dask python3-zarr), point "
                    + PYTHON_ENV + " at a Python that has dask, zarr 2 and numcodecs, or run without --peer");
        }
        Files.createDirectories(dir);
        Path script = dir.resolve("dask_workloads.py");
        try (InputStream in = DaskPeer.class.getResourceAsStream("dask_workloads.py")) {
            if (in == null) {
                throw new IllegalStateException("dask_workloads.py is missing from the cubed-jobs jar");
            }
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        }
        return new DaskPeer(python, script, threads);
    }

    /**
     * Runs workload {@code id} in Dask on the inputs under {@code dir}, comparing its results with ours under {@code
     * ours} (result-0.zarr, ...).
     */
    Run run(String id, Path dir, Path ours) throws IOException {
        Map<String, String> f = parse(call("--one", id, dir.toString(), ours.toString()), id);
        return new Run(number(f, "seconds"), number(f, "maxrss_mb"), f.getOrDefault("check", "not_checked"));
    }

    /** Measures the floors on the stored chunks of the inputs {@code names} under {@code dir}/inputs. */
    Floors floors(Path dir, List<String> names) throws IOException {
        List<String> args = new ArrayList<>(List.of("--floors", dir.toString()));
        args.addAll(names);
        Map<String, String> f = parse(call(args.toArray(String[]::new)), "floors");
        return new Floors(
                number(f, "read_mb_s"),
                number(f, "stored_mb"),
                number(f, "blosc_decode_mb_s"),
                number(f, "blosc_encode_mb_s"));
    }

    private String call(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(python, script.toString()));
        cmd.addAll(List.of(args));
        Output o = exec(cmd, Map.of("CUBED_BENCH_THREADS", Integer.toString(threads), "OMP_NUM_THREADS", "1"));
        if (o.code != 0) {
            throw new IllegalStateException("bench --peer dask: " + String.join(" ", cmd) + " failed with exit code "
                    + o.code + ": " + lastLine(o.err));
        }
        return o.out;
    }

    /** The {@code key=value} fields of the line of {@code out} that starts with {@code first}. */
    static Map<String, String> parse(String out, String first) {
        for (String line : out.split("\n")) {
            String[] words = line.trim().split("\\s+");
            if (words.length > 0 && words[0].equals(first)) {
                Map<String, String> fields = new HashMap<>();
                for (int i = 1; i < words.length; i++) {
                    int eq = words[i].indexOf('=');
                    if (eq > 0) {
                        fields.put(words[i].substring(0, eq), words[i].substring(eq + 1));
                    }
                }
                return fields;
            }
        }
        throw new IllegalStateException("bench --peer dask: no line '" + first + " ...' in the peer's output: " + out);
    }

    private static double number(Map<String, String> fields, String key) {
        String v = fields.get(key);
        if (v == null) {
            throw new IllegalStateException("bench --peer dask: the peer's output has no " + key + "= in " + fields);
        }
        return Double.parseDouble(v);
    }

    private record Output(int code, String out, String err) {}

    private static Output exec(List<String> cmd, Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        Path err = Files.createTempFile("cubed-peer", ".err");
        try {
            pb.redirectError(err.toFile());
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(1, TimeUnit.HOURS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not finish within an hour");
            }
            return new Output(p.exitValue(), out, Files.readString(err, StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + String.join(" ", cmd), e);
        } finally {
            try {
                Files.deleteIfExists(err);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static String lastLine(String text) {
        String t = text.strip();
        int nl = t.lastIndexOf('\n');
        return t.isEmpty() ? "no message" : t.substring(nl + 1);
    }
}
