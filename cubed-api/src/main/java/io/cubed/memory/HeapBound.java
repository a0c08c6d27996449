package io.cubed.memory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The memory, in bytes, that an in-process computation is expected to stay within: a baseline (what the JVM holds
 * without any task) plus, for each of {@code threads} task slots, the plan's largest projected task (its projected
 * memory, {@code reservedMem} included, as {@code compute()} checks it against {@code allowedMem}) with 20 % headroom
 * for the collector: {@code baseline + threads × largestTask × 1.2}.
 *
 * <p>The same arithmetic serves two baselines: the live heap at rest for the heap a computation needs ({@link
 * io.cubed.runtime.LocalExecutor} returns a larger heap before it starts), and the JVM's resident set at rest ({@link
 * #residentBytes()} after a full collection) for the process's resident memory ({@code cubed bench}).
 */
public final class HeapBound {
    /** The collector's headroom over the tasks' projected memory: 1.2, 20 % more. */
    public static final double HEADROOM = 1.2;

    private static final Path STATUS = Path.of("/proc/self/status");

    private final long baselineBytes;
    private final int threads;
    private final long largestTaskBytes;

    private HeapBound(long baselineBytes, int threads, long largestTaskBytes) {
        if (baselineBytes < 0 || threads < 1 || largestTaskBytes < 0) {
            throw new IllegalArgumentException("a heap bound needs a baseline and a largest task of 0 bytes or more"
                    + " and 1 thread or more, got " + baselineBytes + ", " + largestTaskBytes + " and " + threads);
        }
        this.baselineBytes = baselineBytes;
        this.threads = threads;
        this.largestTaskBytes = largestTaskBytes;
    }

    /** The bound over {@code baselineBytes} for {@code threads} slots each running tasks of {@code largestTaskBytes}. */
    public static HeapBound of(long baselineBytes, int threads, long largestTaskBytes) {
        return new HeapBound(baselineBytes, threads, largestTaskBytes);
    }

    /** {@code baseline + threads × largestTask × 1.2}, in bytes. */
    public long bytes() {
        return baselineBytes + tasksBytes();
    }

    /** {@code threads × largestTask × 1.2}, in bytes: what the tasks may add to the baseline. */
    public long tasksBytes() {
        return Math.round(threads * (double) largestTaskBytes * HEADROOM);
    }

    public long baselineBytes() {
        return baselineBytes;
    }

    public int threads() {
        return threads;
    }

    public long largestTaskBytes() {
        return largestTaskBytes;
    }

    /** E.g. {@code 874.4 MB = 191.6 MB + 2 × 284.5 MB × 1.2}. */
    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "%s = %s + %d × %s × %.1f",
                MemorySize.format(bytes()),
                MemorySize.format(baselineBytes),
                threads,
                MemorySize.format(largestTaskBytes),
                HEADROOM);
    }

    /**
     * This process's resident set now ({@code VmRSS} of {@code /proc/self/status}), in bytes; -1 where it is unknown
     * (not Linux).
     */
    public static long residentBytes() {
        return status("VmRSS:");
    }

    /**
     * This process's peak resident set ({@code VmHWM} of {@code /proc/self/status}), in bytes, since it started or
     * since its high-water mark was last reset; -1 where it is unknown.
     */
    public static long peakResidentBytes() {
        return status("VmHWM:");
    }

    private static long status(String key) {
        try {
            for (String line : Files.readAllLines(STATUS, StandardCharsets.UTF_8)) {
                if (line.startsWith(key)) {
                    String[] f = line.substring(key.length()).trim().split("\\s+");
                    return Long.parseLong(f[0]) * 1024;
                }
            }
            return -1;
        } catch (IOException | NumberFormatException | SecurityException e) {
            return -1;
        }
    }
}
