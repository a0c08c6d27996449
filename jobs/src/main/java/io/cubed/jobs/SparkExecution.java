package io.cubed.jobs;

import io.cubed.SpecConfig;
import io.cubed.plan.Spec;
import io.cubed.spark.SparkExecutor;
import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * {@code --executor spark}: the active Spark session (spark-submit), or a new {@code local[threads]} one when none is
 * configured. Kept apart so that a local run never loads Spark classes.
 */
final class SparkExecution implements Execution {
    private final SparkSession session;
    private final boolean created;
    private final SparkExecutor executor;
    private final SpecConfig config;
    private final Spec spec;

    private SparkExecution(SparkSession session, boolean created, SpecConfig config) {
        this.session = session;
        this.created = created;
        this.executor = SparkExecutor.create(session);
        this.config = config;
        this.spec = config.build(config.specBuilder(executor, executor.storeOptions()));
    }

    static SparkExecution start(String command, ExecutionOptions options, Map<String, String> storeConf, int threads) {
        // A session that is running (spark-submit's, a notebook's, Databricks') is used and left running; otherwise
        // spark-submit's spark.master applies, or Cubed starts local[threads] and stops it when done.
        SparkSession existing = live(SparkSession.getActiveSession());
        if (existing == null) {
            existing = live(SparkSession.getDefaultSession());
        }
        boolean configured = existing != null || System.getProperty("spark.master") != null;
        SparkSession.Builder b = SparkSession.builder().appName("cubed-" + command);
        if (!configured) {
            b = b.master("local[" + threads + "]");
        }
        SparkSession session = existing != null ? existing : b.getOrCreate();
        boolean created = existing == null;
        try {
            Map<String, String> conf = new HashMap<>();
            for (Tuple2<String, String> e : session.sparkContext().getConf().getAll()) {
                conf.put(e._1(), e._2());
            }
            return new SparkExecution(session, created, options.config(conf, storeConf));
        } catch (RuntimeException e) {
            if (created) {
                stop(session);
            }
            throw e;
        }
    }

    private static SparkSession live(scala.Option<SparkSession> session) {
        return session.isDefined() && !session.get().sparkContext().isStopped() ? session.get() : null;
    }

    @Override
    public Spec spec() {
        return spec;
    }

    @Override
    public SpecConfig config() {
        return config;
    }

    @Override
    public String name() {
        return executor.name();
    }

    /** The executor's check that each concurrent Spark task gets the memory a task needs. */
    io.cubed.spark.SparkMemoryCheck memoryCheck() {
        return executor.memoryCheck();
    }

    @Override
    public void close() {
        if (created) {
            stop(session);
        }
    }

    /** Stops a session this run created, and forgets it so that a later run in this JVM starts afresh. */
    private static void stop(SparkSession session) {
        session.stop();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
    }
}
