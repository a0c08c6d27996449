package io.cubed.array;

import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.primitive.AxisMap;
import io.cubed.primitive.Gather;
import io.cubed.primitive.Unstack;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The manipulation functions that move elements without computing on them, each one {@link Gather} operation: a task
 * per output chunk reads the input chunks that chunk needs, one at a time. Public entry points are in
 * {@link Manipulation}.
 */
final class Layout {
    private Layout() {}

    static String describe(CubedArray x) {
        return x.name() + " of shape " + Arrays.toString(x.shape());
    }

    /** One gather operation named {@code name} over {@code inputs}, giving {@code grid}. */
    static CubedArray gather(String name, Gather g, List<CubedArray> inputs, DType dtype, ChunkGrid grid) {
        Spec spec = Execution.commonSpec(inputs);
        List<ArrayNode> nodes = new ArrayList<>();
        for (CubedArray a : inputs) {
            nodes.add(a.node());
        }
        int[] held = new int[inputs.size()];
        Arrays.fill(held, 1);
        OpNode op = OpNode.blockwise(name, nodes, g, g, held, g.extraMemBytes(), List.of(dtype), List.of(grid));
        return CubedArray.of(op.outputs().get(0), spec);
    }

    /** A single-input gather in which input axis {@code i} reads output axis {@code outAxis[i]} through maps. */
    static CubedArray single(
            String name, CubedArray x, ChunkGrid grid, int[] outAxis, AxisMap[] maps, long[] fixed, Scalar fill) {
        Gather.Builder b = Gather.builder(x.dtype(), grid).input(x.chunks(), outAxis, maps, fixed);
        if (fill != null) {
            b.fill(fill);
        }
        return gather(name, b.build(), List.of(x), x.dtype(), grid);
    }

    private static AxisMap[] identities(long[] shape) {
        AxisMap[] m = new AxisMap[shape.length];
        for (int i = 0; i < m.length; i++) {
            m[i] = AxisMap.identity(shape[i]);
        }
        return m;
    }

    static ChunkGrid grid(long[] shape, int[] chunks) {
        int[] c = chunks.clone();
        for (int i = 0; i < c.length; i++) {
            c[i] = (int) Math.max(1, Math.min(c[i], Math.max(1, Math.min(shape[i], Integer.MAX_VALUE - 8))));
        }
        return ChunkGrid.of(shape, c);
    }

    // ---- broadcasting ----

    /** The NumPy broadcast of {@code shapes}; {@code op} and the arrays name the failure. */
    static long[] broadcastShape(String op, List<CubedArray> arrays) {
        int nd = 0;
        for (CubedArray a : arrays) {
            nd = Math.max(nd, a.ndim());
        }
        long[] shape = new long[nd];
        Arrays.fill(shape, 1);
        CubedArray[] from = new CubedArray[nd];
        for (CubedArray a : arrays) {
            long[] s = a.shape();
            for (int i = 0; i < s.length; i++) {
                int o = nd - s.length + i;
                if (s[i] == shape[o] || s[i] == 1) {
                    continue;
                }
                if (shape[o] != 1) {
                    throw new InvalidArgumentException(op + ": shapes " + Arrays.toString(from[o].shape()) + " of "
                            + from[o].name() + " and " + Arrays.toString(s) + " of " + a.name()
                            + " cannot be broadcast together (axis " + o + ": " + shape[o] + " vs " + s[i] + ")");
                }
                shape[o] = s[i];
                from[o] = a;
            }
        }
        return shape;
    }

