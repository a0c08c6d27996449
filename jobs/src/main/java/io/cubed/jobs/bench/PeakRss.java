package io.cubed.jobs.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The peak resident set of this JVM over an interval, from Linux's {@code /proc/self}: {@link #reset()} clears the
 * high-water mark (writing 5 to {@code clear_refs}, Linux 4.0 and later) and {@link #peakBytes()} reads {@code VmHWM}.
 * Elsewhere, or where {@code clear_refs} is not writable, both say so by returning false and -1.
 */
final class PeakRss {
    private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");

    private PeakRss() {}

    /** Starts a new interval; false when the high-water mark cannot be reset here. */
    static boolean reset() {
        try {
            Files.writeString(CLEAR_REFS, "5");
            return true;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    /** The peak resident set, in bytes, since the last {@link #reset()} (or since the start); -1 when unknown. */
    static long peakBytes() {
        return io.cubed.memory.HeapBound.peakResidentBytes();
    }
}
