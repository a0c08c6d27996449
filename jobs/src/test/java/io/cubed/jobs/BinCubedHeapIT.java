package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heap {@code bin/cubed} starts the JVM with, worked out in bash (no program started for it): threads ×
 * allowedMem + 256 MB, from {@code --threads}/{@code --allowed-mem} (or their {@code =} forms, or {@code
 * CUBED_THREADS}/{@code CUBED_ALLOWED_MEM}; by default the processors the process may run on and 2 GB), at most 90 % of
 * the machine's memory, 2 GB when the allowed memory is no size. Read back from the JVM itself ({@code MaxHeapSize} of
 * {@code -XX:+PrintFlagsFinal}, which G1 rounds up to its 32 MB regions), against the formula worked out here.
 */
class BinCubedHeapIT {
    private static final long MB = 1L << 20;
    private static final long REGION = 32 * MB;
    private static final Pattern MAX_HEAP = Pattern.compile("size_t MaxHeapSize\\s+=\\s+(\\d+)");

    @TempDir
    Path tmp;

    @Test
    void theHeapIsThreadsTimesAllowedMemoryAndAQuarterGigabyteWithinNinetyPercentOfTheMemory() throws Exception {
        int processors = Runtime.getRuntime().availableProcessors();
        long capMb = memTotalKb() * 9 / 10 / 1024;
        assertThat(maxHeap(Map.of(), "--threads", "3", "--allowed-mem", "100MB"))
                .isEqualTo(aligned(3 * 100e6, capMb));
        assertThat(maxHeap(Map.of(), "--threads=2", "--allowed-mem=1.5GiB"))
                .isEqualTo(aligned(2 * 1.5 * (1L << 30), capMb));
        assertThat(maxHeap(Map.of(), "--allowed-mem", "0.25g")).isEqualTo(aligned(processors * 0.25e9, capMb));
        assertThat(maxHeap(Map.of("CUBED_THREADS", "5", "CUBED_ALLOWED_MEM", "64 MiB")))
                .isEqualTo(aligned(5 * 64.0 * MB, capMb));
        assertThat(maxHeap(Map.of(), "--threads", "2", "--allowed-mem", "99999999999999999999GB"))
                .as("capped at 90 % of the memory")
                .isEqualTo(alignUp(capMb * MB));
        assertThat(maxHeap(Map.of(), "--threads", "2", "--allowed-mem", "lots")).isEqualTo(alignUp(2048 * MB));
    }

    /** The heap for {@code bytes} of tasks in all: their megabytes (rounded) and 256, within the cap, in regions. */
    private static long aligned(double bytes, long capMb) {
        long mb = Math.round(bytes / MB) + 256;
        return alignUp(Math.min(mb, capMb) * MB);
    }

    private static long alignUp(long bytes) {
        return (bytes + REGION - 1) / REGION * REGION;
    }

    private static long memTotalKb() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
            if (line.startsWith("MemTotal:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no MemTotal in /proc/meminfo");
    }

    private long maxHeap(Map<String, String> env, String... options) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("CUBED_NO_BUILD", "1");
        all.put("JAVA_TOOL_OPTIONS", "-XX:+PrintFlagsFinal");
        List<String> args = new java.util.ArrayList<>(List.of("copy", "--help"));
        args.addAll(List.of(options));
        BinCubed.Result r =
                BinCubed.runWithout(tmp, java.util.Set.of("CUBED_JAVA_OPTS"), all, args.toArray(String[]::new));
        Matcher m = MAX_HEAP.matcher(r.output());
        assertThat(m.find()).as(r.output()).isTrue();
        return Long.parseLong(m.group(1));
    }
}