    static CubedArray broadcastTo(CubedArray x, long[] shape, int[] chunksOrNull) {
        int nd = shape.length;
        int lead = nd - x.ndim();
        long[] xs = x.shape();
        if (lead < 0) {
            throw new InvalidArgumentException("broadcast_to: cannot broadcast " + describe(x) + " to shape "
                    + Arrays.toString(shape) + ", which has fewer axes");
        }
        for (int i = 0; i < xs.length; i++) {
            if (xs[i] != 1 && xs[i] != shape[lead + i]) {
                throw new InvalidArgumentException("broadcast_to: cannot broadcast " + describe(x) + " to shape "
                        + Arrays.toString(shape) + " (axis " + i + ": " + xs[i] + " vs " + shape[lead + i] + ")");
            }
        }
        int[] chunks;
        if (chunksOrNull == null) {
            // As Cubed: new axes and stretched axes get chunks of 1; the others keep x's chunks.
            chunks = new int[nd];
            Arrays.fill(chunks, 1);
            for (int i = 0; i < xs.length; i++) {
                if (xs[i] > 1) {
                    chunks[lead + i] = x.chunkShape()[i];
                }
            }
        } else {
            chunks = Chunking.grid(shape, chunksOrNull, "broadcast_to of " + x.name())
                    .chunkShape();
        }
        ChunkGrid grid = grid(shape, chunks);
        if (Arrays.equals(shape, xs) && grid.equals(x.chunks())) {
            return x;
        }
        int[] outAxis = new int[xs.length];
        AxisMap[] maps = new AxisMap[xs.length];
        for (int i = 0; i < xs.length; i++) {
            outAxis[i] = lead + i;
            maps[i] = xs[i] == shape[lead + i] ? AxisMap.identity(xs[i]) : AxisMap.affine(0, 0, 1);
        }
        return single("broadcast_to", x, grid, outAxis, maps, new long[xs.length], null);
    }

    static List<CubedArray> broadcastArrays(List<CubedArray> arrays) {
        if (arrays.isEmpty()) {
            return List.of();
        }
        long[] shape = broadcastShape("broadcast_arrays", arrays);
        int nd = shape.length;
        int[] chunks = new int[nd];
        for (int o = 0; o < nd; o++) {
            int c = Integer.MAX_VALUE;
            for (CubedArray a : arrays) {
                int i = o - (nd - a.ndim());
                if (i >= 0 && a.shape()[i] == shape[o] && shape[o] != 1) {
                    c = Math.min(c, a.chunkShape()[i]);
                }
            }
            chunks[o] = c == Integer.MAX_VALUE ? 1 : c;
        }
        List<CubedArray> out = new ArrayList<>();
        for (CubedArray a : arrays) {
            out.add(broadcastTo(a, shape, chunks));
        }
        return out;
    }

    // ---- axes ----

    static CubedArray expandDims(CubedArray x, int[] axes) {
        int nd = x.ndim() + axes.length;
        int[] norm = Axes.normalizeAll("expand_dims", x.name(), axes, nd);
        boolean[] isNew = new boolean[nd];
        for (int a : norm) {
            isNew[a] = true;
        }
        long[] shape = new long[nd];
        int[] chunks = new int[nd];
        int[] outAxis = new int[x.ndim()];
        int i = 0;
        for (int o = 0; o < nd; o++) {
            if (isNew[o]) {
                shape[o] = 1;
                chunks[o] = 1;
            } else {
                shape[o] = x.shape()[i];
                chunks[o] = x.chunkShape()[i];
                outAxis[i++] = o;
            }
        }
        if (axes.length == 0) {
            return x;
        }
        return single(
                "expand_dims",
                x,
                ChunkGrid.of(shape, chunks),
                outAxis,
                identities(x.shape()),
                new long[x.ndim()],
                null);
    }

    static CubedArray squeeze(CubedArray x, int[] axes) {
        int[] norm = Axes.normalizeAll("squeeze", x.name(), axes, x.ndim());
        if (norm.length == 0) {
            return x;
        }
        boolean[] drop = new boolean[x.ndim()];
        for (int k = 0; k < norm.length; k++) {
            if (x.shape()[norm[k]] != 1) {
                throw new InvalidArgumentException("squeeze: axis " + axes[k] + " of " + describe(x) + " has length "
                        + x.shape()[norm[k]] + "; only axes of length 1 can be squeezed");
            }
            drop[norm[k]] = true;
        }
        int nd = x.ndim() - norm.length;
        long[] shape = new long[nd];
        int[] chunks = new int[nd];
        int[] outAxis = new int[x.ndim()];
        int o = 0;
        for (int i = 0; i < x.ndim(); i++) {
            if (drop[i]) {
                outAxis[i] = -1;
            } else {
                shape[o] = x.shape()[i];
                chunks[o] = x.chunkShape()[i];
                outAxis[i] = o++;
            }
        }
        return single(
                "squeeze", x, ChunkGrid.of(shape, chunks), outAxis, identities(x.shape()), new long[x.ndim()], null);
    }

