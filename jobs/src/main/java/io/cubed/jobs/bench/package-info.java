/**
 * {@code cubed bench}: named workloads on generated Zarr data, each measured against the raw I/O and codec limit of
 * the same bytes in the same run, with the measured memory of every operation against its projection.
 *
 * <p>Which file holds what: {@code BenchCommand} the options and the run; {@code Workloads} and {@code Workload} W1–W5;
 * {@code BenchData} their generated inputs; {@code BenchSuite} the timed rounds of each workload and its result; {@code
 * WorkloadJvm} a workload planned here and run in a JVM of its own whose heap its plan sets; {@code RawLimit} the same
 * bytes with plain reads and writes; {@code StageRecorder} and {@code PeakRss} what a run moved, projected and held;
 * {@code DaskPeer} the same workloads in Dask; {@code BenchReport} the report. {@code ObjectStoreBench} (and {@code
 * ObjectStoreSpark}, {@code S3ServerProcess}, {@code S3Location}, {@code BenchLocation}) the copy from an S3 server
 * against Dask; {@code ObjectStoreMemoryBench} memory per operation on an S3 server; {@code SqlBenchCommand} (with
 * {@code SqlBench}, {@code SqlDecodingBench}, {@code SqlWriteBench}) Spark SQL on Zarr against Parquet; {@code
 * SparkBench} the Spark side of {@code --executor spark}, kept apart so that the in-process bench loads no Spark class.
 */
package io.cubed.jobs.bench;
