/**
 * {@code cubed bench}: named workloads on generated Zarr data, each measured against the raw I/O and codec limit of
 * the same bytes in the same run, with the measured memory of every operation against its projection.
 */
package io.cubed.jobs.bench;
