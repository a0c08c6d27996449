package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import java.util.Arrays;

/**
 * The chunk-wise step of a reshape: output chunk {@code f} (in C order of the output grid) is input chunk {@code f}
 * (in C order of the input grid) with a new shape and the same elements in the same C order. Valid when the input
 * chunks were first made compatible (see {@code io.cubed.array.Reshape}); the data array is not copied.
 */
public final class ChunkwiseReshape implements KeyFunction, ChunkFunction {
    private static final long serialVersionUID = 1L;

    private final ChunkGrid in;
    private final ChunkGrid out;

    /** Reshapes chunks of {@code in} into chunks of {@code out}; both grids need the same number of chunks. */
    public ChunkwiseReshape(ChunkGrid in, ChunkGrid out) {
        if (in.numChunks() != out.numChunks() || in.size() != out.size()) {
            throw new InvalidArgumentException("chunk-wise reshape from " + in + " to " + out
                    + " needs the same number of elements and of chunks");
        }
        this.in = in;
        this.out = out;
    }

    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        long[] per = out.chunksPerAxis();
        long flat = 0;
        for (int a = 0; a < per.length; a++) {
            flat = flat * per[a] + outputCoords[a];
        }
        return new long[][][] {{in.chunkCoordsOf(flat)}};
    }

    @Override
    public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
        Chunk c = args.chunk(0);
        int[] shape = out.chunkShapeAt(outputCoords);
        if (Chunk.elementCount(shape) != c.size()) {
            throw new InvalidArgumentException("chunk-wise reshape: input chunk of shape " + Arrays.toString(c.shape())
                    + " cannot become output chunk " + Arrays.toString(outputCoords) + " of shape "
                    + Arrays.toString(shape));
        }
        return new Chunk[] {Chunk.wrap(c.dtype(), shape, c.data())};
    }
}
