/**
 * spark-submit entry points: {@link io.cubed.jobs.spark.SparkDemoJob} runs a Cubed computation with the Spark executor
 * on the session spark-submit configures, and {@link io.cubed.jobs.spark.SparkRechunkJob} runs the {@code rechunk}
 * job's copy stages as Spark jobs. Packaged with their dependencies, Spark and Hadoop excluded, in {@code
 * jobs/target/cubed-jobs-spark.jar}.
 */
package io.cubed.jobs.spark;
