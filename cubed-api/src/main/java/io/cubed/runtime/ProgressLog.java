package io.cubed.runtime;

import io.cubed.memory.MemorySize;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Progress as log lines, for runs without a terminal (spark-submit, EMR step logs, Databricks jobs, output redirected
 * to a file), on the logger {@code io.cubed.progress} at INFO: one line when an operation starts (tasks, projected
 * memory per task), then periodic lines while it runs, whether or not tasks finish in between (tasks done of all,
 * percent, tasks per second, bytes read and written with their rate, and the time left at the rate so far), and one
 * line when it ends (time, rate, bytes). Lines come every {@code intervalMillis} at first and further apart as an
 * operation goes on (a sixth of its elapsed time, at most a minute apart), so a long job's log stays readable.
 * {@code conf/log4j2.properties} keeps the logger visible while Spark is quiet.
 */
public final class ProgressLog implements Callback {
    private static final Logger LOG = LoggerFactory.getLogger("io.cubed.progress");
    private static final long MAX_INTERVAL_MILLIS = 60_000;

    private final Consumer<String> log;
    private final long intervalMillis;
    private final LongSupplier clock;
    private final boolean timer;
    private final Map<String, Progress> running = new ConcurrentHashMap<>();
    private ScheduledExecutorService ticker;

    /** What one running operation has done so far. */
    private static final class Progress {
        final Stage stage;
        final long startMillis;
        final AtomicLong tasks = new AtomicLong();
        final AtomicLong read = new AtomicLong();
        final AtomicLong written = new AtomicLong();
        final AtomicLong nextLineMillis;

        Progress(Stage stage, long startMillis, long firstLineMillis) {
            this.stage = stage;
            this.startMillis = startMillis;
            this.nextLineMillis = new AtomicLong(firstLineMillis);
        }
    }

    /** Progress on {@code io.cubed.progress}, the first periodic line 10 s into an operation. */
    public ProgressLog() {
        this(LOG::info, 10_000);
    }

    /**
     * Progress lines to {@code log}, the first periodic line {@code intervalMillis} into an operation, written by a
     * daemon timer while operations run.
     */
    public ProgressLog(Consumer<String> log, long intervalMillis) {
        this(log, intervalMillis, System::currentTimeMillis, true);
    }

    /**
     * Progress lines to {@code log} on the clock {@code clockMillis}; without {@code timer}, periodic lines are written
     * only as tasks end or when {@link #tick} is called (tests).
     */
    ProgressLog(Consumer<String> log, long intervalMillis, LongSupplier clockMillis, boolean timer) {
        if (intervalMillis < 0) {
            throw new IllegalArgumentException("intervalMillis must not be negative: " + intervalMillis);
        }
        this.log = log;
        this.intervalMillis = intervalMillis;
        this.clock = clockMillis;
        this.timer = timer;
    }

    /**
     * A progress log when INFO is enabled on {@code io.cubed.progress}, otherwise {@code null}; without any SLF4J
     * provider (a jar run with {@code java -jar} outside Spark), the lines go to standard error.
     */
    public static ProgressLog ifEnabled() {
        if (org.slf4j.LoggerFactory.getILoggerFactory() instanceof org.slf4j.helpers.NOPLoggerFactory) {
            return new ProgressLog(line -> System.err.println("progress: " + line), 10_000);
        }
        return LOG.isInfoEnabled() ? new ProgressLog() : null;
    }

    @Override
    public void onOperationStart(OperationStart event) {
        Stage s = event.stage();
        long now = clock.getAsLong();
        running.put(s.id(), new Progress(s, now, now + intervalMillis));
        log.accept(s.id() + " " + s.description() + ": " + tasks(s.numTasks()) + ", "
                + MemorySize.ofBytes(s.projectedMemBytes()) + " per task");
        startTicker();
    }

    @Override
    public void onTaskEnd(TaskEnd event) {
        Progress p = running.get(event.stage().id());
        if (p == null) {
            return;
        }
        p.read.addAndGet(Math.max(0, event.result().bytesRead()));
        p.written.addAndGet(Math.max(0, event.result().bytesWritten()));
        long n = p.tasks.incrementAndGet();
        if (n < p.stage.numTasks()) {
            maybeReport(p, clock.getAsLong());
        }
    }

