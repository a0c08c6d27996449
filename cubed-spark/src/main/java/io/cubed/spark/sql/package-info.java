/**
 * Spark SQL over Zarr: the data source {@code zarr} ({@link io.cubed.spark.sql.ZarrDataSource}), reading arrays and
 * groups as tables with chunk pruning and no shuffle, and writing DataFrames as Zarr groups without an exchange: each
 * task of the DataFrame's own partitions writes the chunks it holds whole and stages the rest as fragments, which a
 * small second stage merges ({@link io.cubed.spark.sql.ZarrWriter}).
 */
package io.cubed.spark.sql;
