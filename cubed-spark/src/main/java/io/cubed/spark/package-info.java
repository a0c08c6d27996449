/**
 * Cubed on Spark: {@link io.cubed.spark.SparkExecutor} runs every stage of a plan as one shuffle-free Spark job
 * (a {@link io.cubed.spark.internal.StageRDD} of task ranges, collecting small task results as each Spark task ends), {@link
 * io.cubed.spark.SparkMemoryCheck} checks (and derives) the executor memory and cores that give each concurrent task
 * the memory it needs, and {@link io.cubed.spark.SparkStoreOptions} carries the session's Hadoop settings to tasks.
 */
package io.cubed.spark;
