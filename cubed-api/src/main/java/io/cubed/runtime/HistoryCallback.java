package io.cubed.runtime;

import io.cubed.error.CubedException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Records every task of the computations it is passed to and writes them as a history: {@code tasks.csv} (one row per
 * task), {@code operations.csv} (one row per operation) and {@code timeline.svg}, a picture of the tasks of each
 * operation over time and of each operation's memory (measured peak, or allocated bytes where not measured, against
 * the projection). Times are milliseconds since the start of the first computation recorded. Works with any executor
 * that reports task ends on the driver, the Spark executor included. Thread-safe.
 */
public final class HistoryCallback implements Callback {
    /** One finished task. */
    public record TaskEvent(
            String computeId,
            String operationId,
            String operationName,
            long taskIndex,
            int attempts,
            long startMs,
            long endMs,
            long bytesRead,
            long bytesWritten,
            long allocatedBytes,
            long peakMeasuredBytes,
            long projectedBytes) {}

    /** One operation's figures: its tasks, when it ran and its memory. */
    public record OperationSummary(
            String computeId,
            String operationId,
            String operationName,
            long numTasks,
            long tasksRecorded,
            long startMs,
            long endMs,
            long bytesRead,
            long bytesWritten,
            long maxAllocatedBytes,
            long maxPeakMeasuredBytes,
            long projectedBytes) {
        /** Milliseconds from the operation's first task start (or operation start) to its end. */
        public long durationMs() {
            return endMs - startMs;
        }

        /** Measured peak if any task was measured, otherwise the largest allocation (-1 when neither is known). */
        public long memoryBytes() {
            return maxPeakMeasuredBytes >= 0 ? maxPeakMeasuredBytes : maxAllocatedBytes;
        }
    }

    private static final class Op {
        final String computeId;
        final Stage stage;
        long startMillis = Long.MAX_VALUE;
        long endMillis = Long.MIN_VALUE;

        Op(String computeId, Stage stage) {
            this.computeId = computeId;
            this.stage = stage;
        }
    }

    private final List<TaskEvent> tasks = new ArrayList<>();
    private final Map<String, Op> ops = new LinkedHashMap<>();
    private long originMillis = -1;

    @Override
    public synchronized void onComputeStart(ComputeStart event) {
        if (originMillis < 0) {
            originMillis = System.currentTimeMillis();
        }
    }

    @Override
    public synchronized void onOperationStart(OperationStart event) {
        Op op = op(event.computeId(), event.stage());
        op.startMillis = Math.min(op.startMillis, System.currentTimeMillis());
    }

    @Override
    public synchronized void onOperationEnd(OperationEnd event) {
        Op op = op(event.computeId(), event.stage());
        op.startMillis = Math.min(op.startMillis, event.startMillis());
        op.endMillis = Math.max(op.endMillis, event.endMillis());
    }

    @Override
    public synchronized void onTaskEnd(TaskEnd event) {
        TaskResult r = event.result();
        Op op = op(event.computeId(), event.stage());
        if (originMillis < 0) {
            originMillis = r.startMillis();
        }
        op.startMillis = Math.min(op.startMillis, r.startMillis());
        op.endMillis = Math.max(op.endMillis, r.endMillis());
        tasks.add(new TaskEvent(
                event.computeId(),
                event.stage().id(),
                event.stage().description(),
                r.taskIndex(),
                r.attempts(),
                r.startMillis() - originMillis,
                r.endMillis() - originMillis,
                r.bytesRead(),
                r.bytesWritten(),
                r.allocatedBytes(),
                r.peakLiveBytes(),
                event.stage().projectedMemBytes()));
    }

    private Op op(String computeId, Stage stage) {
        return ops.computeIfAbsent(computeId + "/" + stage.id(), k -> new Op(computeId, stage));
    }

    /** The tasks recorded so far, ordered by start time (then operation and task index). */
    public synchronized List<TaskEvent> tasks() {
        List<TaskEvent> out = new ArrayList<>(tasks);
        out.sort(Comparator.comparingLong(TaskEvent::startMs)
                .thenComparing(TaskEvent::operationId)
                .thenComparingLong(TaskEvent::taskIndex));
        return out;
    }

