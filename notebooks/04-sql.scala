// Databricks notebook source
// MAGIC %md
// MAGIC # Cubed for Spark: SQL over Zarr
// MAGIC
// MAGIC Read a Zarr dataset as a table with `spark.read.format("zarr")`, query it with SQL (filters on `time`, `lat` and
// MAGIC `lon` prune whole chunks before anything is read), and turn a lazy array computation into a DataFrame without
// MAGIC writing it first. No shuffle on the read path: each Spark task reads its own chunks.
// MAGIC
// MAGIC Needs the `cubed-spark` jar (with `cubed-api`) attached to the cluster as a library: see `docs/notebooks.md`.

// COMMAND ----------

// MAGIC %md
// MAGIC ## Where the data goes
// MAGIC
// MAGIC `baseDir` is any Hadoop file system URL every executor can reach (DBFS, `s3a://`, `abfss://`...). The notebook
// MAGIC tests replace this cell with a temporary directory.

// COMMAND ----------

val baseDir = "dbfs:/tmp/cubed-notebooks"

// COMMAND ----------

import io.cubed.Cubed
import io.cubed.array.{ComputeOptions, Creation, Elementwise, ReductionOptions, Statistical}
import io.cubed.dtype.{DType, Scalar}
import io.cubed.spark.SparkExecutor
import io.cubed.spark.sql.{ArrayFrames, ZarrScanMetrics}
import io.cubed.storage.zarr.{Compressor, ZarrArray, ZarrFormat, ZarrGroup}
import io.cubed.storage.zarr.cf.CfOptions

val spec = SparkExecutor.create(spark).specBuilder()
  .workDir(baseDir + "/sql/work")
  .allowedMem("500MB")
  .build()

// COMMAND ----------

// MAGIC %md
// MAGIC ## A climate-like dataset
// MAGIC
// MAGIC 60 daily fields of 2 m temperature on a 2-degree grid (91 x 180), one field per chunk in 4 pieces, with the
// MAGIC coordinate arrays `time`, `lat` and `lon` laid out as xarray writes them: each array names its dimensions
// MAGIC (`_ARRAY_DIMENSIONS`), `time` counts "days since 2020-01-01" (CF units, which SQL shows as timestamps), and
// MAGIC each coordinate has a fill value none of its values takes (xarray reads values equal to a Zarr v2 fill value
// MAGIC as missing, and so does the `zarr` source), so any xarray user can open the same group and see the same values.

// COMMAND ----------

val era = baseDir + "/sql/era.zarr"
ZarrGroup.create(era, spec.storeOptions())
val nt = 60L
def withFill(fill: Scalar) =
  ComputeOptions.builder().zarrFormat(ZarrFormat.v2(Compressor.defaultCompressor(), fill)).build()
Creation.arange(0, nt.toDouble, 1, nt.toInt, DType.INT64, spec).withDims("time")
  .toZarr(era + "/time", withFill(Scalar.ofLong(-1)))
ZarrArray.open(era + "/time", spec.storeOptions()).writeAttributes(java.util.Map.of[String, AnyRef](
  "_ARRAY_DIMENSIONS", java.util.Collections.singletonList("time"),
  "units", "days since 2020-01-01"))
Creation.arange(90, -91, -2, 91, DType.FLOAT64, spec).withDims("lat")
  .toZarr(era + "/lat", withFill(Scalar.ofDouble(Double.NaN)))
Creation.arange(0, 360, 2, 180, DType.FLOAT64, spec).withDims("lon")
  .toZarr(era + "/lon", withFill(Scalar.ofDouble(Double.NaN)))
// 250 K plus up to 40 K of noise: a stand-in for a real field.
val noise = Cubed.random(Array(nt, 91L, 180L), Array(1, 46, 90), 7L, spec)
Elementwise.add(Elementwise.multiply(noise, Scalar.ofDouble(40)), Scalar.ofDouble(250))
  .withDims("time", "lat", "lon")
  .toZarr(era + "/t2m")

// COMMAND ----------

// MAGIC %md
// MAGIC ## SQL
// MAGIC
// MAGIC One column per dimension (holding the coordinate values: `time` as `timestamp_ntz`) and one per variable. The
// MAGIC tropical mean per day reads only the chunks that hold latitudes between -30 and 30.

// COMMAND ----------

val table = spark.read.format("zarr").load(era)
table.printSchema()
table.createOrReplaceTempView("era")
val tropicsQuery = spark.sql(
  "SELECT time, avg(t2m) AS t2m FROM era WHERE lat BETWEEN -30 AND 30 GROUP BY time ORDER BY time")
val tropics = tropicsQuery.collect().map(r => (r.getAs[java.time.LocalDateTime](0), r.getDouble(1)))
tropicsQuery.show(5)

// COMMAND ----------

// MAGIC %md
// MAGIC One day out of 60 (day 42 is 2020-02-12) reads 4 of the 240 chunks; the scan's metrics (also on the scan node
// MAGIC in Spark's UI) say so.

// COMMAND ----------

val oneDay = spark.sql("SELECT max(t2m) AS hottest FROM era WHERE time = TIMESTAMP '2020-02-12 00:00:00'")
val hottestOnDay42 = oneDay.collect()(0).getDouble(0)
val chunksReadForOneDay = ZarrScanMetrics.chunksRead(oneDay)
println(s"hottest on day 42: $hottestOnDay42 K, chunks read: $chunksReadForOneDay of ${nt * 4}")

// COMMAND ----------

// MAGIC %md
// MAGIC ## A computation as a DataFrame
// MAGIC
// MAGIC The anomaly from each point's mean over time, computed with bounded memory per task and handed to Spark SQL
// MAGIC without writing it: the means are computed now, the subtraction inside the DataFrame's tasks. The `time`
// MAGIC coordinate read CF-decoded gives the same timestamps as the table, so the two join on it.

// COMMAND ----------

val t2m = Cubed.fromZarr(era + "/t2m", spec)
val anomaly = Elementwise.subtract(t2m, Statistical.mean(t2m, ReductionOptions.axis(0)))
val anomalies = ArrayFrames.toDataFrame(
  spark,
  java.util.Map.of("anomaly", anomaly),
  java.util.Map.of(
    "time", Cubed.fromZarr(era + "/time", spec, CfOptions.defaults()),
    "lat", Cubed.fromZarr(era + "/lat", spec),
    "lon", Cubed.fromZarr(era + "/lon", spec)))
anomalies.createOrReplaceTempView("anomalies")
val strongest = spark.sql(
  "SELECT a.time, a.lat, a.lon, a.anomaly, e.t2m FROM anomalies a JOIN era e USING (time, lat, lon) " +
    "WHERE a.lat >= 60 ORDER BY a.anomaly DESC LIMIT 3").collect()
strongest.foreach(println)

// COMMAND ----------

// Deletes the stored means behind the DataFrame once done with it.
ArrayFrames.release(anomalies)
