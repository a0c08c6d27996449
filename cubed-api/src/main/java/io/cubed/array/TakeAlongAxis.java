package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.OpNode;
import io.cubed.primitive.ChunkArgs;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.KeyFunction;
import java.util.Arrays;
import java.util.List;

/**
 * {@code take_along_axis(x, indices, axis)} in one blockwise operation with bounded memory. The output has the shape
 * of {@code indices} along the axis and the broadcast of both shapes on the other axes, with the chunks of
 * {@code indices} along the axis (and of whichever input is not broadcast on the others, their chunks unified first).
 * A task reads its chunk of indices, finds which chunk of {@code x} along the axis each index falls into, then reads
 * only those chunks of {@code x}, each once and one at a time (as {@code searchsorted} does), and copies the elements
 * they hold; of a sharded {@code x}, only the box of inner chunks holding the elements taken ({@link ChunkArgs#box}). It holds the chunk of indices, one chunk of {@code x}, the output chunk and 12 bytes per output element
 * (the positions, and the output elements grouped by chunk of {@code x}).
 */
final class TakeAlongAxis {
    private TakeAlongAxis() {}

    static CubedArray build(CubedArray x, CubedArray indices, int axis) {
        String op = "take_along_axis";
        if (!indices.dtype().isInteger()) {
            throw new InvalidArgumentException(op + ": the indices " + Layout.describe(indices) + " are "
                    + indices.dtype() + "; they must have an integer data type");
        }
        if (x.ndim() != indices.ndim()) {
            throw new InvalidArgumentException(op + ": the indices " + Layout.describe(indices) + " have rank "
                    + indices.ndim() + ", but " + Layout.describe(x) + " has rank " + x.ndim()
                    + "; they must have the same rank");
        }
        if (x.ndim() == 0) {
            throw new InvalidArgumentException(
                    op + ": " + Layout.describe(x) + " is 0-d; it has no axis to take along (axis " + axis + ")");
        }
        int a = Reduction.normalizeAxis(op, x, axis);
        int nd = x.ndim();
        long[] shape = new long[nd];
        for (int d = 0; d < nd; d++) {
            long xs = x.shape()[d];
            long is = indices.shape()[d];
            if (d == a) {
                shape[d] = is;
            } else if (xs == is || is == 1) {
                shape[d] = xs;
            } else if (xs == 1) {
                shape[d] = is;
            } else {
                throw new InvalidArgumentException(op + ": shapes " + Arrays.toString(x.shape()) + " of " + x.name()
                        + " and " + Arrays.toString(indices.shape()) + " of " + indices.name()
                        + " cannot be broadcast together on axis " + d + " (only the axis " + a + " may differ)");
            }
        }
        String base = Blockwise.letters(nd);
        String shared = base.substring(0, a) + base.substring(a + 1);
        String xLetters = base.substring(0, a) + '#' + base.substring(a + 1);
        String iLetters = base.substring(0, a) + '$' + base.substring(a + 1);
        List<CubedArray> unified =
                Blockwise.unifyChunks(List.of(x, indices), new String[] {xLetters, iLetters}, shared);
        CubedArray xs = unified.get(0);
        CubedArray is = unified.get(1);
        int[] chunks = new int[nd];
        for (int d = 0; d < nd; d++) {
            CubedArray from = d == a || xs.shape()[d] != shape[d] ? is : xs;
            chunks[d] = (int) Math.max(1, Math.min(from.chunkShape()[d], Math.max(1, shape[d])));
        }
        ChunkGrid out = ChunkGrid.of(shape, chunks);
        if (out.size() == 0) {
            return Creation.zeros(shape, chunks, x.dtype(), Execution.commonSpec(List.of(x, indices)));
        }
        long n = x.shape()[a];
        if (n == 0) {
            throw new InvalidArgumentException(op + ": every index of " + Layout.describe(indices)
                    + " is out of bounds for axis " + a + " of " + Layout.describe(x) + ", which has length 0");
        }
        AlongAxis g = new AlongAxis(
                a,
                n,
                xs.chunkShape()[a],
                xs.chunks().chunksPerAxis(),
                is.chunks().chunksPerAxis(),
                out,
                x.name(),
                indices.name(),
                indices.dtype() == DType.UINT64);
        long extra = 12L * out.chunkSize() + 4L * (xs.chunks().chunksPerAxis(a) + 1);
        OpNode node = OpNode.blockwise(
                op,
                List.of(is.node(), xs.node()),
                g,
                g,
                new int[] {1, 1},
                extra,
                List.of(x.dtype()),
                List.of(out),
                "each task reads its chunk of indices, then only the chunks of " + x.name() + " along axis " + a
                        + " they point into, one at a time; extra: 12 bytes per output element");
        return CubedArray.of(node.outputs().get(0), Execution.commonSpec(List.of(x, indices)));
    }

