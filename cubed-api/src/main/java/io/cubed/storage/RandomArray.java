package io.cubed.storage;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.IInfo;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;

/**
 * Random numbers as a virtual array: element {@code i} (its flat C-order index in the whole array) is a function of
 * the seed and {@code i} alone, {@code splitmix64(key + (i + 1)·γ)} with {@code key = mix64(seed ^ stream)} (Vigna's
 * SplitMix64 with its golden-ratio increment γ), so every chunk is generated inside the task that reads it, the values
 * do not depend on the chunking or on which executor or retry computes them, and the whole array in C order is one
 * SplitMix64 sequence. Uniform floats take the top 53 (float64) or 24 (float32) bits; integers in {@code [low, high)}
 * use Lemire's multiply-shift with rejection (further draws for the rare rejected element come from the element's own
 * sub-sequence), so they are unbiased.
 */
public final class RandomArray extends VirtualArray {
    private static final long serialVersionUID = 1L;

    /** SplitMix64's increment: 2^64 / φ. */
    public static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
    /** Stream constant of uniform floats (mixed into the seed). */
    public static final long UNIFORM_STREAM = 0x5555555555555555L;
    /** Stream constant of integers. */
    public static final long INTEGER_STREAM = 0x3333333333333333L;

    private final long key;
    private final boolean integers;
    private final long low;
    private final long range;
    private final long[] strides;

    private RandomArray(String name, ChunkGrid grid, DType dtype, long key, boolean integers, long low, long range) {
        super(name, dtype, grid);
        this.key = key;
        this.integers = integers;
        this.low = low;
        this.range = range;
        long[] shape = grid.shape();
        this.strides = new long[shape.length];
        long s = 1;
        for (int a = shape.length - 1; a >= 0; a--) {
            strides[a] = s;
            s *= shape[a];
        }
    }

    /** Uniform floats in {@code [0, 1)} of {@code dtype} (float32 or float64). */
    public static RandomArray uniform(ChunkGrid grid, DType dtype, long seed) {
        if (dtype != DType.FLOAT64 && dtype != DType.FLOAT32) {
            throw new InvalidArgumentException("random: uniform numbers are float32 or float64, not " + dtype);
        }
        return new RandomArray("random(seed=" + seed + ")", grid, dtype, mix64(seed ^ UNIFORM_STREAM), false, 0, 0);
    }

    /** Integers uniform in {@code [low, high)}, of an integer {@code dtype} that holds both bounds. */
    public static RandomArray integers(ChunkGrid grid, DType dtype, long low, long high, long seed) {
        if (dtype.kind() != DType.Kind.SIGNED && dtype.kind() != DType.Kind.UNSIGNED) {
            throw new InvalidArgumentException("random integers: " + dtype + " is not an integer type");
        }
        if (low >= high) {
            throw new InvalidArgumentException("random integers: low " + low + " must be below high " + high);
        }
        IInfo info = DTypes.iinfo(dtype);
        boolean fits = low >= info.min() && (dtype == DType.UINT64 || high - 1 <= info.max());
        if (!fits) {
            throw new InvalidArgumentException("random integers: [" + low + ", " + high + ") does not fit " + dtype
                    + " (" + info.min() + " to " + info.max() + ")");
        }
        return new RandomArray(
                "random_integers(" + low + ", " + high + ", seed=" + seed + ")",
                grid,
                dtype,
                mix64(seed ^ INTEGER_STREAM),
                true,
                low,
                high - low);
    }

    /** SplitMix64's output function (Stafford's variant 13). */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private long draw(long flat) {
        return mix64(key + (flat + 1) * GOLDEN_GAMMA);
    }

    private long bounded(long flat) {
        long r = draw(flat);
        long hi = Math.multiplyHigh(r, range) + ((r >> 63) & range) + ((range >> 63) & r);
        long lo = r * range;
        if (Long.compareUnsigned(lo, range) < 0) {
            long threshold = Long.remainderUnsigned(-range, range);
            long k = 1;
            while (Long.compareUnsigned(lo, threshold) < 0) {
                r = mix64(draw(flat) ^ mix64(k++ * GOLDEN_GAMMA));
                hi = Math.multiplyHigh(r, range) + ((r >> 63) & range) + ((range >> 63) & r);
                lo = r * range;
            }
        }
        return low + hi;
    }

    @Override
    Chunk generate(long[] offset, int[] shape) {
        Chunk c = Chunk.allocate(dtype(), shape);
        int n = c.size();
        int nd = shape.length;
        int[] at = new int[nd];
        long flat = 0;
        for (int a = 0; a < nd; a++) {
            flat += offset[a] * strides[a];
        }
        for (int i = 0; i < n; i++) {
            if (integers) {
                long v = bounded(flat);
                switch (dtype()) {
                    case INT8, UINT8 -> c.bytes()[i] = (byte) v;
                    case INT16, UINT16 -> c.shorts()[i] = (short) v;
                    case INT32, UINT32 -> c.ints()[i] = (int) v;
                    default -> c.longs()[i] = v;
                }
            } else if (dtype() == DType.FLOAT64) {
                c.doubles()[i] = (draw(flat) >>> 11) * 0x1.0p-53;
            } else {
                c.floats()[i] = (draw(flat) >>> 40) * 0x1.0p-24f;
            }
            for (int a = nd - 1; a >= 0; a--) {
                flat += strides[a];
                if (++at[a] < shape[a]) {
                    break;
                }
                flat -= strides[a] * shape[a];
                at[a] = 0;
            }
        }
        return c;
    }
}
