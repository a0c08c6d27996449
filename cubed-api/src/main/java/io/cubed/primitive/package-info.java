/**
 * The blockwise primitive: an operation is a {@link io.cubed.primitive.KeyFunction} (output chunk → the input chunks
 * it reads) and a {@link io.cubed.primitive.ChunkFunction} (those chunks → the output chunks), run as one
 * {@link io.cubed.primitive.BlockwiseTask} per output chunk, or per {@link io.cubed.primitive.TaskRegion} of several
 * output chunks (rechunk copy stages, planned by {@link io.cubed.primitive.RechunkPlanner}). {@link
 * io.cubed.primitive.IndexKeyFunction} compiles Dask-style index notation into a key function. See {@code DESIGN.md} in this directory of the sources' docs.
 */
package io.cubed.primitive;
