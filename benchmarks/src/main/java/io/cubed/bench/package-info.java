/**
 * JMH benchmarks of the Zarr storage layer: codec throughput ({@link io.cubed.bench.CodecBenchmark}) and chunk reads
 * and writes through {@link io.cubed.storage.zarr.ZarrArray} against raw file I/O ({@link
 * io.cubed.bench.ZarrIoBenchmark}). Run them with {@code bin/bench-zarr}; docs/benchmarks.md explains the figures.
 */
package io.cubed.bench;
