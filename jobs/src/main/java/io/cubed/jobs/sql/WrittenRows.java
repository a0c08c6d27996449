package io.cubed.jobs.sql;

import java.util.concurrent.TimeUnit;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * Counts the records Spark's tasks report written (their output metrics) while it listens, for {@code cubed sql
 * --output}'s summary. Spark delivers listener events on its own thread, after the write has returned: {@link
 * #awaitRows} waits until every job it saw start has ended.
 */
final class WrittenRows extends SparkListener {
    private long records;
    private int started;
    private int ended;

    @Override
    public synchronized void onJobStart(SparkListenerJobStart jobStart) {
        started++;
    }

    @Override
    public synchronized void onTaskEnd(SparkListenerTaskEnd taskEnd) {
        if (taskEnd.taskMetrics() != null) {
            records += taskEnd.taskMetrics().outputMetrics().recordsWritten();
        }
    }

    @Override
    public synchronized void onJobEnd(SparkListenerJobEnd jobEnd) {
        ended++;
        notifyAll();
    }

    /** The records written, once every job seen has ended (at most 10 s), or -1 when they have not. */
    synchronized long awaitRows() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try {
            while (started == 0 || ended < started) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return -1;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
        return records;
    }
}
