/**
 * Chunks in memory ({@link io.cubed.chunk.Chunk}: a data type, a shape and one primitive Java array in C order) and
 * the kernels that work on one chunk: {@link io.cubed.chunk.Elementwise} applies the Array API's elementwise
 * functions ({@link io.cubed.chunk.UnaryFunction}, {@link io.cubed.chunk.BinaryFunction}, clip, astype) with NumPy
 * semantics, type promotion and broadcasting; {@link io.cubed.chunk.Reducer}s split each
 * {@link io.cubed.chunk.ReduceFunction} into accumulate, combine and aggregate steps on state chunks for tree
 * reductions; {@link io.cubed.chunk.Scans}, {@link io.cubed.chunk.MatMul} and {@link io.cubed.chunk.Contraction} serve
 * scans and linear algebra; {@link io.cubed.chunk.Fourier} transforms the rows of a chunk along an axis with the
 * tables of an {@link io.cubed.chunk.FftPlan}. No I/O happens here: storage turns bytes into chunks and back.
 */
package io.cubed.chunk;
