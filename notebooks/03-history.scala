// Databricks notebook source
// MAGIC %md
// MAGIC # The history of a computation
// MAGIC
// MAGIC A `HistoryCallback` records every task the executors report back to the driver: when it ran, the bytes it read
// MAGIC and wrote, its allocated (and, where measured, peak) memory and its operation's projected memory. It writes
// MAGIC `tasks.csv`, `operations.csv` and `timeline.svg`, and gives the timeline as a string to display here.

// COMMAND ----------

// MAGIC %md
// MAGIC `baseDir`: a DBFS or object store URL every executor can reach (the notebook tests replace this cell).

// COMMAND ----------

val baseDir = "dbfs:/tmp/cubed-notebooks"

// COMMAND ----------

import io.cubed.Cubed
import io.cubed.array.{Elementwise, ReductionOptions, Statistical}
import io.cubed.dtype.Scalar
import io.cubed.runtime.HistoryCallback
import io.cubed.spark.SparkExecutor
import scala.collection.JavaConverters._

val spec = SparkExecutor.create(spark).specBuilder()
  .workDir(baseDir + "/history/work")
  .allowedMem("500MB")
  .build()

// COMMAND ----------

// MAGIC %md
// MAGIC ## Quadratic means
// MAGIC
// MAGIC `mean((u - mean(u, 0))^2 + (v - mean(v, 0))^2, 0)` over two 2000 x 300 arrays in chunks of 500 x 300
// MAGIC (the same workload as `cubed quadratic-means`).

// COMMAND ----------

val uUrl = baseDir + "/history/u.zarr"
val vUrl = baseDir + "/history/v.zarr"
Cubed.random(Array(2000L, 300L), Array(500, 300), 1L, spec).toZarr(uUrl)
Cubed.random(Array(2000L, 300L), Array(500, 300), 2L, spec).toZarr(vUrl)
val u = Cubed.fromZarr(uUrl, spec)
val v = Cubed.fromZarr(vUrl, spec)

val keep = ReductionOptions.axis(0).keepdims(true)
val du = Elementwise.subtract(u, Statistical.mean(u, keep))
val dv = Elementwise.subtract(v, Statistical.mean(v, keep))
val two = Scalar.ofLong(2)
val quadraticMeans = Statistical.mean(
  Elementwise.add(Elementwise.pow(du, two), Elementwise.pow(dv, two)), ReductionOptions.axis(0))

// COMMAND ----------

val history = new HistoryCallback()
val resultUrl = baseDir + "/history/quadratic-means.zarr"
quadraticMeans.toZarr(resultUrl, history)

// COMMAND ----------

// MAGIC %md
// MAGIC ## Operations and tasks

// COMMAND ----------

val operations = history.operations().asScala
for (o <- operations) {
  println(f"${o.operationId}%-8s ${o.operationName}%-40s ${o.tasksRecorded}%4d tasks ${o.durationMs}%6d ms " +
    f"memory ${o.memoryBytes}%12d B of ${o.projectedBytes}%12d B projected")
}
val taskCount = history.tasks().size

// COMMAND ----------

// MAGIC %md
// MAGIC ## The timeline
// MAGIC
// MAGIC One band per operation with a bar per task, then each operation's memory against its projection.

// COMMAND ----------

displayHTML(history.timelineSvg())

// COMMAND ----------

// MAGIC %md
// MAGIC ## The CSV files
// MAGIC
// MAGIC `write` needs a directory on the driver's local disk (on Databricks `/dbfs/...` is DBFS seen as local files,
// MAGIC so the files can be downloaded or read with `spark.read.csv("dbfs:/...")`).

// COMMAND ----------

val historyFiles = history.write(java.nio.file.Files.createTempDirectory("cubed-history"))
println(historyFiles)
