package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/cubed} starts the JVM with {@code -XX:TrimNativeHeapInterval=1000} where the JDK has it (17.0.9 and
 * later), which the JVM's {@code trimnative} log confirms, and without it where the JDK's release file names an older
 * version, whose JVM would refuse the option and not start.
 */
class NativeHeapTrimIT {
    @TempDir
    Path tmp;

    @Test
    void theJvmTrimsItsNativeHeapWhereTheJdkCanAndStartsWithoutWhereItCannot() throws Exception {
        Runtime.Version running = Runtime.version();
        boolean canTrim = running.feature() > 21
                || (running.feature() == 21 && running.update() >= 1)
                || (running.feature() == 17 && running.update() >= 9);
        BinCubed.Result real = version(Map.of());
        assertThat(real.code()).as(real.output()).isZero();
        if (canTrim) {
            assertThat(real.output()).contains("Periodic native trim enabled (interval: 1000 ms)");
        } else {
            assertThat(real.output()).doesNotContain("trim enabled");
        }

        // A JDK whose release file says 17.0.8: a java that runs this one's, found first on the PATH.
        Path home = tmp.resolve("jdk-17.0.8");
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"17.0.8\"\n", StandardCharsets.UTF_8);
        Path java = home.resolve("bin").resolve("java");
        Files.writeString(
                java,
                "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java") + "' \"$@\"\n",
                StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        BinCubed.Result older = version(Map.of("PATH", home.resolve("bin") + ":" + System.getenv("PATH")));
        assertThat(older.code()).as(older.output()).isZero();
        assertThat(older.output()).contains("cubed").doesNotContain("trim enabled");
    }

    private BinCubed.Result version(Map<String, String> env) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("CUBED_NO_BUILD", "1");
        all.put("CUBED_JAVA_OPTS", "-Xmx256m -Xlog:trimnative=info");
        return BinCubed.run(tmp, all, "--version");
    }
}
