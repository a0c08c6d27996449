package io.cubed.array;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.PlanException;
import io.cubed.plan.OpNode;
import io.cubed.primitive.IsIn;
import java.util.List;

/**
 * Set functions of the Array API: {@link #isin}. The {@code unique_*} functions have data-dependent shapes and are
 * refused with the reason.
 */
public final class Sets {
    private Sets() {}

    /**
     * Whether each element of {@code x1} equals some element of {@code x2} ({@code isin}; with {@code invert}, whether
     * it equals none), bool in {@code x1}'s shape and chunks. Compared in the promoted type; NaN equals nothing. One
     * task per chunk of {@code x1} reads the chunks of {@code x2} one at a time, so every task reads all of {@code x2}.
     */
    public static CubedArray isin(CubedArray x1, CubedArray x2, boolean invert) {
        DType common = Searching.ordered("isin", x1, x2);
        if (x2.size() == 0 || x1.size() == 0) {
            return Creation.full(x1.shape(), Scalar.ofBoolean(invert), x1.chunkShape(), DType.BOOL, x1.spec());
        }
        IsIn f = new IsIn(x2.chunks(), common, invert);
        long extra =
                8 * (x1.chunks().chunkSize() + x2.chunks().chunkSize()) + 32 + x2.numChunks() * (24 + 8L * x2.ndim());
        OpNode op = OpNode.blockwise(
                "isin",
                List.of(x1.node(), x2.node()),
                f,
                f,
                new int[] {1, 1},
                extra,
                List.of(DType.BOOL),
                List.of(x1.chunks()));
        return CubedArray.of(op.outputs().get(0), Execution.commonSpec(List.of(x1, x2)));
    }

    /** {@link #isin(CubedArray, CubedArray, boolean)} with {@code invert} false. */
    public static CubedArray isin(CubedArray x1, CubedArray x2) {
        return isin(x1, x2, false);
    }

    /** Refused ({@code unique_values}): see {@link #uniqueAll}. */
    public static CubedArray uniqueValues(CubedArray x) {
        throw dataDependent("unique_values", x);
    }

    /** Refused ({@code unique_counts}): see {@link #uniqueAll}. */
    public static List<CubedArray> uniqueCounts(CubedArray x) {
        throw dataDependent("unique_counts", x);
    }

    /** Refused ({@code unique_inverse}): see {@link #uniqueAll}. */
    public static List<CubedArray> uniqueInverse(CubedArray x) {
        throw dataDependent("unique_inverse", x);
    }

    /**
     * Refused ({@code unique_all}): the number of distinct values, hence the output shape, is known only after reading
     * the data, and every operation of a plan needs its output shape and chunks before anything runs.
     */
    public static List<CubedArray> uniqueAll(CubedArray x) {
        throw dataDependent("unique_all", x);
    }

    private static PlanException dataDependent(String name, CubedArray x) {
        return new PlanException(name + " of " + x.name() + ": the output shape depends on the data (the number of "
                + "distinct values), but every operation of a plan needs its output shape and chunks before anything "
                + "runs; compute the result (it is usually small) or use isin against known values");
    }
}
