/**
 * The blockwise primitive: an operation is a {@link io.cubed.primitive.KeyFunction} (output chunk → the input chunks
 * it reads) and a {@link io.cubed.primitive.ChunkFunction} (those chunks → the output chunks), run as one
 * {@link io.cubed.primitive.BlockwiseTask} per output chunk, or per {@link io.cubed.primitive.TaskRegion} of several
 * output chunks (rechunk copy stages, planned by {@link io.cubed.primitive.RechunkPlanner}). {@link
 * io.cubed.primitive.IndexKeyFunction} compiles Dask-style index notation into a key function. {@link io.cubed.primitive.ReductionKeyFunction} and {@link io.cubed.primitive.PartialReduceFunction} make one round of a tree reduction; {@link io.cubed.primitive.Gather} assembles chunks from elements of other arrays. See {@code DESIGN.md} in this directory of the sources' docs.
 */
package io.cubed.primitive;
