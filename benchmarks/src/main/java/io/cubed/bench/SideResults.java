package io.cubed.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Figures measured once per trial rather than timed by JMH, such as compression ratios: printed to stdout and, when
 * the system property {@value #DIR_PROPERTY} names a directory, appended to {@value #RATIOS_FILE} there for the report.
 */
public final class SideResults {
    /** System property naming the directory of side results; {@code bin/bench-zarr} sets it for the forked JVMs. */
    public static final String DIR_PROPERTY = "cubed.bench.dir";
    /** File of compression ratios: one tab-separated line per trial, {@code codec raw-bytes encoded-bytes}. */
    public static final String RATIOS_FILE = "compression-ratios.tsv";

    private SideResults() {}

    /** Records that {@code codec} encoded {@code rawBytes} bytes of benchmark data into {@code encodedBytes} bytes. */
    public static synchronized void recordCompression(String codec, long rawBytes, long encodedBytes) {
        System.out.printf(
                Locale.ROOT,
                "%ncompression ratio of %s: %.3f (%d -> %d bytes)%n",
                codec,
                (double) rawBytes / encodedBytes,
                rawBytes,
                encodedBytes);
        String dir = System.getProperty(DIR_PROPERTY);
        if (dir == null || dir.isEmpty()) {
            return;
        }
        String line = codec + "\t" + rawBytes + "\t" + encodedBytes + "\n";
        try {
            Path d = Path.of(dir);
            Files.createDirectories(d);
            Files.write(
                    d.resolve(RATIOS_FILE),
                    line.getBytes(StandardCharsets.UTF_8),
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the compression ratio in " + dir, e);
        }
    }
}
