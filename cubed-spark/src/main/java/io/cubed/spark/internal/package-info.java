/**
 * What runs inside Spark tasks and how stages are cut into partitions: the serializable partition function that runs
 * task indexes and measures them, the gathering of a partition's results for the driver, compact task ranges, and the translation of Spark job failures into Cubed
 * exceptions. Not an API.
 */
package io.cubed.spark.internal;
