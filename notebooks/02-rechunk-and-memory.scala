// Databricks notebook source
// MAGIC %md
// MAGIC # Rechunking and the memory budget
// MAGIC
// MAGIC Every task of a Cubed plan has a projected memory, and a plan whose tasks would need more than the spec's
// MAGIC `allowedMem` is refused before anything runs. Rechunking (changing the chunk shape) is planned within the budget,
// MAGIC through intermediate arrays if needed, and never shuffles.

// COMMAND ----------

// MAGIC %md
// MAGIC `baseDir`: a DBFS or object store URL every executor can reach (the notebook tests replace this cell).

// COMMAND ----------

val baseDir = "dbfs:/tmp/cubed-notebooks"

// COMMAND ----------

import io.cubed.Cubed
import io.cubed.array.{Elementwise, Manipulation}
import io.cubed.spark.SparkExecutor

val spec = SparkExecutor.create(spark).specBuilder()
  .workDir(baseDir + "/rechunk/work")
  .allowedMem("200MB")
  .reservedMem("100MB")
  .build()

// COMMAND ----------

// MAGIC %md
// MAGIC ## Column chunks to row chunks
// MAGIC
// MAGIC A 2000 x 1000 float64 array (16 MB) stored in column chunks of 2000 x 100, rechunked to row chunks of
// MAGIC 100 x 1000.

// COMMAND ----------

val xUrl = baseDir + "/rechunk/x.zarr"
Cubed.random(Array(2000L, 1000L), Array(2000, 100), 7L, spec).toZarr(xUrl)
val x = Cubed.fromZarr(xUrl, spec)
val rows = Manipulation.rechunk(x, 100, 1000)
val rechunkPlan = rows.explain()
println(rechunkPlan)

// COMMAND ----------

// MAGIC %md
// MAGIC ## The plan as a picture
// MAGIC
// MAGIC `visualize` writes the plan as a Graphviz file on the driver's local disk, and as SVG when Graphviz's `dot` is
// MAGIC installed (on Databricks: `%sh apt-get install -y graphviz` in an init script). Display the SVG if there is one.

// COMMAND ----------

val planFiles = rows.visualize(java.nio.file.Files.createTempDirectory("cubed-plan").resolve("rechunk"))
println(planFiles)
planFiles.toArray.map(_.toString).find(_.endsWith(".svg")).foreach { svg =>
  displayHTML(new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(svg)), "UTF-8"))
}

// COMMAND ----------

val rowsUrl = baseDir + "/rechunk/rows.zarr"
rows.toZarr(rowsUrl)
val written = Cubed.fromZarr(rowsUrl, spec)
println(s"$rowsUrl: chunks ${written.chunkShape().mkString(" x ")}")

// COMMAND ----------

// MAGIC %md
// MAGIC ## When allowedMem is too small
// MAGIC
// MAGIC With 102 MB allowed, of which 100 MB are reserved for the runtime (2 MB left for the data), an
// MAGIC elementwise operation on chunks of 1.6 MB does not fit: `toZarr` fails before any task runs, naming the
// MAGIC operation and the sizes, and writes nothing.

// COMMAND ----------

val tinySpec = SparkExecutor.create(spark).specBuilder()
  .workDir(baseDir + "/rechunk/work")
  .allowedMem("102MB")
  .reservedMem("100MB")
  .build()
val tooSmallUrl = baseDir + "/rechunk/never-written.zarr"
val tooSmall = scala.util.Try(Elementwise.negative(Cubed.fromZarr(xUrl, tinySpec)).toZarr(tooSmallUrl))
val tooSmallError = tooSmall.failed.get
println(tooSmallError.getClass.getSimpleName + ": " + tooSmallError.getMessage)