    static CubedArray permuteDims(CubedArray x, int[] axes) {
        int nd = x.ndim();
        if (axes.length != nd) {
            throw new InvalidArgumentException("permute_dims: axes " + Arrays.toString(axes) + " do not match "
                    + describe(x) + ": need a permutation of its " + nd + " axes");
        }
        int[] norm = Axes.normalizeAll("permute_dims", x.name(), axes, nd);
        if (Arrays.equals(norm, Axes.range(nd))) {
            return x;
        }
        long[] shape = new long[nd];
        int[] chunks = new int[nd];
        int[] outAxis = new int[nd];
        for (int o = 0; o < nd; o++) {
            shape[o] = x.shape()[norm[o]];
            chunks[o] = x.chunkShape()[norm[o]];
            outAxis[norm[o]] = o;
        }
        return single(
                "permute_dims", x, ChunkGrid.of(shape, chunks), outAxis, identities(x.shape()), new long[nd], null);
    }

    static CubedArray moveaxis(CubedArray x, int[] source, int[] destination) {
        int nd = x.ndim();
        int[] src = Axes.normalizeAll("moveaxis", x.name(), source, nd);
        int[] dst = Axes.normalizeAll("moveaxis", x.name(), destination, nd);
        if (src.length != dst.length) {
            throw new InvalidArgumentException("moveaxis: source " + Arrays.toString(source) + " and destination "
                    + Arrays.toString(destination) + " for " + x.name() + " must have the same number of axes");
        }
        List<Integer> order = new ArrayList<>();
        for (int a = 0; a < nd; a++) {
            boolean moved = false;
            for (int s : src) {
                moved |= s == a;
            }
            if (!moved) {
                order.add(a);
            }
        }
        Integer[] idx = new Integer[dst.length];
        for (int k = 0; k < idx.length; k++) {
            idx[k] = k;
        }
        Arrays.sort(idx, (p, q) -> Integer.compare(dst[p], dst[q]));
        for (int k : idx) {
            order.add(dst[k], src[k]);
        }
        return permuteDims(x, order.stream().mapToInt(Integer::intValue).toArray());
    }

    // ---- moving elements along axes ----

    static CubedArray flip(CubedArray x, int[] axesOrNull) {
        int nd = x.ndim();
        int[] axes = axesOrNull == null ? Axes.range(nd) : Axes.normalizeAll("flip", x.name(), axesOrNull, nd);
        if (axes.length == 0) {
            return x;
        }
        AxisMap[] maps = identities(x.shape());
        for (int a : axes) {
            long n = x.shape()[a];
            maps[a] = AxisMap.affine(n - 1, -1, n);
        }
        return single("flip", x, x.chunks(), Axes.range(nd), maps, new long[nd], null);
    }

    static CubedArray roll(CubedArray x, long[] shifts, int[] axes) {
        int nd = x.ndim();
        if (shifts.length != axes.length) {
            throw new InvalidArgumentException("roll: " + shifts.length + " shifts " + Arrays.toString(shifts)
                    + " for " + axes.length + " axes " + Arrays.toString(axes) + " of " + x.name()
                    + "; give one shift per axis");
        }
        long[] total = new long[nd];
        for (int k = 0; k < axes.length; k++) {
            int a = Axes.normalize("roll", x.name(), axes[k], nd);
            total[a] += shifts[k];
        }
        AxisMap[] maps = identities(x.shape());
        boolean any = false;
        for (int a = 0; a < nd; a++) {
            long n = x.shape()[a];
            if (n > 0 && Math.floorMod(total[a], n) != 0) {
                maps[a] = AxisMap.cyclic(-total[a], n);
                any = true;
            }
        }
        if (!any) {
            return x;
        }
        return single("roll", x, x.chunks(), Axes.range(nd), maps, new long[nd], null);
    }

