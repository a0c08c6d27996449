/**
 * Cubed on Spark: {@link io.cubed.spark.SparkExecutor} runs every stage of a plan as one shuffle-free Spark job
 * (a {@link io.cubed.spark.internal.StageRDD} of task ranges, collecting small task results as each Spark task ends), {@link
 * io.cubed.spark.SparkMemoryCheck} checks (and derives) the executor memory and cores that give each concurrent task
 * the memory it needs, and {@link io.cubed.spark.SparkStoreOptions} carries the session's Hadoop settings to tasks.
 *
 * <p>The executor, one file per part: {@code SparkExecutor} holds the options and the computation's start and end;
 * {@code SparkStageScheduler} runs the stages in dependency order, concurrently where they allow; {@code
 * SparkStageRunner} runs one stage as a Spark job, or on the driver when it is tiny; {@code StagePartitions} splits a
 * stage's tasks into Spark tasks; {@code TaskEndReporter} reports each Spark task's results to the callbacks, and
 * {@code ChunkReleases} then deletes the input chunks those tasks consumed. {@link io.cubed.spark.SparkSettings}
 * derives the Spark settings that give each task its memory.
 */
package io.cubed.spark;
