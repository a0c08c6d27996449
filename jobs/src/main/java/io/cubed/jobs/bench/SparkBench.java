package io.cubed.jobs.bench;

import io.cubed.plan.Spec;
import io.cubed.spark.SparkExecutor;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark side of {@code cubed bench --executor spark}: the active session under spark-submit, or a new
 * {@code local[threads]} one; kept apart so that the in-process benchmark never loads Spark classes.
 */
final class SparkBench implements AutoCloseable {
    private final SparkSession session;
    private final boolean created;
    private final SparkExecutor executor;

    SparkBench(int threads) {
        boolean exists = SparkSession.getActiveSession().isDefined() || System.getProperty("spark.master") != null;
        SparkSession.Builder b = SparkSession.builder().appName("cubed-bench");
        if (!exists) {
            b = b.master("local[" + threads + "]");
        }
        this.created = SparkSession.getActiveSession().isEmpty();
        this.session = b.getOrCreate();
        this.executor = SparkExecutor.create(session);
    }

    Spec.Builder specBuilder() {
        return executor.specBuilder();
    }

    /**
     * The executor of the warm-up: this one, except that every stage is a Spark job, also a stage small enough for the
     * driver ({@code driverStageBytes} 0). The warm-up runs on smoke-size inputs, whose stages would otherwise all run
     * on the driver and leave Spark's task path (task and result serialization, scheduling) cold for the timed rounds.
     */
    SparkExecutor warmupExecutor() {
        return SparkExecutor.builder(session).driverStageBytes(0).build();
    }

    String name() {
        return executor.name();
    }

    SparkSession session() {
        return session;
    }

    @Override
    public void close() {
        if (created) {
            session.stop();
        }
    }
}