    static CubedArray repeat(CubedArray x, long repeats, int axisGiven) {
        if (repeats < 0) {
            throw new InvalidArgumentException(
                    "repeat: repeats must not be negative, got " + repeats + " for " + x.name());
        }
        int nd = x.ndim();
        int axis = Axes.normalize("repeat", x.name(), axisGiven, nd);
        long[] shape = x.shape();
        shape[axis] = Math.multiplyExact(shape[axis], repeats);
        ChunkGrid grid = grid(shape, x.chunkShape());
        if (repeats == 1) {
            return x;
        }
        if (Axes.product(shape) == 0) {
            return Creation.empty(shape, grid.chunkShape(), x.dtype(), x.spec());
        }
        AxisMap[] maps = identities(x.shape());
        maps[axis] = AxisMap.repeat(repeats);
        return single("repeat", x, grid, Axes.range(nd), maps, new long[nd], null);
    }

    static CubedArray tile(CubedArray x, long[] repetitions) {
        for (long r : repetitions) {
            if (r < 0) {
                throw new InvalidArgumentException("tile: repetitions " + Arrays.toString(repetitions) + " for "
                        + x.name() + " must not be negative");
            }
        }
        int nd = Math.max(x.ndim(), repetitions.length);
        int lead = nd - x.ndim();
        long[] reps = new long[nd];
        Arrays.fill(reps, 1);
        System.arraycopy(repetitions, 0, reps, nd - repetitions.length, repetitions.length);
        long[] shape = new long[nd];
        int[] chunks = new int[nd];
        Arrays.fill(chunks, 1);
        for (int o = 0; o < nd; o++) {
            long len = o < lead ? 1 : x.shape()[o - lead];
            shape[o] = Math.multiplyExact(len, reps[o]);
            if (o >= lead) {
                chunks[o] = x.chunkShape()[o - lead];
            }
        }
        ChunkGrid grid = grid(shape, chunks);
        if (Axes.product(shape) == 0) {
            return Creation.empty(shape, grid.chunkShape(), x.dtype(), x.spec());
        }
        int[] outAxis = new int[x.ndim()];
        AxisMap[] maps = new AxisMap[x.ndim()];
        boolean any = lead > 0;
        for (int i = 0; i < x.ndim(); i++) {
            outAxis[i] = lead + i;
            long n = x.shape()[i];
            maps[i] = reps[lead + i] == 1 ? AxisMap.identity(n) : AxisMap.cyclic(0, n);
            any |= reps[lead + i] != 1;
        }
        if (!any) {
            return x;
        }
        return single("tile", x, grid, outAxis, maps, new long[x.ndim()], null);
    }

    static CubedArray pad(CubedArray x, long[][] padWidth, PadMode mode, Scalar value, int[] chunksOrNull) {
        int nd = x.ndim();
        if (padWidth.length != nd && padWidth.length != 1) {
            throw new InvalidArgumentException("pad: pad width has " + padWidth.length + " entries for " + describe(x)
                    + "; give one (before, after) pair per axis, or one for every axis");
        }
        long[] shape = x.shape();
        long[] before = new long[nd];
        AxisMap[] maps = new AxisMap[nd];
        boolean any = false;
        for (int a = 0; a < nd; a++) {
            long[] w = padWidth.length == 1 ? padWidth[0] : padWidth[a];
            if (w.length != 2 || w[0] < 0 || w[1] < 0) {
                throw new InvalidArgumentException("pad: pad width " + Arrays.toString(w) + " for axis " + a + " of "
                        + describe(x) + " must be two non-negative lengths (before, after)");
            }
            long n = x.shape()[a];
            before[a] = w[0];
            shape[a] = n + w[0] + w[1];
            any |= w[0] != 0 || w[1] != 0;
            if (mode == PadMode.SYMMETRIC) {
                if (n == 0 && shape[a] > 0) {
                    throw new InvalidArgumentException(
                            "pad: axis " + a + " of " + describe(x) + " is empty and cannot be padded symmetrically");
                }
                maps[a] = n == 0 ? AxisMap.identity(0) : AxisMap.symmetric(w[0], n);
            } else {
                maps[a] = AxisMap.affine(-w[0], 1, n);
            }
        }
        Scalar fill = null;
        if (mode == PadMode.CONSTANT) {
            fill = value == null ? Scalar.zero() : value;
            try {
                DTypes.resultTypeWithScalar(x.dtype(), fill.form());
            } catch (InvalidArgumentException e) {
                throw new InvalidArgumentException(
                        "pad: constant value " + fill + " does not fit " + describe(x) + " of type " + x.dtype(), e);
            }
            ElementwiseOps.checkScalarFits("pad", x, fill, x.dtype());
        }
        int[] chunks = chunksOrNull == null
                ? x.chunkShape()
                : Chunking.grid(shape, chunksOrNull, "pad of " + x.name()).chunkShape();
        ChunkGrid grid = grid(shape, chunks);
        if (!any && grid.equals(x.chunks())) {
            return x;
        }
        if (Axes.product(shape) == 0) {
            return Creation.empty(shape, grid.chunkShape(), x.dtype(), x.spec());
        }
        return single("pad", x, grid, Axes.range(nd), maps, new long[nd], fill);
    }

