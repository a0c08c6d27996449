/**
 * spark-submit entry points: {@link io.cubed.jobs.spark.SparkDemoJob} runs a Cubed computation with the Spark executor
 * on the session spark-submit configures. Packaged with their dependencies, Spark and Hadoop excluded, in {@code
 * jobs/target/cubed-jobs-spark.jar}.
 */
package io.cubed.jobs.spark;
