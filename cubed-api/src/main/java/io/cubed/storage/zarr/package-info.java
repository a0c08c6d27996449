/**
 * The Zarr format: {@code .zarray}/{@code .zgroup}/{@code .zattrs} metadata ({@link
 * io.cubed.storage.zarr.ZarrV2Metadata}), data types, fill values, chunk keys, the numcodecs compressors
 * ({@link io.cubed.storage.zarr.Compressor}, including a pure-Java Blosc), and {@link io.cubed.storage.zarr.ZarrArray},
 * which reads and writes chunks through a {@link io.cubed.storage.Store}. The only package that knows the format.
 */
package io.cubed.storage.zarr;
