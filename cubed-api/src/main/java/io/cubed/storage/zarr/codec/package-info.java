/**
 * The {@link io.cubed.storage.zarr.codec.Codec} interface that every byte-to-byte compressor implements (the
 * numcodecs single-stream codecs in {@code storage.zarr} and Blosc in {@code storage.zarr.blosc}); it depends on
 * nothing else in Cubed so codec packages never depend on the format package.
 */
package io.cubed.storage.zarr.codec;
