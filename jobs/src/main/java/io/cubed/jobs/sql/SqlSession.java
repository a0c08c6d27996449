package io.cubed.jobs.sql;

import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark session of one {@code cubed sql} run: the running one (a notebook's, or one spark-submit's main class made
 * earlier), else one for spark-submit's master, else {@code local[--threads]} with the UI off and the driver on
 * 127.0.0.1 (unless {@code SPARK_LOCAL_IP} or {@code --conf} say otherwise). {@code --conf spark.*} settings go to
 * the session, any other to its Hadoop configuration ({@code spark.hadoop.KEY}), which Spark's writers use (the
 * tables get them as reader options too). Closing stops a session this run started.
 */
final class SqlSession implements AutoCloseable {
    private final SparkSession spark;
    private final boolean created;

    private SqlSession(SparkSession spark, boolean created) {
        this.spark = spark;
        this.created = created;
    }

    static SqlSession start(SqlRequest request) {
        quietSparkLogs();
        boolean running = SparkSession.getActiveSession().isDefined()
                || SparkSession.getDefaultSession().isDefined();
        boolean configured = running || System.getProperty("spark.master") != null;
        SparkSession.Builder b = SparkSession.builder().appName("cubed-sql");
        Map<String, String> conf = request.conf();
        if (!configured) {
            b = b.master("local[" + request.threads() + "]").config("spark.ui.enabled", "false");
            if (System.getenv("SPARK_LOCAL_IP") == null) {
                if (!conf.containsKey("spark.driver.host")) {
                    b = b.config("spark.driver.host", "127.0.0.1");
                }
                if (!conf.containsKey("spark.driver.bindAddress")) {
                    b = b.config("spark.driver.bindAddress", "127.0.0.1");
                }
            }
        }
        for (Map.Entry<String, String> e : conf.entrySet()) {
            b = b.config(sparkKey(e.getKey()), e.getValue());
        }
        SparkSession spark = b.getOrCreate();
        if (running) {
            // A running session keeps its SparkConf: Hadoop settings go to its SQL conf, whose entries the Hadoop
            // configuration of Spark's writers takes (the tables get them as reader options, SqlRequest).
            conf.forEach((k, v) -> {
                if (!k.startsWith("spark.")) {
                    spark.conf().set(k, v);
                }
            });
        }
        return new SqlSession(spark, !running);
    }

    /** The Spark setting of a {@code --conf} key: itself for {@code spark.*}, else Hadoop's {@code KEY}. */
    static String sparkKey(String key) {
        return key.startsWith("spark.") ? key : "spark.hadoop." + key;
    }

    SparkSession spark() {
        return spark;
    }

    @Override
    public void close() {
        if (created) {
            spark.stop();
            SparkSession.clearActiveSession();
            SparkSession.clearDefaultSession();
        }
    }

    /**
     * Spark's notes at INFO (every stage, every task) are for its logs, not for a command's output: with the
     * command line's SLF4J provider (slf4j-simple, bin/cubed) Spark and its libraries log warnings and errors only,
     * unless a system property sets their level. Under spark-submit, Spark's own log4j configuration applies.
     */
    private static void quietSparkLogs() {
        for (String logger : new String[] {"org.apache.spark", "org.sparkproject", "org.apache.parquet", "io.netty"}) {
            String key = "org.slf4j.simpleLogger.log." + logger;
            if (System.getProperty(key) == null) {
                System.setProperty(key, "warn");
            }
        }
    }
}
