package io.cubed.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * One local Spark context ({@code local[2,3]}: two task threads, three attempts per task) shared by every test class of
 * this JVM, started on first use and stopped at exit: a Spark start costs seconds.
 */
public final class SparkTestContext {
    static final String MASTER = "local[2,3]";

    private static JavaSparkContext jsc;

    private SparkTestContext() {}

    public static synchronized JavaSparkContext get() {
        if (jsc == null) {
            SparkConf conf = new SparkConf()
                    .setMaster(MASTER)
                    .setAppName("cubed-spark-tests")
                    .set("spark.ui.enabled", "false")
                    .set("spark.driver.host", "127.0.0.1")
                    .set("spark.driver.bindAddress", "127.0.0.1")
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

    /** Waits until the listener bus has delivered every event posted so far. */
    static void drainListeners() {
        try {
            get().sc().listenerBus().waitUntilEmpty();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
