package io.cubed.spark;

import io.cubed.runtime.Stage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The releases of one stage's tasks, on a driver thread of their own: Spark's result handler runs in its scheduler's
 * event loop, which must not wait for storage. Releasing only frees early what the computation deletes anyway (the
 * reading operation's end removes the whole intermediate), so what has not started when the stage ends is dropped.
 */
final class ChunkReleases implements AutoCloseable {
    static final ChunkReleases NONE = new ChunkReleases(null, null);

    private final Stage stage;
    private final ExecutorService thread;

    private ChunkReleases(Stage stage, ExecutorService thread) {
        this.stage = stage;
        this.thread = thread;
    }

    static ChunkReleases of(Stage stage, boolean enabled) {
        if (!enabled) {
            return NONE;
        }
        return new ChunkReleases(stage, Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "cubed-release-" + stage.id());
            t.setDaemon(true);
            return t;
        }));
    }

    /** Releases task {@code taskIndex}, which has succeeded and will not run again. */
    void release(long taskIndex) {
        if (thread == null) {
            return;
        }
        try {
            thread.execute(() -> stage.releaseTask(taskIndex));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // The stage has ended: its inputs go with the intermediates.
        }
    }

    /** Drops the releases not started and waits for the running one. */
    @Override
    public void close() {
        if (thread == null) {
            return;
        }
        thread.shutdownNow();
        try {
            thread.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
