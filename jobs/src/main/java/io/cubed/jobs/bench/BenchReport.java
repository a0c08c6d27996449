package io.cubed.jobs.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The report of a bench run: a Markdown table, CSV files and an SVG plot. */
final class BenchReport {
    private BenchReport() {}

    /** {@code xs} with two decimals each, separated by commas: a list of seconds in a log line or a table cell. */
    static String list(List<Double> xs) {
        List<String> s = new ArrayList<>();
        for (double x : xs) {
            s.add(String.format(Locale.ROOT, "%.2f", x));
        }
        return String.join(", ", s);
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f", bytes / 1e6);
    }

    /**
     * "yes" when the largest measured peak live heap of a stage's tasks stays within its projection minus the reserve,
     * "NO" when it exceeds it (a flagged operation), "n/a" when no task of the stage was measured.
     */
    static String within(StageRecorder.StageFigures s, long reserved) {
        if (s.maxMeasuredBytes < 0) {
            return "n/a";
        }
        return s.maxMeasuredBytes <= s.projectedMemBytes - reserved ? "yes" : "NO";
    }

    /** The operations whose measured memory exceeds their projection. */
    static List<String> flagged(List<BenchSuite.Result> results, long reserved) {
        List<String> out = new java.util.ArrayList<>();
        for (BenchSuite.Result r : results) {
            for (StageRecorder.StageFigures s : r.stages()) {
                if (within(s, reserved).equals("NO")) {
                    out.add(r.id() + " " + s.id + " " + s.name);
                }
            }
        }
        return out;
    }

    static String markdown(List<BenchSuite.Result> results, String header, long reserved, long baselineHeap) {
        return markdown(results, header, reserved, baselineHeap, null, 1, -1);
    }

