package io.cubed.storage;

import java.util.ArrayList;
import java.util.List;

/**
 * Byte ranges of one value joined into runs, each read with one request ({@link Store#getRangeAsync}): the inner
 * chunks of a Zarr v3 shard that a read wants, or that a task slot reads ahead for one task ({@link ChunkIo}).
 */
public final class RangeRuns {
    private RangeRuns() {}

    /** Bytes {@code [offset, offset + length)}, holding the ranges {@code first..end-1} of the list it was made of. */
    public record Run(long offset, int length, int first, int end) {}

    /**
     * {@code sorted} (by offset) joined into runs: a range joins the run before it when it starts at most {@code
     * maxGap} bytes after the run's end (0: only ranges that touch or overlap it) and the run stays within {@code cap}
     * bytes. The same ranges, gap and cap always give the same runs.
     */
    public static List<Run> of(List<Store.Range> sorted, long maxGap, long cap) {
        List<Run> runs = new ArrayList<>();
        int k = 0;
        while (k < sorted.size()) {
            int first = k;
            long start = sorted.get(k).offset();
            long end = start + sorted.get(k).length();
            k++;
            while (k < sorted.size()) {
                Store.Range q = sorted.get(k);
                long e = Math.max(end, q.offset() + q.length());
                if (q.offset() - end > maxGap || e - start > cap) {
                    break;
                }
                end = e;
                k++;
            }
            runs.add(new Run(start, Math.toIntExact(end - start), first, k));
        }
        return runs;
    }
}
