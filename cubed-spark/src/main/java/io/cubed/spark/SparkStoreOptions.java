package io.cubed.spark;

import io.cubed.storage.StoreOptions;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * Store options from a Spark session's Hadoop configuration, so that file system settings (s3a credentials and
 * endpoint, ABFS keys, …) configured for Spark reach Cubed's tasks without appearing in code. Tasks carry their store
 * options with the store URI, so pass the result to {@link io.cubed.plan.Spec.Builder#storeOptions}, or use {@link
 * SparkExecutor#specBuilder()}.
 */
public final class SparkStoreOptions {
    private SparkStoreOptions() {}

    /**
     * The options for {@code jsc}: every {@code spark.hadoop.KEY} of the Spark configuration as {@code KEY}, and every
     * {@code fs.*} property of {@code sc.hadoopConfiguration()} whose value differs from Hadoop's defaults (which
     * covers settings made with {@code sc.hadoopConfiguration().set(...)} and the AWS credentials Spark copies from
     * the {@code AWS_*} environment variables).
     */
    public static StoreOptions from(JavaSparkContext jsc) {
        Map<String, String> sparkHadoop = new TreeMap<>();
        for (Tuple2<String, String> kv : jsc.getConf().getAll()) {
            if (kv._1().startsWith("spark.hadoop.")) {
                sparkHadoop.put(kv._1().substring("spark.hadoop.".length()), kv._2());
            }
        }
        return from(jsc.hadoopConfiguration(), sparkHadoop, new Configuration());
    }

    /**
     * The options from {@code session} (Hadoop configuration of the session), {@code sparkHadoop} (the {@code
     * spark.hadoop.*} settings without their prefix, always kept) and {@code defaults} (what tasks would get anyway).
     */
    static StoreOptions from(Configuration session, Map<String, String> sparkHadoop, Configuration defaults) {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, String> e : session) {
            String key = e.getKey();
            if (!key.startsWith("fs.") && !sparkHadoop.containsKey(key)) {
                continue;
            }
            String value = session.get(key);
            if (value != null && (sparkHadoop.containsKey(key) || !value.equals(defaults.get(key)))) {
                out.put(key, value);
            }
        }
        return StoreOptions.of(out);
    }
}
