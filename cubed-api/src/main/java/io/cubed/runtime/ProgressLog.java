package io.cubed.runtime;

import io.cubed.memory.MemorySize;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Progress as log lines, for runs without a terminal (spark-submit on a cluster, EMR steps, Databricks jobs), on the
 * logger {@code io.cubed.progress} at INFO: one line when an operation starts (tasks, projected memory per task), one
 * each time another tenth of its tasks has finished (at most every {@code intervalMillis}), and one when it ends
 * (time, bytes read and written). {@code conf/log4j2.properties} keeps it visible while Spark is quiet.
 */
public final class ProgressLog implements Callback {
    private static final Logger LOG = LoggerFactory.getLogger("io.cubed.progress");

    private final Consumer<String> log;
    private final long intervalMillis;
    private final ConcurrentHashMap<String, Counts> counts = new ConcurrentHashMap<>();

    private static final class Counts {
        final AtomicLong tasks = new AtomicLong();
        final AtomicLong read = new AtomicLong();
        final AtomicLong written = new AtomicLong();
        final AtomicLong lastTenth = new AtomicLong();
        final AtomicLong lastLogMillis = new AtomicLong(System.currentTimeMillis());
    }

    /** Progress on {@code io.cubed.progress}, at most one intermediate line per operation every 10 s. */
    public ProgressLog() {
        this(LOG::info, 10_000);
    }

    /** Progress lines to {@code log}, at most one intermediate line per operation every {@code intervalMillis}. */
    public ProgressLog(Consumer<String> log, long intervalMillis) {
        this.log = log;
        this.intervalMillis = intervalMillis;
    }

    /** A progress log when INFO is enabled on {@code io.cubed.progress}, otherwise {@code null}. */
    public static ProgressLog ifEnabled() {
        return LOG.isInfoEnabled() ? new ProgressLog() : null;
    }

    @Override
    public void onOperationStart(OperationStart event) {
        Stage s = event.stage();
        counts.put(s.id(), new Counts());
        log.accept(s.id() + " " + s.description() + ": " + tasks(s.numTasks()) + ", "
                + MemorySize.ofBytes(s.projectedMemBytes()) + " per task");
    }

    @Override
    public void onTaskEnd(TaskEnd event) {
        Stage s = event.stage();
        Counts c = counts.computeIfAbsent(s.id(), k -> new Counts());
        c.read.addAndGet(Math.max(0, event.result().bytesRead()));
        c.written.addAndGet(Math.max(0, event.result().bytesWritten()));
        long n = c.tasks.incrementAndGet();
        long total = Math.max(1, s.numTasks());
        long tenth = n * 10 / total;
        long now = System.currentTimeMillis();
        long last = c.lastLogMillis.get();
        if (n < total
                && tenth > c.lastTenth.get()
                && now - last >= intervalMillis
                && c.lastLogMillis.compareAndSet(last, now)) {
            c.lastTenth.set(tenth);
            log.accept(s.id() + " " + s.description() + ": " + n + "/" + s.numTasks() + " tasks (" + n * 100 / total
                    + "%)");
        }
    }

    @Override
    public void onOperationEnd(OperationEnd event) {
        Stage s = event.stage();
        Counts c = counts.remove(s.id());
        long read = c == null ? 0 : c.read.get();
        long written = c == null ? 0 : c.written.get();
        log.accept(s.id() + " " + s.description() + ": done, " + tasks(s.numTasks()) + " in "
                + String.format(Locale.ROOT, "%.1f", (event.endMillis() - event.startMillis()) / 1000.0) + " s, read "
                + MemorySize.ofBytes(read) + ", wrote " + MemorySize.ofBytes(written));
    }

    private static String tasks(long n) {
        return n + (n == 1 ? " task" : " tasks");
    }
}
