package io.cubed.primitive;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A key function and chunk function that assemble each output chunk from elements of one or more inputs chosen axis
 * by axis ("outer" indexing): along every input axis an {@link AxisMap} says which input element index each output
 * index reads ({@code -1}: none, the position keeps the fill value). An input axis may instead be held at one fixed
 * index (squeeze, unstack); output axes no input axis maps from are broadcast. With several inputs one output axis,
 * the selector axis, says which input each position comes from (concat, stack).
 *
 * <p>A task lists the input chunks its output chunk touches and reads them one at a time, copying the part of each
 * it needs (runs along the last axis with {@link System#arraycopy}); so it holds one input chunk and the output chunk,
 * plus index lists of the output chunk's lengths ({@link #extraMemBytes}). Of a stored array that reads boxes smaller
 * than its chunks (a sharded Zarr v3 array: its inner chunks) it reads only the box of each chunk it needs ({@link
 * ChunkArgs#box}). Flip, roll, tile, repeat, pad, broadcast,
 * expand/squeeze, permute, concat and stack are all gathers.
 */
public final class Gather implements KeyFunction, ChunkFunction, CarriedData {
    private static final long serialVersionUID = 1L;

    private final DType dtype;
    private final ChunkGrid out;
    private final ChunkGrid[] in;
    private final int[][] outAxis;
    private final long[][] fixed;
    private final AxisMap[][] maps;
    private final int selectorAxis;
    private final AxisMap selector;
    private final Scalar fill;

    private Gather(Builder b) {
        this.dtype = b.dtype;
        this.out = b.out;
        this.in = b.in.toArray(new ChunkGrid[0]);
        this.outAxis = b.outAxis.toArray(new int[0][]);
        this.fixed = b.fixed.toArray(new long[0][]);
        this.maps = b.maps.toArray(new AxisMap[0][]);
        this.selectorAxis = b.selectorAxis;
        this.selector = b.selector;
        this.fill = b.fill;
    }

    /** A gather producing {@code dtype} on the grid {@code out}; add inputs in the operation's input order. */
    public static Builder builder(DType dtype, ChunkGrid out) {
        return new Builder(dtype, out);
    }

    /** Builder of a {@link Gather}. */
    public static final class Builder {
        private final DType dtype;
        private final ChunkGrid out;
        private final List<ChunkGrid> in = new ArrayList<>();
        private final List<int[]> outAxis = new ArrayList<>();
        private final List<long[]> fixed = new ArrayList<>();
        private final List<AxisMap[]> maps = new ArrayList<>();
        private int selectorAxis = -1;
        private AxisMap selector;
        private Scalar fill;

        private Builder(DType dtype, ChunkGrid out) {
            this.dtype = dtype;
            this.out = out;
        }

        /**
         * An input on {@code grid}: input axis {@code i} reads output axis {@code outAxis[i]} through {@code maps[i]},
         * or, where {@code outAxis[i]} is -1, always index {@code fixed[i]}. Each output axis is read by at most one
         * axis of an input.
         */
        public Builder input(ChunkGrid grid, int[] outAxis, AxisMap[] maps, long[] fixed) {
            int nd = grid.ndim();
            if (outAxis.length != nd || maps.length != nd || fixed.length != nd) {
                throw new InvalidArgumentException("gather: input " + in.size() + " of rank " + nd + " needs " + nd
                        + " output axes, maps and fixed indexes");
            }
            boolean[] seen = new boolean[out.ndim()];
            for (int i = 0; i < nd; i++) {
                int o = outAxis[i];
                if (o >= 0) {
                    if (o >= out.ndim() || seen[o] || maps[i] == null) {
                        throw new InvalidArgumentException("gather: input " + in.size() + " axis " + i
                                + " reads output axis " + o + ", which is outside the output, read twice or unmapped");
                    }
                    seen[o] = true;
                } else if (fixed[i] < 0 || fixed[i] >= grid.shape(i)) {
                    throw new InvalidArgumentException("gather: fixed index " + fixed[i] + " is outside axis " + i
                            + " of length " + grid.shape(i));
                }
            }
            in.add(grid);
            this.outAxis.add(outAxis.clone());
            this.maps.add(maps.clone());
            this.fixed.add(fixed.clone());
            return this;
        }

        /** With several inputs: position {@code j} of output axis {@code axis} comes from input {@code map.index(j)}. */
        public Builder selector(int axis, AxisMap map) {
            if (axis < 0 || axis >= out.ndim()) {
                throw new InvalidArgumentException("gather: selector axis " + axis + " is outside the output");
            }
            this.selectorAxis = axis;
            this.selector = map;
            return this;
        }

        /** The value of output positions no input element maps to (padding); without it every position is read. */
        public Builder fill(Scalar value) {
            this.fill = value;
            return this;
        }

        public Gather build() {
            if (in.isEmpty()) {
                throw new InvalidArgumentException("gather needs at least one input");
            }
            if (in.size() > 1 && selector == null) {
                throw new InvalidArgumentException("gather of " + in.size() + " inputs needs a selector axis");
            }
            return new Gather(this);
        }
    }

    /** Number of inputs. */
    public int inputs() {
        return in.length;
    }

    /**
     * Working memory of a task beyond its input and output chunks, in bytes: the list of input chunk keys (32 bytes
     * plus {@code 24 + 8·ndim} per key, for an upper bound of the chunks an output chunk touches) and the index lists
     * (12 bytes per output position per input axis, 8 per output position per output axis).
     */
    /**
     * Bytes of the lists this gather carries inside its tasks (its key and chunk function): take's index lists and a
     * concatenation's offsets, held whole by every JVM running one of its tasks.
     */
    @Override
    public long carriedBytes() {
        long total = selector == null ? 0 : selector.carriedBytes();
        for (AxisMap[] m : maps) {
            for (AxisMap a : m) {
                total += a == null ? 0 : a.carriedBytes();
            }
        }
        return total;
    }

    public long extraMemBytes() {
        int[] len = out.chunkShape();
        long total = 0;
        for (int t = 0; t < in.length; t++) {
            long fan = 1;
            for (int i = 0; i < in[t].ndim(); i++) {
                int o = outAxis[t][i];
                if (o >= 0) {
                    fan = Math.multiplyExact(
                            fan, maps[t][i].maxChunks(len[o], in[t].chunkShape(i), in[t].chunksPerAxis(i)));
                    total += 12L * len[o];
                }
            }
            total += 32 + fan * (24 + 8L * in[t].ndim());
        }
        for (int l : len) {
            total += 8L * l;
        }
        return total;
    }

    /** The positions of one input axis that an output chunk reads: local output positions and input indexes. */
    private static final class AxisPlan {
        final int[] pos;
        final long[] idx;
        final long[] chunks;

        AxisPlan(int[] pos, long[] idx, long[] chunks) {
            this.pos = pos;
            this.idx = idx;
            this.chunks = chunks;
        }
    }

    private AxisPlan[] plan(int t, long[] outCoords) {
        long[] off = out.chunkOffset(outCoords);
        int[] len = out.chunkShapeAt(outCoords);
        int nd = in[t].ndim();
        AxisPlan[] plans = new AxisPlan[nd];
        for (int i = 0; i < nd; i++) {
            int c = in[t].chunkShape(i);
            int o = outAxis[t][i];
            if (o < 0) {
                plans[i] = new AxisPlan(null, null, new long[] {fixed[t][i] / c});
                continue;
            }
            int[] pos = new int[len[o]];
            long[] idx = new long[len[o]];
            int n = 0;
            for (int p = 0; p < len[o]; p++) {
                long j = off[o] + p;
                if (o == selectorAxis && selector.index(j) != t) {
                    continue;
                }
                long q = maps[t][i].index(j);
                if (q < 0) {
                    continue;
                }
                pos[n] = p;
                idx[n++] = q;
            }
            long[] ch = new long[n];
            for (int k = 0; k < n; k++) {
                ch[k] = idx[k] / c;
            }
            plans[i] = new AxisPlan(Arrays.copyOf(pos, n), Arrays.copyOf(idx, n), distinct(ch));
        }
        return plans;
    }

    private static long[] distinct(long[] values) {
        if (values.length == 0) {
            return values;
        }
        long[] v = values.clone();
        Arrays.sort(v);
        int n = 1;
        for (int k = 1; k < v.length; k++) {
            if (v[k] != v[n - 1]) {
                v[n++] = v[k];
            }
        }
        return Arrays.copyOf(v, n);
    }

    /** Whether input {@code t} contributes to this output chunk along the selector axis, when it lacks that axis. */
    private int[] selectorPositions(int t, long[] outCoords) {
        long off = out.chunkOffset(outCoords)[selectorAxis];
        int len = out.chunkShapeAt(outCoords)[selectorAxis];
        int[] pos = new int[len];
        int n = 0;
        for (int p = 0; p < len; p++) {
            if (selector.index(off + p) == t) {
                pos[n++] = p;
            }
        }
        return Arrays.copyOf(pos, n);
    }

    private boolean readsSelector(int t) {
        for (int o : outAxis[t]) {
            if (o == selectorAxis) {
                return true;
            }
        }
        return false;
    }

    private static long[][] product(AxisPlan[] plans) {
        long total = 1;
        for (AxisPlan p : plans) {
            total *= p.chunks.length;
        }
        long[][] keys = new long[Math.toIntExact(total)][];
        for (int k = 0; k < total; k++) {
            long[] key = new long[plans.length];
            long rest = k;
            for (int i = plans.length - 1; i >= 0; i--) {
                int n = plans[i].chunks.length;
                key[i] = plans[i].chunks[(int) (rest % n)];
                rest /= n;
            }
            keys[k] = key;
        }
        return keys;
    }

    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        long[][][] keys = new long[in.length][][];
        for (int t = 0; t < in.length; t++) {
            if (selectorAxis >= 0 && !readsSelector(t) && selectorPositions(t, outputCoords).length == 0) {
                keys[t] = new long[0][];
            } else {
                keys[t] = product(plan(t, outputCoords));
            }
        }
        return keys;
    }

    @Override
    public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
        int[] shape = out.chunkShapeAt(outputCoords);
        Chunk result = fill == null ? Chunk.allocate(dtype, shape) : Chunk.full(dtype, fill, shape);
        for (int t = 0; t < in.length; t++) {
            int[] selPos = null;
            if (selectorAxis >= 0 && !readsSelector(t)) {
                selPos = selectorPositions(t, outputCoords);
                if (selPos.length == 0) {
                    continue;
                }
            }
            AxisPlan[] plans = plan(t, outputCoords);
            long[][] keys = product(plans);
            for (int k = 0; k < keys.length; k++) {
                // Only the box of the chunk this output chunk reads: a sharded array's inner chunks holding it.
                int input = t;
                long[] key = keys[k];
                ChunkArgs.Box box = args.box(t, k, () -> needed(input, key, plans));
                copy(t, box.chunk(), box.offset(), keys[k], plans, selPos, result);
            }
        }
        return new Chunk[] {result};
    }

    /**
     * The elements the task of output chunk {@code outputCoords} reads of each input chunk it lists ({@link
     * #inputKeys}, in that order), per input, per chunk. The task reads each chunk's box of them ({@link
     * ChunkArgs#box}); reads started ahead of the task are of those boxes ({@link BlockwiseTask#readAhead}).
     */
    ChunkArgs.Need[][] neededElements(long[] outputCoords) {
        ChunkArgs.Need[][] needed = new ChunkArgs.Need[in.length][];
        for (int t = 0; t < in.length; t++) {
            if (selectorAxis >= 0 && !readsSelector(t) && selectorPositions(t, outputCoords).length == 0) {
                needed[t] = new ChunkArgs.Need[0];
                continue;
            }
            AxisPlan[] plans = plan(t, outputCoords);
            long[][] keys = product(plans);
            needed[t] = new ChunkArgs.Need[keys.length];
            for (int k = 0; k < keys.length; k++) {
                needed[t][k] = needed(t, keys[k], plans);
            }
        }
        return needed;
    }

    /**
     * The elements of input {@code t}'s chunk at {@code key} that an output chunk planned as {@code plans} reads: per
     * input axis the indexes, sorted.
     */
    private ChunkArgs.Need needed(int t, long[] key, AxisPlan[] plans) {
        int nd = key.length;
        long[][] indexes = new long[nd][];
        for (int i = 0; i < nd; i++) {
            int ci = in[t].chunkShape(i);
            if (outAxis[t][i] < 0) {
                indexes[i] = new long[] {fixed[t][i]};
                continue;
            }
            long[] inChunk = new long[plans[i].idx.length];
            int n = 0;
            for (long q : plans[i].idx) {
                if (q / ci == key[i]) {
                    inChunk[n++] = q;
                }
            }
            indexes[i] = distinct(Arrays.copyOf(inChunk, n));
        }
        return new ChunkArgs.Need(indexes);
    }

    /**
     * Copies every element of input {@code t}'s chunk at {@code key} that the output chunk reads from {@code c}, which
     * holds that chunk, or the box of it that holds those elements, from element {@code cOffset} of the input.
     */
    private void copy(int t, Chunk c, long[] cOffset, long[] key, AxisPlan[] plans, int[] selPos, Chunk result) {
        int m = result.ndim();
        int[] shape = result.shape();
        int[][] dst = new int[m][];
        int[][] src = new int[m][];
        int[] srcStride = Chunk.strides(c.shape());
        int base = 0;
        for (int i = 0; i < plans.length; i++) {
            int ci = in[t].chunkShape(i);
            int o = outAxis[t][i];
            if (o < 0) {
                base += (int) (fixed[t][i] - cOffset[i]) * srcStride[i];
                continue;
            }
            AxisPlan p = plans[i];
            int n = 0;
            int[] d = new int[p.pos.length];
            int[] s = new int[p.pos.length];
            for (int k = 0; k < p.pos.length; k++) {
                if (p.idx[k] / ci == key[i]) {
                    d[n] = p.pos[k];
                    s[n++] = (int) (p.idx[k] - cOffset[i]) * srcStride[i];
                }
            }
            dst[o] = Arrays.copyOf(d, n);
            src[o] = Arrays.copyOf(s, n);
        }
        for (int o = 0; o < m; o++) {
            if (dst[o] == null) {
                int[] all = o == selectorAxis && selPos != null ? selPos : range(shape[o]);
                dst[o] = all;
                src[o] = new int[all.length];
            }
            if (dst[o].length == 0) {
                return;
            }
        }
        int slots = dtype.slotsPerElement();
        Object from = c.data();
        Object to = result.data();
        if (m == 0) {
            System.arraycopy(from, base * slots, to, 0, slots);
            return;
        }
        int[] dstStride = Chunk.strides(shape);
        int[] at = new int[m - 1];
        int[] innerD = dst[m - 1];
        int[] innerS = src[m - 1];
        while (true) {
            int d0 = 0;
            int s0 = base;
            for (int o = 0; o < m - 1; o++) {
                d0 += dst[o][at[o]] * dstStride[o];
                s0 += src[o][at[o]];
            }
            int k = 0;
            while (k < innerD.length) {
                int run = 1;
                while (k + run < innerD.length
                        && innerD[k + run] == innerD[k] + run
                        && innerS[k + run] == innerS[k] + run) {
                    run++;
                }
                System.arraycopy(from, (s0 + innerS[k]) * slots, to, (d0 + innerD[k]) * slots, run * slots);
                k += run;
            }
            int axis = m - 2;
            while (axis >= 0) {
                if (++at[axis] < dst[axis].length) {
                    break;
                }
                at[axis] = 0;
                axis--;
            }
            if (axis < 0) {
                return;
            }
        }
    }

    private static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }
}
