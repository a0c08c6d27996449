/**
 * Spark SQL over Zarr: the data source {@code zarr} ({@link io.cubed.spark.sql.ZarrDataSource}), reading arrays and
 * groups as tables with chunk pruning and no shuffle.
 */
package io.cubed.spark.sql;
