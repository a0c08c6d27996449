package io.cubed.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.storage.zarr.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Python that the interop tests against xarray run ({@code -Dcubed.test.python}, default {@code /usr/bin/python3}):
 * a test first requires the modules it needs ({@link ExternalTool}: skipped without them, failed in CI), then runs its
 * script, which prints its answers as one JSON object.
 */
public final class PythonTool {
    /** The Python executable the tests run. */
    public static final String PYTHON = System.getProperty("cubed.test.python", "/usr/bin/python3");

    private PythonTool() {}

    /**
     * Skips (or, in CI, fails) the calling test unless {@link #PYTHON} imports every one of {@code modules}, saying
     * which it could not import and how to install them.
     */
    public static void requireModules(String... modules) {
        String probe = run(List.of(PYTHON, "-c", "import " + String.join(", ", modules)));
        ExternalTool.require(
                probe == null,
                PYTHON + " cannot import " + names(modules) + " (" + probe
                        + "); install python3-xarray or set -Dcubed.test.python");
    }

    /** {@code a}, {@code a and b}, {@code a, b and c}. */
    private static String names(String... modules) {
        if (modules.length == 1) {
            return modules[0];
        }
        return String.join(", ", List.of(modules).subList(0, modules.length - 1)) + " and "
                + modules[modules.length - 1];
    }

    /**
     * Runs {@code script} with {@code args}, which must exit 0 within {@code timeoutSeconds} (else the test fails,
     * showing what it wrote to stderr), and returns the JSON object it printed on stdout.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> runForJson(Path script, long timeoutSeconds, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(PYTHON, script.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(timeoutSeconds, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isZero();
        return (Map<String, Object>) Json.parse(out.strip());
    }

    /** Runs a command; null when it exits 0 within a minute, else what it printed. */
    private static String run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "timed out";
            }
            return p.exitValue() == 0 ? null : out.strip();
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
