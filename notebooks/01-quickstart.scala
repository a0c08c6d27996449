// Databricks notebook source
// MAGIC %md
// MAGIC # Cubed for Spark: quickstart
// MAGIC
// MAGIC Write a Zarr array, open it, compute column means and a centred copy with bounded memory per task, write the
// MAGIC result back to Zarr and read it again. Every operation runs as Spark tasks on the cluster, one task per chunk,
// MAGIC without a shuffle.
// MAGIC
// MAGIC Needs the `cubed-spark` jar (with `cubed-api`) attached to the cluster as a library: see `docs/notebooks.md`.

// COMMAND ----------

// MAGIC %md
// MAGIC ## Where the arrays go
// MAGIC
// MAGIC `baseDir` is any Hadoop file system URL every executor can reach: on Databricks a DBFS path such as
// MAGIC `dbfs:/tmp/cubed-notebooks` or an object store such as `s3a://my-bucket/cubed`. Change it here (the notebook
// MAGIC tests replace this cell with a temporary directory).

// COMMAND ----------

val baseDir = "dbfs:/tmp/cubed-notebooks"

// COMMAND ----------

import io.cubed.Cubed
import io.cubed.array.{Elementwise, ReductionOptions, Statistical}
import io.cubed.dtype.Scalar
import io.cubed.spark.SparkExecutor

// The Spark executor on this notebook's session; intermediate arrays go under workDir, each task may use 500 MB.
val spec = SparkExecutor.create(spark).specBuilder()
  .workDir(baseDir + "/quickstart/work")
  .allowedMem("500MB")
  .build()
println(spec)

// COMMAND ----------

// MAGIC %md
// MAGIC ## An input array
// MAGIC
// MAGIC 1000 x 400 uniform random float64 numbers in chunks of 250 x 400 (4 chunks of 800 kB), written to Zarr.

// COMMAND ----------

val xUrl = baseDir + "/quickstart/x.zarr"
Cubed.random(Array(1000L, 400L), Array(250, 400), 42L, spec).toZarr(xUrl)

// COMMAND ----------

val x = Cubed.fromZarr(xUrl, spec)
println(x)

// COMMAND ----------

// MAGIC %md
// MAGIC ## Reductions and elementwise operations
// MAGIC
// MAGIC Arrays are lazy: nothing runs until `compute()` (result in driver memory: only for small results) or `toZarr`.

// COMMAND ----------

val overallMean = Statistical.mean(x).compute().getDouble(0)
val columnMeans = Statistical.mean(x, ReductionOptions.axis(0)).compute().toDoubleArray()
println(f"mean of x: $overallMean%.6f; first column means: ${columnMeans.take(3).map(m => f"$m%.4f").mkString(", ")}")

// COMMAND ----------

// y = 2 (x - column mean of x), written to Zarr by the executors.
val centred = Elementwise.subtract(x, Statistical.mean(x, ReductionOptions.axis(0).keepdims(true)))
val y = Elementwise.multiply(centred, Scalar.ofDouble(2.0))
val yUrl = baseDir + "/quickstart/y.zarr"
y.toZarr(yUrl)

// COMMAND ----------

// MAGIC %md
// MAGIC ## Read the result back
// MAGIC
// MAGIC The column means of `y` are zero (up to rounding).

// COMMAND ----------

val yBack = Cubed.fromZarr(yUrl, spec)
val yColumnMeans = Statistical.mean(yBack, ReductionOptions.axis(0)).compute().toDoubleArray()
val largestYColumnMean = yColumnMeans.map(math.abs).max
println(s"y: $yBack, largest |column mean|: $largestYColumnMean")
