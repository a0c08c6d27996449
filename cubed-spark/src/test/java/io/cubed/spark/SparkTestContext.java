package io.cubed.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * One local Spark context ({@code local[2,3]}: two task threads, three attempts per task) shared by every test class of
 * this JVM, started on first use and stopped at exit: a Spark start costs seconds. Integration tests share one JVM
 * with each other and start a context of their own instead ({@link #ownSession}, {@link #local}), which they stop.
 */
public final class SparkTestContext {
    static final String MASTER = "local[2,3]";

    private static JavaSparkContext jsc;

    private SparkTestContext() {}

    public static synchronized JavaSparkContext get() {
        if (jsc == null) {
            SparkConf conf = local(new SparkConf(), MASTER, "cubed-spark-tests")
                    .set("spark.hadoop.fs.cubed-test.marker", "from-spark-conf");
            jsc = new JavaSparkContext(conf);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> jsc.stop()));
        }
        return jsc;
    }

    /** The Spark SQL session on the shared context ({@link #get}), for the tests of the data source. */
    public static SparkSession session() {
        return SparkSession.builder().sparkContext(get().sc()).getOrCreate();
    }

    /**
     * {@code conf} set as every test's context is: {@code master}, {@code appName}, no UI, the driver on 127.0.0.1.
     */
    public static SparkConf local(SparkConf conf, String master, String appName) {
        return conf.setMaster(master)
                .setAppName(appName)
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1");
    }

    /**
     * A builder of a Spark SQL session on a {@code local[2]} context of its own named {@code appName} ({@link #local}),
     * for an integration test that stops it when done; more settings can be added before {@code getOrCreate()}.
     */
    public static SparkSession.Builder ownSession(String appName) {
        return SparkSession.builder().config(local(new SparkConf(false), "local[2]", appName));
    }

    /** Waits until the listener bus has delivered every event posted so far. */
    static void drainListeners() {
        try {
            get().sc().listenerBus().waitUntilEmpty();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
