package io.cubed.jobs.spark;

import io.cubed.SpecConfig;
import io.cubed.jobs.ExecutionOptions;
import io.cubed.plan.Spec;
import io.cubed.spark.SparkExecutor;
import io.cubed.spark.SparkMemoryCheck;
import java.util.List;
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

    /** The {@code spark.cubed.*} entries of the running session's conf; empty when none runs. */
    public static Map<String, String> activeCubedConf() {
        Map<String, String> conf = new TreeMap<>();
        SparkSession running = running();
        if (running != null) {
            for (Tuple2<String, String> e : running.sparkContext().getConf().getAll()) {
                if (e._1().startsWith(SpecConfig.SPARK_PREFIX)) {
                    conf.put(e._1(), e._2());
                }
            }
        }
        return conf;
    }

    /**
     * The session already running in this JVM — the thread's active one, else the JVM's default one (a notebook's or
     * a Databricks JAR task's) — or null.
     */
    private static SparkSession running() {
        for (scala.Option<SparkSession> s :
                List.of(SparkSession.getActiveSession(), SparkSession.getDefaultSession())) {
            if (s.isDefined() && !s.get().sparkContext().isStopped()) {
                return s.get();
            }
        }
        return null;
    }

    /**
     * The Spark executor on the running session (a notebook, a Databricks JAR task), never stopped here; else on a new
     * session from the JVM's Spark conf (spark-submit sets {@code spark.master}), or a new {@code local[threads]}
     * session when no master is configured, either stopped when the execution closes. The spec has the session's store
     * options under the settings' ones. Refuses, before anything runs, a cluster whose tasks get less than {@code
     * allowedMem}.
     */
    public static ExecutionOptions.Execution open(SpecConfig settings, String appName) {
        SparkSession session = running();
        boolean ours = session == null;
        if (ours) {
            SparkSession.Builder b = SparkSession.builder().appName(appName);
            if (System.getProperty("spark.master") == null) {
                b = b.master("local[" + settings.threads() + "]");
            }
            session = b.getOrCreate();
        }
        SparkSession s = session;
        try {
            SparkExecutor executor = SparkExecutor.create(s);
            Spec spec = settings.specBuilder(executor, executor.storeOptions()).build();
            SparkMemoryCheck check = executor.memoryCheck();
            check.check(spec.allowedMem().bytes(), "allowedMem");
            return new ExecutionOptions.Execution(settings, spec, ours ? () -> stop(s) : () -> {}, check.toString());
        } catch (RuntimeException e) {
            if (ours) {
                stop(s);
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