    /**
     * The key and chunk function: input 0 is the chunk of indices, input 1 every chunk of {@code x} along the axis
     * (listed, read only when an index points into it).
     */
    private record AlongAxis(
            int axis,
            long length,
            int xChunk,
            long[] xChunksPerAxis,
            long[] indexChunksPerAxis,
            ChunkGrid out,
            String xName,
            String indicesName,
            boolean unsigned64)
            implements KeyFunction, ChunkFunction {
        @Override
        public long[][][] inputKeys(long[] outputCoords) {
            int nd = outputCoords.length;
            long[] indexKey = new long[nd];
            for (int d = 0; d < nd; d++) {
                indexKey[d] = indexChunksPerAxis[d] == 1 ? 0 : outputCoords[d];
            }
            long[][] xKeys = new long[Math.toIntExact(xChunksPerAxis[axis])][];
            for (int k = 0; k < xKeys.length; k++) {
                long[] key = new long[nd];
                for (int d = 0; d < nd; d++) {
                    key[d] = d == axis ? k : xChunksPerAxis[d] == 1 ? 0 : outputCoords[d];
                }
                xKeys[k] = key;
            }
            return new long[][][] {{indexKey}, xKeys};
        }

        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            Chunk ic = args.chunk(0);
            int[] shape = out.chunkShapeAt(outputCoords);
            int nd = shape.length;
            int size = Chunk.elementCount(shape);
            int[] outStride = Chunk.strides(shape);
            int[] iStride = broadcastStrides(ic.shape(), shape);
            long[] positions = new long[size];
            int chunks = Math.toIntExact(xChunksPerAxis[axis]);
            int[] counts = new int[chunks + 1];
            int[] at = new int[nd];
            int flat = 0;
            for (int f = 0; f < size; f++) {
                long v = ic.getLong(flat);
                if (v < 0 && unsigned64) {
                    throw outOfBounds(Long.toUnsignedString(v));
                }
                long t = v < 0 ? v + length : v;
                if (t < 0 || t >= length) {
                    throw outOfBounds(Long.toString(v));
                }
                positions[f] = t;
                counts[(int) (t / xChunk) + 1]++;
                for (int d = nd - 1; d >= 0; d--) {
                    flat += iStride[d];
                    if (++at[d] < shape[d]) {
                        break;
                    }
                    flat -= iStride[d] * shape[d];
                    at[d] = 0;
                }
            }
            for (int k = 0; k < chunks; k++) {
                counts[k + 1] += counts[k];
            }
            int[] order = new int[size];
            int[] next = Arrays.copyOf(counts, chunks);
            for (int f = 0; f < size; f++) {
                order[next[(int) (positions[f] / xChunk)]++] = f;
            }
            Chunk result = null;
            long[] outOffset = out.chunkOffset(outputCoords);
            long[] xShape = args.shape(1);
            for (int k = 0; k < chunks; k++) {
                if (counts[k] == counts[k + 1]) {
                    continue;
                }
                int from = counts[k];
                int to = counts[k + 1];
                // Of a sharded x, only the inner chunks holding the elements taken (the box, else the whole chunk).
                ChunkArgs.Box box = args.box(1, k, () -> need(positions, order, from, to, shape, outOffset, xShape));
                Chunk xc = box.chunk();
                long[] boxOffset = box.offset();
                if (result == null) {
                    result = Chunk.allocate(xc.dtype(), shape);
                }
                int[] xStride = broadcastStrides(xc.shape(), shape);
                int[] base = new int[nd];
                for (int d = 0; d < nd; d++) {
                    // The box's element at the output chunk's first one, along the axes other than the axis (its
                    // only one where x has length 1: broadcast, or an output of length 1 too).
                    base[d] = d == axis || xShape[d] == 1 ? 0 : (int) (outOffset[d] - boxOffset[d]);
                }
                int axisStride = Chunk.strides(xc.shape())[axis];
                int slots = xc.dtype().slotsPerElement();
                for (int j = from; j < to; j++) {
                    int f = order[j];
                    int rest = f;
                    int src = 0;
                    for (int d = 0; d < nd; d++) {
                        int o = rest / outStride[d];
                        rest -= o * outStride[d];
                        if (d != axis) {
                            src += (base[d] + o) * xStride[d];
                        }
                    }
                    src += (int) (positions[f] - boxOffset[axis]) * axisStride;
                    System.arraycopy(xc.data(), src * slots, result.data(), f * slots, slots);
                }
            }
            return new Chunk[] {result};
        }

        /**
         * The elements of {@code x} a task takes of one of its chunks: along the axis the positions {@code
         * order[from..to)} name, along the other axes those of the output chunk (its only one where {@code x} has
         * length 1).
         */
        private ChunkArgs.Need need(
                long[] positions, int[] order, int from, int to, int[] shape, long[] outOffset, long[] xShape) {
            int nd = shape.length;
            long[][] indexes = new long[nd][];
            for (int d = 0; d < nd; d++) {
                if (d == axis) {
                    long[] p = new long[to - from];
                    for (int j = from; j < to; j++) {
                        p[j - from] = positions[order[j]];
                    }
                    indexes[d] = java.util.Arrays.stream(p).sorted().distinct().toArray();
                } else if (xShape[d] == 1) {
                    indexes[d] = new long[] {0};
                } else {
                    indexes[d] = java.util.stream.LongStream.range(outOffset[d], outOffset[d] + shape[d])
                            .toArray();
                }
            }
            return new ChunkArgs.Need(indexes);
        }

        @Override
        public boolean readsAheadWhole(int input) {
            return input != 1; // of x, the boxes its chunk of indices names, known only when the task runs
        }

        /** Strides of a chunk of {@code shape} read as {@code target}: 0 along axes it broadcasts (length 1). */
        private static int[] broadcastStrides(int[] shape, int[] target) {
            int[] s = Chunk.strides(shape);
            for (int d = 0; d < shape.length; d++) {
                if (shape[d] == 1 && target[d] != 1) {
                    s[d] = 0;
                }
            }
            return s;
        }

        private InvalidArgumentException outOfBounds(String value) {
            return new InvalidArgumentException("take_along_axis: index " + value + " in " + indicesName
                    + " is out of bounds for axis " + axis + " of " + xName + " (length " + length + ")");
        }
    }
}
