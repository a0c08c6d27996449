package io.cubed.primitive;

import io.cubed.chunk.Chunk;

/**
 * The chunk function of an elementwise operation: one chunk from each input (the inputs broadcast against each other
 * with NumPy's rules), one output chunk whose every element depends only on the input elements at the same position.
 * Such a function gives the matching slice of its output when applied to matching slices of its inputs, whatever
 * their shape, which is what lets a fused chain of them run slice by slice in the processor's cache instead of
 * computing a chunk-sized temporary per operation ({@link ElementwiseTiles}).
 */
public interface ElementwiseChunkFunction extends ChunkFunction {
    /**
     * The output for {@code blocks}, one per input, which broadcast against each other; its shape is their broadcast
     * shape. Must not depend on where the blocks lie in the arrays.
     */
    Chunk applyElementwise(Chunk[] blocks);

    /**
     * The most elements a tile of a fused chain has ({@link ElementwiseTiles}: {@code -Dcubed.elementwise.tileElements},
     * 8192 by default); a chunk of fewer elements is one tile.
     */
    static int tileElements() {
        return ElementwiseTiles.TILE_ELEMENTS;
    }

    /**
     * Bytes one evaluation of this function on the tiles of one chunk holds at most besides its operands: its result
     * tile and the kernel's working arrays on a tile of at most {@link #tileElements()} elements (or of the whole
     * chunk, if smaller), for both tile lengths a chunk's tiles take ({@link io.cubed.chunk.TileArrays} keeps the
     * arrays of each). The plan counts it for each operation of a chain computed tile by tile. −1 when not known: a
     * chain with such an operation is projected as if computed chunk by chunk.
     */
    default long tileWorkingBytes() {
        return -1;
    }

    /** Evaluates this function and the elementwise operations fused into it (see {@link ElementwiseTiles}). */
    @Override
    default Chunk[] apply(ChunkArgs args, long[] outputCoords) {
        return new Chunk[] {ElementwiseTiles.apply(this, args)};
    }
}