    // ---- joining ----

    private static List<CubedArray> promoted(String op, List<CubedArray> arrays) {
        DType t;
        try {
            t = DataTypes.resultType(arrays.toArray());
        } catch (InvalidArgumentException e) {
            List<String> names = new ArrayList<>();
            for (CubedArray a : arrays) {
                names.add(a.name() + " " + a.dtype());
            }
            throw new InvalidArgumentException(
                    op + ": the Array API standard defines no promotion of " + names + "; cast them with astype", e);
        }
        List<CubedArray> out = new ArrayList<>();
        for (CubedArray a : arrays) {
            out.add(Elementwise.astype(a, t));
        }
        return out;
    }

    static CubedArray concat(List<CubedArray> arraysGiven, Integer axisOrNull, int[] chunksOrNull) {
        if (arraysGiven.isEmpty()) {
            throw new InvalidArgumentException("concat needs at least one array");
        }
        List<CubedArray> arrays = promoted("concat", arraysGiven);
        int axisGiven = 0;
        if (axisOrNull == null) {
            List<CubedArray> flat = new ArrayList<>();
            for (CubedArray a : arrays) {
                flat.add(Reshape.reshape(a, new long[] {-1}));
            }
            arrays = flat;
        } else {
            axisGiven = axisOrNull;
        }
        CubedArray first = arrays.get(0);
        int nd = first.ndim();
        if (nd == 0) {
            throw new InvalidArgumentException("concat: " + first.name() + " is 0-dimensional; zero-dimensional "
                    + "arrays cannot be concatenated");
        }
        int axis = Axes.normalize("concat", first.name(), axisGiven, nd);
        long[] offsets = new long[arrays.size() + 1];
        long[] shape = first.shape();
        int[] chunks = first.chunkShape();
        chunks[axis] = 0;
        for (int t = 0; t < arrays.size(); t++) {
            CubedArray a = arrays.get(t);
            if (a.ndim() != nd) {
                throw new InvalidArgumentException(
                        "concat: " + describe(a) + " has " + a.ndim() + " axes but " + describe(first) + " has " + nd);
            }
            for (int i = 0; i < nd; i++) {
                if (i != axis && a.shape()[i] != shape[i]) {
                    throw new InvalidArgumentException("concat: " + describe(a) + " and " + describe(first)
                            + " differ on axis " + i + "; all axes but the concatenation axis " + axis
                            + " must match");
                }
                if (i == axis) {
                    chunks[i] = Math.max(chunks[i], a.chunkShape()[i]);
                } else {
                    chunks[i] = Math.min(chunks[i], a.chunkShape()[i]);
                }
            }
            offsets[t + 1] = offsets[t] + a.shape()[axis];
        }
        if (arrays.size() == 1 && chunksOrNull == null) {
            return first;
        }
        shape[axis] = offsets[arrays.size()];
        if (chunksOrNull != null) {
            chunks = Chunking.grid(shape, chunksOrNull, "concat").chunkShape();
        }
        ChunkGrid grid = grid(shape, chunks);
        if (Axes.product(shape) == 0) {
            return Creation.empty(shape, grid.chunkShape(), first.dtype(), first.spec());
        }
        Gather.Builder b = Gather.builder(first.dtype(), grid).selector(axis, AxisMap.segments(offsets));
        for (int t = 0; t < arrays.size(); t++) {
            CubedArray a = arrays.get(t);
            AxisMap[] maps = identities(a.shape());
            maps[axis] = AxisMap.affine(-offsets[t], 1, a.shape()[axis]);
            b.input(a.chunks(), Axes.range(nd), maps, new long[nd]);
        }
        return gather("concat", b.build(), arrays, first.dtype(), grid);
    }

