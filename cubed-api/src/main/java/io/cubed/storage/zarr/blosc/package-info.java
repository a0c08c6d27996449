/**
 * A pure-Java implementation of the Blosc-1 container format as written by c-blosc 1.x and numcodecs: the 16-byte
 * header, the table of block offsets, blocks optionally split into one stream per byte of the element type, byte
 * shuffle and bit shuffle filters, and the internal codecs blosclz, lz4, lz4hc, zlib and zstd. Frames written here
 * decode with numcodecs and any valid Blosc-1 frame decodes here; {@link io.cubed.storage.zarr.blosc.BloscCodec} is
 * the entry point and all other classes are package-private helpers.
 */
package io.cubed.storage.zarr.blosc;