    /** One summary per operation that started, in the order they started. */
    public synchronized List<OperationSummary> operations() {
        List<OperationSummary> out = new ArrayList<>();
        for (Op op : ops.values()) {
            long recorded = 0;
            long read = 0;
            long written = 0;
            long maxAlloc = -1;
            long maxPeak = -1;
            for (TaskEvent t : tasks) {
                if (t.computeId().equals(op.computeId) && t.operationId().equals(op.stage.id())) {
                    recorded++;
                    read += t.bytesRead();
                    written += t.bytesWritten();
                    maxAlloc = Math.max(maxAlloc, t.allocatedBytes());
                    maxPeak = Math.max(maxPeak, t.peakMeasuredBytes());
                }
            }
            long origin = originMillis < 0 ? 0 : originMillis;
            long start = op.startMillis == Long.MAX_VALUE ? 0 : op.startMillis - origin;
            long end = op.endMillis == Long.MIN_VALUE ? start : op.endMillis - origin;
            out.add(new OperationSummary(
                    op.computeId,
                    op.stage.id(),
                    op.stage.description(),
                    op.stage.numTasks(),
                    recorded,
                    start,
                    Math.max(start, end),
                    read,
                    written,
                    maxAlloc,
                    maxPeak,
                    op.stage.projectedMemBytes()));
        }
        return out;
    }

    /** The per-task CSV: a header line, then one line per task. */
    public String tasksCsv() {
        StringBuilder sb = new StringBuilder(
                "compute_id,operation_id,operation_name,task_index,attempts,start_ms,end_ms,bytes_read,bytes_written,"
                        + "allocated_bytes,peak_measured_bytes,projected_bytes\n");
        for (TaskEvent t : tasks()) {
            row(
                    sb,
                    t.computeId(),
                    t.operationId(),
                    t.operationName(),
                    t.taskIndex(),
                    t.attempts(),
                    t.startMs(),
                    t.endMs(),
                    t.bytesRead(),
                    t.bytesWritten(),
                    t.allocatedBytes(),
                    t.peakMeasuredBytes(),
                    t.projectedBytes());
        }
        return sb.toString();
    }

    /** The per-operation CSV: a header line, then one line per operation. */
    public String operationsCsv() {
        StringBuilder sb = new StringBuilder(
                "compute_id,operation_id,operation_name,num_tasks,tasks_recorded,start_ms,end_ms,duration_ms,"
                        + "bytes_read,bytes_written,max_allocated_bytes,max_peak_measured_bytes,projected_bytes\n");
        for (OperationSummary o : operations()) {
            row(
                    sb,
                    o.computeId(),
                    o.operationId(),
                    o.operationName(),
                    o.numTasks(),
                    o.tasksRecorded(),
                    o.startMs(),
                    o.endMs(),
                    o.durationMs(),
                    o.bytesRead(),
                    o.bytesWritten(),
                    o.maxAllocatedBytes(),
                    o.maxPeakMeasuredBytes(),
                    o.projectedBytes());
        }
        return sb.toString();
    }