    /**
     * The report; with a peer, each workload's row gains the peer's time, ours / peer (best against best, and in the
     * round where ours came closest to or furthest past the peer's run right after it), both peak resident sets, and a
     * floor from {@code floors} (native Blosc decode and encode of the bytes the workload moved, on {@code threads}).
     */
    static String markdown(
            List<BenchSuite.Result> results,
            String header,
            long reserved,
            long baselineHeap,
            DaskPeer.Floors floors,
            int threads,
            long residentBaseline) {
        StringBuilder sb = new StringBuilder(header).append("\n\n");
        boolean peer = results.stream().anyMatch(r -> r.peer() != null);
        sb.append("| workload | what | wall s | input MB | MB/s of input | read MB | written MB | intermediate MB"
                + " | tasks | raw limit s | limit / wall |");
        sb.append(
                peer
                        ? " Dask s | ours / Dask | ours / Dask, worst round | our RSS MB | Dask RSS MB | Blosc floor s |\n"
                        : "\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|---|").append(peer ? "---|---|---|---|---|---|\n" : "\n");
        for (BenchSuite.Result r : results) {
            sb.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %.2f | %s | %.0f | %s | %s | %s | %d | %.2f | %.2f |",
                    r.id(),
                    r.description(),
                    r.seconds(),
                    mb(r.inputBytes()),
                    r.inputBytes() / 1e6 / r.seconds(),
                    mb(r.bytesRead()),
                    mb(r.bytesWritten()),
                    mb(r.intermediateBytes()),
                    r.tasks(),
                    r.limitSeconds(),
                    r.efficiency()));
            if (peer) {
                sb.append(
                        r.peer() == null
                                ? " n/a | n/a | n/a |"
                                : String.format(
                                        Locale.ROOT,
                                        " %.2f | %.2f | %.2f |",
                                        r.peer().seconds(),
                                        r.peerRatio(),
                                        r.worstRoundRatio()));
                sb.append(Double.isNaN(r.rssMb()) ? " n/a |" : String.format(Locale.ROOT, " %.0f |", r.rssMb()));
                sb.append(
                        r.peer() == null
                                ? " n/a |"
                                : String.format(Locale.ROOT, " %.0f |", r.peer().maxRssMb()));
                sb.append(
                        floors == null
                                ? " n/a |"
                                : String.format(
                                        Locale.ROOT,
                                        " %.2f |",
                                        floors.codecSeconds(r.inputBytes(), r.outputBytes(), threads)));
            }
            sb.append('\n');
        }
        if (peer) {
            sb.append("\nDask: Debian's python3-dask, threads scheduler with ")
                    .append(threads)
                    .append(" workers, the same input files, outputs written with the same compressor (Blosc-LZ4, byte"
                            + " shuffle, level 5); its results were checked against ours (numpy.allclose). Each Dask run"
                            + " is a new Python process right after ours (ours / Dask below 1: we are faster); before each"
                            + " timed run, ours and Dask's, the previous output is deleted and dirty pages are flushed"
                            + " (sync), neither of them timed. RSS:"
                            + " the peak resident set of our JVM during the timed run (from its first computation's"
                            + " start, after the executor has fitted the heap to that plan: Resident memory below) and of"
                            + " Dask's process.");
            if (floors != null) {
                sb.append(String.format(
                        Locale.ROOT,
                        " Floors without our code: the stored bytes (%.1f MB) read from the page cache at %.0f MB/s"
                                + " into one reused buffer; c-blosc (numcodecs) decodes their frames at %.0f MB/s and"
                                + " encodes at %.0f MB/s on one thread. Blosc floor s: decoding the inputs once and"
                                + " encoding the output at those rates on %d threads.",
                        floors.storedMb(),
                        floors.readMbPerSecond(),
                        floors.decodeMbPerSecond(),
                        floors.encodeMbPerSecond(),
                        threads));
            }
            sb.append('\n');
        }
        resident(sb, results, threads, residentBaseline, peer);
        sb.append("\nMemory per task: the projection (with and without reservedMem ")
                .append(mb(reserved))
                .append(" MB) against the measured peak live heap of a task (the first tasks of each operation, run"
                        + " alone, with a full garbage collection at every chunk read and write: HeapProbe) and the"
                        + " most heap one task allocated (ThreadMXBean; an upper bound that also counts garbage)."
                        + " \"NO\" flags an operation whose measured peak exceeds its projection minus the reserve."
                        + " Baseline heap of this JVM at rest: ")
                .append(mb(baselineHeap))
                .append(" MB.\n\n");
        sb.append("| workload | operation | tasks | projected MB | projected − reserved MB | measured peak MB"
                + " (tasks measured) | max allocated MB | within |\n");
        sb.append("|---|---|---|---|---|---|---|---|\n");
        for (BenchSuite.Result r : results) {
            for (StageRecorder.StageFigures s : r.stages()) {
                sb.append(String.format(
                        Locale.ROOT,
                        "| %s | %s %s | %d | %s | %s | %s | %s | %s |%n",
                        r.id(),
                        s.id,
                        s.name.replace("|", "/"),
                        s.tasks,
                        mb(s.projectedMemBytes),
                        mb(s.projectedMemBytes - reserved),
                        s.maxMeasuredBytes < 0 ? "n/a" : mb(s.maxMeasuredBytes) + " (" + s.measuredTasks + ")",
                        s.maxAllocatedBytes < 0 ? "n/a" : mb(s.maxAllocatedBytes),
                        within(s, reserved)));
            }
        }
        List<String> flagged = flagged(results, reserved);
        long measuredOps = results.stream()
                .flatMap(r -> r.stages().stream())
                .filter(s -> s.maxMeasuredBytes >= 0)
                .count();
        if (!flagged.isEmpty()) {
            sb.append("\n**Over the projection:** ")
                    .append(String.join("; ", flagged))
                    .append('\n');
        } else if (measuredOps == 0) {
            sb.append("\nPeak memory was not measured in this run (--measure-memory 0, or an executor that cannot run"
                    + " a task alone in its JVM): only allocation is reported.\n");
        } else {
            sb.append("\nNo measured operation exceeded its projection.\n");
        }
        return sb.toString();
    }

    /**
     * The table of resident memory: each workload's peak resident set against the bound its plan sets, the resident set
     * at rest of the JVM it ran in ({@link BenchSuite.Result#jvm}, else {@code residentBaseline}, in bytes; -1: unknown)
     * + threads × the largest projected task × 1.2, and, with a peer, against the peer's. Workloads run in JVMs of
     * their own also show the heap each JVM was given.
     */
    private static void resident(
            StringBuilder sb, List<BenchSuite.Result> results, int threads, long residentBaseline, boolean peer) {
        boolean own = results.stream().anyMatch(r -> r.jvm() != null && r.jvm().own());
        sb.append("\nResident memory: the peak resident set of our JVM during the timed runs (VmHWM, reset as each"
                + " run's first computation starts, once the executor has returned the heap an earlier workload grew)"
                + " against the bound of the workload's plan: the JVM's resident set at rest after the warm-up and a"
                + " full collection (");
        if (own) {
            sb.append("its own JVM's, below");
        } else {
            long base = baseline(results.isEmpty() ? null : results.get(0), residentBaseline);
            sb.append(base < 0 ? "unknown here" : mb(base) + " MB");
        }
        sb.append(") + ")
                .append(threads)
                .append(" threads × the largest projected task × ")
                .append(io.cubed.memory.HeapBound.HEADROOM)
                .append(".");
        if (own) {
            sb.append(" Each workload ran in a JVM of its own whose maximum heap (heap MB) its plan set: the live heap"
                            + " at rest + threads × (the largest projected task − reservedMem) × ")
                    .append(io.cubed.memory.HeapBound.HEADROOM)
                    .append(" + threads × " + WorkloadJvm.SPARE_CHUNKS
                            + " × the plan's largest chunk, each counted as G1 holds the plan's chunks, in whole"
                            + " regions (--same-jvm: all in one).");
        }
        sb.append("\n\n");
        sb.append(
                own
                        ? "| workload | largest projected task MB | heap MB | resident at rest MB | bound MB | our RSS MB"
                                + " | RSS / bound |"
                        : "| workload | largest projected task MB | bound MB | our RSS MB | RSS / bound |");
        sb.append(peer ? " Dask RSS MB | our RSS / Dask's |\n" : "\n");
        sb.append(own ? "|---|---|---|---|---|---|---|" : "|---|---|---|---|---|")
                .append(peer ? "---|---|\n" : "\n");
        for (BenchSuite.Result r : results) {
            long base = baseline(r, residentBaseline);
            double bound = r.boundMb(base, threads);
            sb.append("| ")
                    .append(r.id())
                    .append(" | ")
                    .append(mb(r.largestTaskBytes()))
                    .append(" |");
            if (own) {
                sb.append(r.jvm() == null ? " n/a |" : " " + (r.jvm().maxHeapBytes() >> 20) + " |");
                sb.append(base < 0 ? " n/a |" : " " + mb(base) + " |");
            }
            sb.append(String.format(
                    Locale.ROOT,
                    " %s | %s | %s |",
                    Double.isNaN(bound) ? "n/a" : String.format(Locale.ROOT, "%.0f", bound),
                    Double.isNaN(r.rssMb()) ? "n/a" : String.format(Locale.ROOT, "%.0f", r.rssMb()),
                    Double.isNaN(bound) || Double.isNaN(r.rssMb())
                            ? "n/a"
                            : String.format(Locale.ROOT, "%.2f", r.rssMb() / bound)));
            if (peer) {
                sb.append(
                        r.peer() == null || Double.isNaN(r.rssMb())
                                ? " n/a | n/a |"
                                : String.format(
                                        Locale.ROOT,
                                        " %.0f | %.2f |",
                                        r.peer().maxRssMb(),
                                        r.rssMb() / r.peer().maxRssMb()));
            }
            sb.append('\n');
        }
    }

    /** The resident set at rest of the JVM {@code r} ran in, else {@code residentBaseline} (-1: unknown). */
    private static long baseline(BenchSuite.Result r, long residentBaseline) {
        return r != null && r.jvm() != null ? r.jvm().residentBaselineBytes() : residentBaseline;
    }

    static String csv(List<BenchSuite.Result> results) {
        return csv(results, 1, -1);
    }

    /**
     * One row per workload; {@code largest_task_mb} and {@code rss_bound_mb} (empty when the resident baseline is
     * unknown) are those of the resident-memory table, {@code heap_mb} the maximum heap of the JVM the workload ran in.
     */
    static String csv(List<BenchSuite.Result> results, int threads, long residentBaseline) {
        StringBuilder sb = new StringBuilder(
                "workload,seconds,input_bytes,bytes_read,bytes_written,intermediate_bytes,output_bytes,tasks,"
                        + "limit_seconds,efficiency,rss_mb,peer_seconds,ours_over_peer,peer_rss_mb,largest_task_mb,"
                        + "rss_bound_mb,worst_round_ours_over_peer,heap_mb\n");
        for (BenchSuite.Result r : results) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%s,%.6f,%d,%d,%d,%d,%d,%d,%.6f,%.6f,%s,%s,%s,%s,%.1f,%s,%s,%s%n",
                    r.id(),
                    r.seconds(),
                    r.inputBytes(),
                    r.bytesRead(),
                    r.bytesWritten(),
                    r.intermediateBytes(),
                    r.outputBytes(),
                    r.tasks(),
                    r.limitSeconds(),
                    r.efficiency(),
                    Double.isNaN(r.rssMb()) ? "" : String.format(Locale.ROOT, "%.1f", r.rssMb()),
                    r.peer() == null
                            ? ""
                            : String.format(Locale.ROOT, "%.6f", r.peer().seconds()),
                    r.peer() == null ? "" : String.format(Locale.ROOT, "%.4f", r.peerRatio()),
                    r.peer() == null
                            ? ""
                            : String.format(Locale.ROOT, "%.1f", r.peer().maxRssMb()),
                    r.largestTaskBytes() / 1e6,
                    baseline(r, residentBaseline) < 0
                            ? ""
                            : String.format(Locale.ROOT, "%.1f", r.boundMb(baseline(r, residentBaseline), threads)),
                    Double.isNaN(r.worstRoundRatio()) ? "" : String.format(Locale.ROOT, "%.4f", r.worstRoundRatio()),
                    r.jvm() == null ? "" : Long.toString(r.jvm().maxHeapBytes() >> 20)));
        }
        return sb.toString();
    }

    static String memoryCsv(List<BenchSuite.Result> results, long reserved) {
        StringBuilder sb =
                new StringBuilder("workload,stage,tasks,bytes_read,bytes_written,projected_bytes,reserved_bytes,"
                        + "max_measured_bytes,measured_tasks,max_allocated_bytes,within\n");
        for (BenchSuite.Result r : results) {
            for (StageRecorder.StageFigures s : r.stages()) {
                sb.append(String.format(
                        Locale.ROOT,
                        "%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%s%n",
                        r.id(),
                        s.id,
                        s.tasks,
                        s.bytesRead,
                        s.bytesWritten,
                        s.projectedMemBytes,
                        reserved,
                        s.maxMeasuredBytes,
                        s.measuredTasks,
                        s.maxAllocatedBytes,
                        within(s, reserved)));
            }
        }
        return sb.toString();
    }

    /**
     * Two bar charts: limit / wall per workload (1 = the raw limit), and per operation the largest measured peak live
     * heap (the largest allocation where nothing was measured) as a fraction of the projection minus the reserve
     * (above 1 flags the operation).
     */
    static String svg(List<BenchSuite.Result> results, long reserved) {
        int barW = 36;
        int gap = 14;
        int chartH = 200;
        List<String[]> memBars = new java.util.ArrayList<>();
        for (BenchSuite.Result r : results) {
            for (StageRecorder.StageFigures s : r.stages()) {
                double denom = Math.max(1, s.projectedMemBytes - reserved);
                long measured = s.maxMeasuredBytes >= 0 ? s.maxMeasuredBytes : Math.max(0, s.maxAllocatedBytes);
                memBars.add(new String[] {r.id() + " " + s.id, Double.toString(measured / denom)});
            }
        }
        int w1 = 60 + results.size() * (barW + gap);
        int w2 = 60 + memBars.size() * (barW + gap);
        int width = Math.max(420, Math.max(w1, w2) + 20);
        int height = 2 * (chartH + 90) + 20;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\""
                        + " font-size=\"11\">%n",
                width,
                height));
        sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        List<String[]> effBars = new java.util.ArrayList<>();
        for (BenchSuite.Result r : results) {
            effBars.add(new String[] {r.id(), Double.toString(r.efficiency())});
        }
        chart(
                sb,
                "Throughput: raw limit / wall time (1 = as fast as plain I/O and codec)",
                effBars,
                10,
                chartH,
                barW,
                gap);
        chart(
                sb,
                "Memory: measured peak (or allocation where not measured) / (projected - reserved) per operation",
                memBars,
                chartH + 110,
                chartH,
                barW,
                gap);
        return sb.append("</svg>\n").toString();
    }

    private static void chart(StringBuilder sb, String title, List<String[]> bars, int top, int h, int barW, int gap) {
        double max = 1.0;
        for (String[] b : bars) {
            max = Math.max(max, Double.parseDouble(b[1]));
        }
        int x0 = 50;
        int base = top + 30 + h;
        sb.append(String.format(
                Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"13\">%s</text>%n", 10, top + 16, escape(title)));
        sb.append(String.format(
                Locale.ROOT,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
                x0,
                base,
                x0 + bars.size() * (barW + gap) + 10,
                base));
        int oneY = base - (int) Math.round(h / max);
        sb.append(String.format(
                Locale.ROOT,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"grey\" stroke-dasharray=\"4 3\"/>%n",
                x0,
                oneY,
                x0 + bars.size() * (barW + gap) + 10,
                oneY));
        sb.append(String.format(
                Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">1.0</text>%n", x0 - 4, oneY + 4));
        for (int i = 0; i < bars.size(); i++) {
            double v = Double.parseDouble(bars.get(i)[1]);
            int bh = (int) Math.round(h * v / max);
            int x = x0 + 10 + i * (barW + gap);
            sb.append(String.format(
                    Locale.ROOT,
                    "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s: %.3f</title></rect>%n",
                    x,
                    base - bh,
                    barW,
                    bh,
                    v > 1.0 && title.startsWith("Memory") ? "#d9534f" : "#4a7fb5",
                    escape(bars.get(i)[0]),
                    v));
            sb.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%.2f</text>%n",
                    x + barW / 2,
                    base - bh - 3,
                    v));
            sb.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    x + barW / 2,
                    base + 14,
                    escape(bars.get(i)[0])));
        }
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
