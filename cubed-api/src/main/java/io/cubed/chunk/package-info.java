/**
 * Chunks in memory ({@link io.cubed.chunk.Chunk}: a data type, a shape and one primitive Java array in C order) and
 * the kernels that work on one chunk: {@link io.cubed.chunk.Elementwise} applies the Array API's elementwise
 * functions ({@link io.cubed.chunk.UnaryFunction}, {@link io.cubed.chunk.BinaryFunction}, clip, astype) with NumPy
 * semantics, type promotion and broadcasting. No I/O happens here: storage turns bytes into chunks and back.
 */
package io.cubed.chunk;
