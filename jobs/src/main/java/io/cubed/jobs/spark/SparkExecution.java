package io.cubed.jobs.spark;

import io.cubed.SpecConfig;
import io.cubed.jobs.ExecutionOptions;
import io.cubed.plan.Spec;
import io.cubed.spark.SparkExecutor;
import io.cubed.spark.SparkMemoryCheck;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/**
 * The Spark side of {@code --executor spark}: kept apart so that commands on the local executor never load a Spark
 * class (the {@code bin/cubed} jar has none).
 */
public final class SparkExecution {
    private SparkExecution() {}

    /** The {@code spark.cubed.*} entries of the active session's conf; empty without an active session. */
    public static Map<String, String> activeCubedConf() {
        Map<String, String> conf = new TreeMap<>();
        if (SparkSession.getActiveSession().isDefined()
                && !SparkSession.getActiveSession().get().sparkContext().isStopped()) {
            for (Tuple2<String, String> e : SparkSession.getActiveSession()
                    .get()
                    .sparkContext()
                    .getConf()
                    .getAll()) {
                if (e._1().startsWith(SpecConfig.SPARK_PREFIX)) {
                    conf.put(e._1(), e._2());
                }
            }
        }
        return conf;
    }

    /**
     * The Spark executor on the active session (spark-submit, a notebook), or on a new {@code local[threads]} session
     * when none is active and no master is configured; the spec has the session's store options under the settings'
     * ones. Refuses, before anything runs, a cluster whose tasks get less than {@code allowedMem}.
     */
    public static ExecutionOptions.Execution open(SpecConfig settings, String appName) {
        boolean active = SparkSession.getActiveSession().isDefined()
                && !SparkSession.getActiveSession().get().sparkContext().isStopped();
        SparkSession.Builder b = SparkSession.builder().appName(appName);
        if (!active && System.getProperty("spark.master") == null) {
            b = b.master("local[" + settings.threads() + "]");
        }
        SparkSession session = b.getOrCreate();
        try {
            SparkExecutor executor = SparkExecutor.create(session);
            Spec spec = settings.specBuilder(executor, executor.storeOptions()).build();
            SparkMemoryCheck check = executor.memoryCheck();
            check.check(spec.allowedMem().bytes(), "allowedMem");
            return new ExecutionOptions.Execution(
                    settings, spec, active ? () -> {} : () -> stop(session), check.toString());
        } catch (RuntimeException e) {
            if (!active) {
                stop(session);
            }
            throw e;
        }
    }

    /** Stops a session this class started, and forgets it as the thread's active and the JVM's default session. */
    private static void stop(SparkSession session) {
        session.stop();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
    }
}
