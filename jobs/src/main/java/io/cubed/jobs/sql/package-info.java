/**
 * {@code cubed sql}: one Spark SQL query over Zarr arrays and groups named as tables on the command line, on the
 * active Spark session (spark-submit) or a {@code local[N]} one started for it, the result printed as a table or
 * written as CSV, Parquet or JSON. Only {@link io.cubed.jobs.sql.SqlRun} touches Spark, so that the command line
 * loads without it.
 */
package io.cubed.jobs.sql;
