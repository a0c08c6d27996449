package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.cubed.SpecConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The {@code CUBED_*} environment variables that {@code bin/cubed}, the command line and the bench read or set are
 * either settings or variables the settings loader lets pass: a variable exported in a shell for one command (
 * {@code CUBED_BENCH_PYTHON} for {@code cubed bench --peer dask}, say) must not make every later command fail as an
 * unknown setting.
 */
class EnvironmentVariablesTest {
    private static final Pattern VARIABLE = Pattern.compile("CUBED_[A-Z][A-Z0-9_]*");

    /** Every CUBED_* name in the text of bin/cubed and of the jobs module's main sources and resources. */
    private static Set<String> variablesNamedInTheCommandLine() throws IOException {
        Path module = Path.of("").toAbsolutePath();
        Set<String> names = new TreeSet<>(namesIn(module.resolve("../bin/cubed")));
        try (Stream<Path> files = Files.walk(module.resolve("src/main"))) {
            for (Path f : files.filter(Files::isRegularFile).collect(Collectors.toList())) {
                names.addAll(namesIn(f));
            }
        }
        return names;
    }

    private static Set<String> namesIn(Path file) {
        try {
            Matcher m = VARIABLE.matcher(Files.readString(file));
            Set<String> names = new TreeSet<>();
            while (m.find()) {
                names.add(m.group());
            }
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void everyVariableTheCommandLineReadsIsASettingOrLetPass() throws IOException {
        Set<String> settings =
                SpecConfig.KEYS.stream().map(SpecConfig.Key::envName).collect(Collectors.toSet());
        Set<String> named = variablesNamedInTheCommandLine();
        // The scan finds what the docs name: bin/cubed's own variables and the bench's Python.
        assertThat(named).contains("CUBED_JAVA_OPTS", "CUBED_NO_BUILD", "CUBED_CDS", "CUBED_BENCH_PYTHON");
        Map<String, String> env = new HashMap<>();
        for (String name : named) {
            assertThat(settings.contains(name) || SpecConfig.OTHER_ENV.contains(name))
                    .as("%s is neither a setting nor a variable the settings loader lets pass", name)
                    .isTrue();
            // CUBED_CONFIG names a file, read as such (SpecConfigTest); the others are not read by the loader at all.
            if (!settings.contains(name) && !name.equals(SpecConfig.ENV_CONFIG)) {
                env.put(name, "1");
            }
        }
        assertThatCode(() -> SpecConfig.loader().environment(env).load()).doesNotThrowAnyException();
    }

    @Test
    void theBenchsPythonVariableLeftInTheShellDoesNotFailOtherCommands() {
        SpecConfig c = SpecConfig.loader()
                .environment(Map.of("CUBED_BENCH_PYTHON", "/usr/bin/python3", "CUBED_THREADS", "3"))
                .load();
        assertThat(c.threads()).isEqualTo(3);
    }
}