    @Override
    public void onOperationEnd(OperationEnd event) {
        Stage s = event.stage();
        Progress p = running.remove(s.id());
        long read = p == null ? 0 : p.read.get();
        long written = p == null ? 0 : p.written.get();
        long millis = Math.max(0, event.endMillis() - event.startMillis());
        log.accept(s.id() + " " + s.description() + ": done, " + tasks(s.numTasks()) + " in " + duration(millis)
                + " (" + rate(s.numTasks(), millis) + " tasks/s), read " + MemorySize.ofBytes(read) + ", wrote "
                + MemorySize.ofBytes(written));
        stopTickerIfIdle();
    }

    @Override
    public void onComputeEnd(ComputeEnd event) {
        // A failed computation ends operations without their end events.
        running.clear();
        stopTickerIfIdle();
    }

    /** Writes the periodic line of every running operation whose next line is due at {@code nowMillis}. */
    void tick(long nowMillis) {
        for (Progress p : running.values()) {
            maybeReport(p, nowMillis);
        }
    }

    private void maybeReport(Progress p, long now) {
        long due = p.nextLineMillis.get();
        if (now < due) {
            return;
        }
        long elapsed = now - p.startMillis;
        long next = now + Math.max(intervalMillis, Math.min(MAX_INTERVAL_MILLIS, elapsed / 6));
        if (p.nextLineMillis.compareAndSet(due, next)) {
            log.accept(line(p, now));
        }
    }

    /**
     * For example {@code op-003 add (blockwise): 45/120 tasks (37%), 3.2 tasks/s, read 1.2 GB (41 MB/s), wrote 800 MB
     * (27 MB/s), about 23 s left}.
     */
    private static String line(Progress p, long now) {
        long n = p.tasks.get();
        long total = p.stage.numTasks();
        long elapsed = Math.max(1, now - p.startMillis);
        long read = p.read.get();
        long written = p.written.get();
        String left = n == 0
                ? "time left unknown (no task finished yet)"
                : "about " + duration((long) ((double) (total - n) * elapsed / n)) + " left";
        return p.stage.id() + " " + p.stage.description() + ": " + n + "/" + total + " tasks ("
                + (total == 0 ? 100 : n * 100 / total) + "%), " + rate(n, elapsed) + " tasks/s, read "
                + MemorySize.ofBytes(read) + " (" + MemorySize.ofBytes((long) (read * 1000.0 / elapsed)) + "/s), wrote "
                + MemorySize.ofBytes(written) + " (" + MemorySize.ofBytes((long) (written * 1000.0 / elapsed))
                + "/s), " + left;
    }

    private synchronized void startTicker() {
        if (timer && ticker == null) {
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "cubed-progress");
                t.setDaemon(true);
                return t;
            });
            long period = Math.max(100, Math.min(1000, intervalMillis));
            ticker.scheduleAtFixedRate(() -> tick(clock.getAsLong()), period, period, TimeUnit.MILLISECONDS);
        }
    }

    private synchronized void stopTickerIfIdle() {
        if (ticker != null && running.isEmpty()) {
            ticker.shutdownNow();
            ticker = null;
        }
    }

    /** True while the timer that writes periodic lines runs (tests). */
    synchronized boolean tickerRunning() {
        return ticker != null;
    }

    private static String tasks(long n) {
        return n + (n == 1 ? " task" : " tasks");
    }

    /** Tasks per second with two significant digits, e.g. {@code 0.50}, {@code 3.2}, {@code 140}. */
    static String rate(long tasks, long millis) {
        double perSecond = tasks * 1000.0 / Math.max(1, millis);
        if (perSecond >= 100) {
            return String.format(Locale.ROOT, "%.0f", perSecond);
        }
        return perSecond >= 10
                ? String.format(Locale.ROOT, "%.1f", perSecond)
                : String.format(Locale.ROOT, "%.2f", perSecond);
    }

    /** A duration for people: {@code 0.4 s}, {@code 42 s}, {@code 3 min 05 s}, {@code 2 h 07 min}. */
    static String duration(long millis) {
        if (millis < 10_000) {
            return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
        }
        long s = Math.round(millis / 1000.0);
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%d h %02d min", s / 3600, (s % 3600) / 60);
    }
}
