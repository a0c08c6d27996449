package io.cubed.runtime;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A console progress bar per operation ({@code op-003 add (blockwise) [########      ] 40/70}), redrawn at most every
 * {@code intervalMillis}. Use {@link #forConsole()} to get one only when standard error is a terminal.
 */
public final class ProgressBar implements Callback {
    private static final int WIDTH = 30;

    private final PrintStream out;
    private final long intervalMillis;
    private final ConcurrentHashMap<String, AtomicLong> done = new ConcurrentHashMap<>();
    private final AtomicLong lastDraw = new AtomicLong();

    public ProgressBar(PrintStream out, long intervalMillis) {
        this.out = out;
        this.intervalMillis = intervalMillis;
    }

    /** A progress bar on standard error when the JVM has a console, otherwise {@code null}. */
    public static ProgressBar forConsole() {
        return System.console() == null ? null : new ProgressBar(System.err, 200);
    }

    @Override
    public void onOperationStart(OperationStart event) {
        done.put(event.stage().id(), new AtomicLong());
        draw(event.stage(), 0, true);
    }

    @Override
    public void onTaskEnd(TaskEnd event) {
        long n = done.computeIfAbsent(event.stage().id(), k -> new AtomicLong()).incrementAndGet();
        draw(event.stage(), n, false);
    }

    @Override
    public void onOperationEnd(OperationEnd event) {
        synchronized (out) {
            out.print("\r" + line(event.stage(), event.stage().numTasks())
                    + String.format(Locale.ROOT, " %.1fs%n", (event.endMillis() - event.startMillis()) / 1000.0));
            out.flush();
        }
    }

    private void draw(Stage stage, long n, boolean force) {
        long now = System.currentTimeMillis();
        long last = lastDraw.get();
        if (!force && now - last < intervalMillis) {
            return;
        }
        if (lastDraw.compareAndSet(last, now) || force) {
            synchronized (out) {
                out.print("\r" + line(stage, n));
                out.flush();
            }
        }
    }

    static String line(Stage stage, long n) {
        long total = Math.max(1, stage.numTasks());
        int filled = (int) Math.min(WIDTH, n * WIDTH / total);
        return stage.id() + " " + stage.description() + " [" + "#".repeat(filled) + " ".repeat(WIDTH - filled) + "] "
                + n + "/" + stage.numTasks();
    }
}
