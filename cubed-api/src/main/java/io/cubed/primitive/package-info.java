/**
 * The blockwise primitive: an operation is a {@link io.cubed.primitive.KeyFunction} (output chunk → the input chunks
 * it reads) and a {@link io.cubed.primitive.ChunkFunction} (those chunks → the output chunks), run as one
 * {@link io.cubed.primitive.BlockwiseTask} per output chunk, or per {@link io.cubed.primitive.TaskRegion} of several
 * output chunks (rechunk copy stages, planned by {@link io.cubed.primitive.RechunkPlanner}). {@link
 * io.cubed.primitive.IndexKeyFunction} compiles Dask-style index notation into a key function. {@link io.cubed.primitive.ReductionKeyFunction} and {@link io.cubed.primitive.PartialReduceFunction} make one round of a tree reduction; {@link io.cubed.primitive.Gather} assembles chunks from elements of other arrays.
 *
 * <p>The rechunk planner, one file per part: {@link io.cubed.primitive.RechunkPlanner} holds the settings and tries 1,
 * 2, … stages; {@code RechunkChainShapes} builds the starting chains of chunk shapes (consolidated, geometric, capped
 * regions); {@code RechunkChainSearch} fits them to the budget and improves them by exhaustive search between
 * neighbours; {@code RechunkCosts} prices a chain (I/O, time on the executor's slots) and checks that its tasks fit;
 * {@link io.cubed.primitive.RechunkStage} is one copy stage and {@link io.cubed.primitive.RechunkPlan} the result.
 * See {@code DESIGN.md} in this directory of the sources' docs.
 */
package io.cubed.primitive;
