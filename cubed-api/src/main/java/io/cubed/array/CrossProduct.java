package io.cubed.array;

import io.cubed.chunk.BinaryFunction;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.util.List;
import java.util.Map;

/** The cross product of 3-element vectors along one axis of two arrays ({@code cross}), for {@link LinearAlgebra}. */
final class CrossProduct {
    private CrossProduct() {}

    /** {@link LinearAlgebra#cross(CubedArray, CubedArray, int)}: the vector axis in one chunk, one task per chunk. */
    static CubedArray cross(CubedArray x1, CubedArray x2, int axis) {
        String what = "cross of " + Layout.describe(x1) + " and " + Layout.describe(x2);
        int n = Math.min(x1.ndim(), x2.ndim());
        int fromEnd;
        if (axis < 0 && axis >= -n) {
            fromEnd = -axis;
        } else if (axis >= 0 && axis < n && x1.ndim() == x2.ndim()) {
            fromEnd = n - axis;
        } else {
            throw new InvalidArgumentException(what + ": axis " + axis + " is out of range; it must be in [-" + n
                    + ", -1] (counted from the last axis" + (x1.ndim() == x2.ndim() ? ", or in [0, " + n + ")" : "")
                    + ")");
        }
        DType rt = LinalgChecks.numericType(what, "cross", x1, x2);
        int a1 = x1.ndim() - fromEnd;
        int a2 = x2.ndim() - fromEnd;
        if (x1.shape()[a1] != 3 || x2.shape()[a2] != 3) {
            throw new InvalidArgumentException(what + ": the vector axis " + axis + " must have length 3 in both "
                    + "(it is not broadcast), got " + x1.shape()[a1] + " and " + x2.shape()[a2]);
        }
        Layout.broadcastShape("cross", List.of(x1, x2));
        CubedArray u1 = x1.chunks().chunksPerAxis(a1) > 1 ? Manipulation.rechunk(x1, Map.of(a1, 3)) : x1;
        CubedArray u2 = x2.chunks().chunksPerAxis(a2) > 1 ? Manipulation.rechunk(x2, Map.of(a2, 3)) : x2;
        long e1 = u1.chunks().chunkSize();
        long e2 = u2.chunks().chunkSize();
        long out = ElementwiseOps.chunkElements(List.of(u1, u2));
        // The components of both chunks (one chunk's worth each), the six products and three differences (three output
        // chunks' worth at most), and the kernels' conversions to the promoted type.
        long extra = e1 * x1.dtype().itemSizeBytes()
                + e2 * x2.dtype().itemSizeBytes()
                + 3 * out * rt.itemSizeBytes()
                + io.cubed.chunk.Elementwise.binaryScratchBytes(
                        BinaryFunction.MULTIPLY, x1.dtype(), x2.dtype(), e1, e2, out);
        return Blockwise.mapBlocks(
                "cross",
                new CrossBlocks(fromEnd),
                MapBlocksOptions.builder(rt).extraMemBytes(extra).build(),
                List.of(u1, u2));
    }

    /** The cross product of one chunk of each operand along the axis {@code fromEnd} places from their last axes. */
    private record CrossBlocks(int fromEnd) implements BlockFunction {
        @Override
        public Chunk apply(Chunk[] blocks, long[] blockId) {
            Chunk[] a = components(blocks[0]);
            Chunk[] b = components(blocks[1]);
            Chunk[] c = new Chunk[3];
            for (int i = 0; i < 3; i++) {
                int j = (i + 1) % 3;
                int k = (i + 2) % 3;
                c[i] = io.cubed.chunk.Elementwise.binary(
                        BinaryFunction.SUBTRACT,
                        io.cubed.chunk.Elementwise.binary(BinaryFunction.MULTIPLY, a[j], b[k]),
                        io.cubed.chunk.Elementwise.binary(BinaryFunction.MULTIPLY, a[k], b[j]));
            }
            int[] shape = c[0].shape().clone();
            int axis = shape.length - fromEnd;
            shape[axis] = 3;
            Chunk out = Chunk.allocate(c[0].dtype(), shape);
            int[] at = new int[shape.length];
            for (int i = 0; i < 3; i++) {
                at[axis] = i;
                Chunk.copyRegion(c[i], new int[shape.length], out, at, c[i].shape());
            }
            return out;
        }

        /** The three slices of {@code x} along the vector axis, each keeping that axis with length 1. */
        private Chunk[] components(Chunk x) {
            int axis = x.ndim() - fromEnd;
            int[] shape = x.shape().clone();
            shape[axis] = 1;
            Chunk[] parts = new Chunk[3];
            int[] at = new int[shape.length];
            for (int i = 0; i < 3; i++) {
                parts[i] = Chunk.allocate(x.dtype(), shape);
                at[axis] = i;
                Chunk.copyRegion(x, at, parts[i], new int[shape.length], shape);
            }
            return parts;
        }
    }
}
