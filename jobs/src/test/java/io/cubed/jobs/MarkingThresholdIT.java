package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/cubed} starts G1 with a fixed marking threshold of 90 % of the heap instead of the adaptive one (a heap
 * fitted to the plan is mostly the tasks' live chunks, which marking cannot free), as the JVM's final flags show, and
 * the user's own {@code CUBED_JAVA_OPTS} still decide over it.
 */
class MarkingThresholdIT {
    @TempDir
    Path tmp;

    @Test
    void theJvmMarksAtAFixedNinetyPercentUnlessTheUserSaysOtherwise() throws Exception {
        BinCubed.Result defaults = flags("");
        assertThat(defaults.code()).as(defaults.output()).isZero();
        assertThat(flag(defaults.output(), "G1UseAdaptiveIHOP")).isEqualTo("false");
        assertThat(flag(defaults.output(), "InitiatingHeapOccupancyPercent")).isEqualTo("90");
        assertThat(flag(defaults.output(), "UseG1GC")).isEqualTo("true");

        BinCubed.Result own = flags("-XX:InitiatingHeapOccupancyPercent=70 -XX:+G1UseAdaptiveIHOP");
        assertThat(own.code()).as(own.output()).isZero();
        assertThat(flag(own.output(), "G1UseAdaptiveIHOP")).isEqualTo("true");
        assertThat(flag(own.output(), "InitiatingHeapOccupancyPercent")).isEqualTo("70");
    }

    private BinCubed.Result flags(String javaOpts) throws Exception {
        return BinCubed.run(
                tmp,
                Map.of("CUBED_NO_BUILD", "1", "CUBED_JAVA_OPTS", ("-Xmx256m -XX:+PrintFlagsFinal " + javaOpts).trim()),
                "--version");
    }

    /** The value of {@code name} in {@code -XX:+PrintFlagsFinal}'s table ({@code type name = value {origin}}). */
    private static String flag(String output, String name) {
        Matcher m = Pattern.compile("\\s" + Pattern.quote(name) + "\\s+:?=\\s+(\\S+)")
                .matcher(output);
        assertThat(m.find())
                .as("%s in the JVM's final flags:%n%s", name, output)
                .isTrue();
        return m.group(1);
    }
}
