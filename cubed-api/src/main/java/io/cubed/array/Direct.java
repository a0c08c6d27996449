package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.primitive.ChunkArgs;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.KeyFunction;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link #mapDirect}: an operation whose tasks read arbitrary regions of side inputs instead of corresponding chunks,
 * as Cubed's {@code map_direct} — for functions whose input footprint is not a chunk (interpolation onto another grid,
 * lookups, gathers). The side inputs are computed (or stored) before it runs; the memory a task needs for the regions
 * it reads is declared by the caller and checked with the rest of the plan.
 */
public final class Direct {
    private Direct() {}

    /**
     * A new array of {@code shape}, {@code chunks} and {@code dtype} whose chunk at {@code blockId} is
     * {@code fn(inputs, blockId, offset, shape)}; {@code fn} may read any region of {@code sideInputs} and must keep
     * what it reads within {@code extraMemBytes} per task.
     *
     * @throws InvalidArgumentException for a negative memory figure or chunks that do not fit the shape
     */
    public static CubedArray mapDirect(
            DirectFunction fn, long[] shape, int[] chunks, DType dtype, long extraMemBytes, CubedArray... sideInputs) {
        if (sideInputs.length == 0) {
            throw new InvalidArgumentException("map_direct needs at least one side input (it takes the spec from it)");
        }
        if (extraMemBytes < 0) {
            throw new InvalidArgumentException("map_direct: extraMemBytes " + extraMemBytes + " is negative");
        }
        Spec spec = Execution.commonSpec(List.of(sideInputs));
        ChunkGrid grid = Chunking.grid(shape, chunks, "map_direct output");
        List<ArrayNode> inputs = new ArrayList<>();
        for (CubedArray a : sideInputs) {
            inputs.add(a.node());
        }
        OpNode op = OpNode.blockwise(
                "map_direct",
                inputs,
                new NoKeys(sideInputs.length),
                new DirectChunks(fn, grid),
                new int[sideInputs.length],
                extraMemBytes,
                List.of(dtype),
                List.of(grid),
                null,
                "reads regions of " + sideInputs.length + " side input(s), " + extraMemBytes + " bytes declared");
        return CubedArray.of(op.outputs().get(0), spec);
    }

    /** No chunk is read by key: the function reads regions. */
    private record NoKeys(int inputs) implements KeyFunction {
        @Override
        public long[][][] inputKeys(long[] outputCoords) {
            return new long[inputs][0][];
        }
    }

    /** Calls the user function with the output chunk's position. */
    private record DirectChunks(DirectFunction fn, ChunkGrid grid) implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            return new Chunk[] {
                fn.apply(args, outputCoords.clone(), grid.chunkOffset(outputCoords), grid.chunkShapeAt(outputCoords))
            };
        }
    }
}
