package io.cubed.array;

import io.cubed.chunk.Chunk;

/**
 * The chunk function of one of this package's elementwise operations (arithmetic, comparisons, math functions,
 * {@code astype}, {@code clip}, {@code where}): each output element depends only on the input elements at the same
 * position after broadcasting, whatever the chunks' place in the arrays. {@link Blockwise} runs such a function as an
 * {@link io.cubed.primitive.ElementwiseChunkFunction}, so that a fused chain of them is computed tile by tile.
 */
interface ElementwiseBlockFunction extends BlockFunction {
    /** The output for corresponding (broadcast) blocks, or for any matching slices of them. */
    Chunk apply(Chunk[] blocks);

    @Override
    default Chunk apply(Chunk[] blocks, long[] blockId) {
        return apply(blocks);
    }
}