    static CubedArray stack(List<CubedArray> arraysGiven, int axisGiven) {
        if (arraysGiven.isEmpty()) {
            throw new InvalidArgumentException("stack needs at least one array");
        }
        List<CubedArray> arrays = promoted("stack", arraysGiven);
        CubedArray first = arrays.get(0);
        int nd = first.ndim() + 1;
        int axis = Axes.normalize("stack", first.name(), axisGiven, nd);
        int[] inChunks = first.chunkShape();
        for (CubedArray a : arrays) {
            if (!Arrays.equals(a.shape(), first.shape())) {
                throw new InvalidArgumentException(
                        "stack: " + describe(a) + " and " + describe(first) + " must have the same shape");
            }
            for (int i = 0; i < inChunks.length; i++) {
                inChunks[i] = Math.min(inChunks[i], a.chunkShape()[i]);
            }
        }
        long[] shape = new long[nd];
        int[] chunks = new int[nd];
        int[] outAxis = new int[nd - 1];
        for (int o = 0, i = 0; o < nd; o++) {
            if (o == axis) {
                shape[o] = arrays.size();
                chunks[o] = 1;
            } else {
                shape[o] = first.shape()[i];
                chunks[o] = inChunks[i];
                outAxis[i++] = o;
            }
        }
        ChunkGrid grid = grid(shape, chunks);
        if (Axes.product(shape) == 0) {
            return Creation.empty(shape, grid.chunkShape(), first.dtype(), first.spec());
        }
        Gather.Builder b = Gather.builder(first.dtype(), grid).selector(axis, AxisMap.identity(arrays.size()));
        for (CubedArray a : arrays) {
            b.input(a.chunks(), outAxis, identities(a.shape()), new long[nd - 1]);
        }
        return gather("stack", b.build(), arrays, first.dtype(), grid);
    }

    static List<CubedArray> unstack(CubedArray x, int axisGiven) {
        int nd = x.ndim();
        int axis = Axes.normalize("unstack", x.name(), axisGiven, nd);
        long n = x.shape()[axis];
        if (n == 0) {
            return List.of();
        }
        if (n == 1) {
            return List.of(squeeze(x, new int[] {axis}));
        }
        long[] shape = new long[nd - 1];
        int[] chunks = new int[nd - 1];
        for (int i = 0, o = 0; i < nd; i++) {
            if (i != axis) {
                shape[o] = x.shape()[i];
                chunks[o++] = x.chunkShape()[i];
            }
        }
        ChunkGrid grid = ChunkGrid.of(shape, chunks);
        List<CubedArray> out = new ArrayList<>();
        if (Axes.product(shape) == 0) {
            for (long k = 0; k < n; k++) {
                out.add(Creation.empty(shape, chunks, x.dtype(), x.spec()));
            }
            return out;
        }
        Unstack f = new Unstack(x.dtype(), x.chunks(), axis, grid);
        List<DType> dtypes = new ArrayList<>();
        List<ChunkGrid> grids = new ArrayList<>();
        for (long k = 0; k < n; k++) {
            dtypes.add(x.dtype());
            grids.add(grid);
        }
        long keys = 32 + x.chunks().chunksPerAxis(axis) * (24 + 8L * nd);
        OpNode op = OpNode.blockwise("unstack", List.of(x.node()), f, f, new int[] {1}, keys, dtypes, grids);
        for (ArrayNode node : op.outputs()) {
            out.add(CubedArray.of(node, x.spec()));
        }
        return out;
    }
}