    private static void row(StringBuilder sb, Object... values) {
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(csv(String.valueOf(values[i])));
        }
        sb.append('\n');
    }

    /** A CSV field, quoted (RFC 4180) when it holds a comma, quote or line break. */
    static String csv(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private static final int WIDTH = 960;
    private static final int LABEL = 260;
    private static final int BAND = 22;
    private static final int TOP = 40;

    /**
     * The timeline as an SVG document: a band per operation ({@code <g class="op-band">}) with a bar per task from its
     * start to its end, then a bar chart of each operation's memory ({@code <g class="mem-bar">}): the measured peak
     * of its largest task (or its largest allocation where not measured) next to the projected memory of a task.
     */
    public String timelineSvg() {
        List<OperationSummary> opsList = operations();
        List<TaskEvent> taskList = tasks();
        long endMs = 1;
        for (OperationSummary o : opsList) {
            endMs = Math.max(endMs, o.endMs());
        }
        for (TaskEvent t : taskList) {
            endMs = Math.max(endMs, t.endMs());
        }
        long maxMem = 1;
        for (OperationSummary o : opsList) {
            maxMem = Math.max(maxMem, Math.max(o.memoryBytes(), o.projectedBytes()));
        }
        int plot = WIDTH - LABEL - 20;
        int n = opsList.size();
        int timelineHeight = TOP + n * BAND + 30;
        int memTop = timelineHeight + 40;
        int memHeight = n * BAND + 30;
        int height = memTop + memHeight + 30;
        StringBuilder s = new StringBuilder();
        s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        s.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"11\">\n",
                WIDTH,
                height,
                WIDTH,
                height));
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append(text(10, 20, "Tasks per operation over time (" + taskList.size() + " tasks, " + endMs + " ms)", 13));
        for (int i = 0; i < n; i++) {
            OperationSummary o = opsList.get(i);
            int y = TOP + i * BAND;
            s.append("<g class=\"op-band\" data-op=\"")
                    .append(xml(o.operationId()))
                    .append("\">\n");
            s.append(String.format(
                    Locale.ROOT,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n",
                    LABEL,
                    y,
                    plot,
                    BAND - 2,
                    i % 2 == 0 ? "#f4f4f4" : "#eaeaea"));
            s.append(text(10, y + 14, label(o), 11));
            String colour = colour(i);
            for (TaskEvent t : taskList) {
                if (!t.computeId().equals(o.computeId()) || !t.operationId().equals(o.operationId())) {
                    continue;
                }
                double x0 = LABEL + plot * (double) Math.max(0, t.startMs()) / endMs;
                double x1 = LABEL + plot * (double) Math.max(0, t.endMs()) / endMs;
                s.append(String.format(
                        Locale.ROOT,
                        "<rect class=\"task\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                                + "fill-opacity=\"0.45\"><title>%s task %d: %d-%d ms</title></rect>\n",
                        x0,
                        y + 2,
                        Math.max(1.0, x1 - x0),
                        BAND - 6,
                        colour,
                        xml(o.operationId()),
                        t.taskIndex(),
                        t.startMs(),
                        t.endMs()));
            }
            s.append("</g>\n");
        }
        int axisY = TOP + n * BAND + 4;
        s.append(String.format(
                Locale.ROOT,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
                LABEL,
                axisY,
                LABEL + plot,
                axisY));
        for (int k = 0; k <= 4; k++) {
            int x = LABEL + plot * k / 4;
            s.append(text(x - 10, axisY + 14, (endMs * k / 4) + " ms", 10));
        }

        String memTitle = "Memory per task: measured peak (or allocated) vs projected";
        s.append(text(10, memTop - 10, memTitle, 13));
        for (int i = 0; i < n; i++) {
            OperationSummary o = opsList.get(i);
            int y = memTop + i * BAND;
            long mem = Math.max(0, o.memoryBytes());
            String kind = o.maxPeakMeasuredBytes() >= 0 ? "measured" : "allocated";
            s.append("<g class=\"mem-bar\" data-op=\"")
                    .append(xml(o.operationId()))
                    .append("\">\n");
            s.append(text(10, y + 14, label(o), 11));
            s.append(String.format(
                    Locale.ROOT,
                    "<rect class=\"projected\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"none\" "
                            + "stroke=\"#c0392b\" stroke-dasharray=\"4 2\"/>\n",
                    LABEL,
                    y + 2,
                    Math.max(1.0, plot * (double) Math.max(0, o.projectedBytes()) / maxMem),
                    BAND - 6));
            s.append(String.format(
                    Locale.ROOT,
                    "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                            + "fill-opacity=\"0.7\"><title>%s: %s %s, projected %s</title></rect>\n",
                    kind,
                    LABEL,
                    y + 5,
                    Math.max(1.0, plot * (double) mem / maxMem),
                    BAND - 12,
                    colour(i),
                    xml(o.operationId()),
                    kind,
                    bytes(mem),
                    bytes(o.projectedBytes())));
            s.append(
                    text(LABEL + 4, y + 14, kind + " " + bytes(mem) + " / projected " + bytes(o.projectedBytes()), 10));
            s.append("</g>\n");
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static String label(OperationSummary o) {
        String l = o.operationId() + " " + o.operationName();
        if (l.length() > 40) {
            l = l.substring(0, 39) + "…";
        }
        return l;
    }

    private static String text(int x, int y, String content, int size) {
        return String.format(
                Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"%d\">%s</text>\n", x, y, size, xml(content));
    }

    private static String colour(int i) {
        String[] palette = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"};
        return palette[i % palette.length];
    }

    static String bytes(long b) {
        if (b < 0) {
            return "n/a";
        }
        if (b < 1000) {
            return b + " B";
        }
        String[] units = {"kB", "MB", "GB", "TB"};
        double v = b;
        int u = -1;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /**
     * Writes {@code tasks.csv}, {@code operations.csv} and {@code timeline.svg} into {@code dir} (created if needed);
     * returns the three paths in that order.
     */
    public List<Path> write(Path dir) {
        try {
            Files.createDirectories(dir);
            Path tasksFile = dir.resolve("tasks.csv");
            Path opsFile = dir.resolve("operations.csv");
            Path svgFile = dir.resolve("timeline.svg");
            Files.writeString(tasksFile, tasksCsv(), StandardCharsets.UTF_8);
            Files.writeString(opsFile, operationsCsv(), StandardCharsets.UTF_8);
            Files.writeString(svgFile, timelineSvg(), StandardCharsets.UTF_8);
            return List.of(tasksFile, opsFile, svgFile);
        } catch (IOException e) {
            throw new CubedException("cannot write the computation history to " + dir + ": " + e.getMessage(), e);
        }
    }
}
