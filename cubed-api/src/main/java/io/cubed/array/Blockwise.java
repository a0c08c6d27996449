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
import io.cubed.primitive.ElementwiseChunkFunction;
import io.cubed.primitive.IndexKeyFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Blockwise operations on arrays: {@link #mapBlocks} (a function of corresponding chunks, with NumPy broadcasting of
 * the inputs) and {@link #blockwise} (Dask-style index notation, including contractions). Building these runs nothing.
 */
public final class Blockwise {
    private Blockwise() {}

    /** {@code n} distinct index letters, {@code "abc…"}. */
    static String letters(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append((char) (i < 26 ? 'a' + i : 'A' + i - 26));
        }
        return sb.toString();
    }

    /** {@code fn} applied to corresponding chunks of {@code arrays}, giving {@code dtype}; Dask's {@code map_blocks}. */
    public static CubedArray mapBlocks(BlockFunction fn, DType dtype, CubedArray... arrays) {
        return mapBlocks(fn, MapBlocksOptions.builder(dtype).build(), arrays);
    }

    /** {@code fn} applied to corresponding chunks of {@code arrays}, with dropped or new axes; see the options. */
    public static CubedArray mapBlocks(BlockFunction fn, MapBlocksOptions options, CubedArray... arrays) {
        return mapBlocks("map_blocks", fn, options, List.of(arrays));
    }

    /**
     * {@code fn} applied to corresponding chunks of {@code arrays}, giving one output per entry of {@code dtypes}, all
     * chunked like the (broadcast) inputs; one task computes the chunks of every output at once. Cubed's multiple-output
     * blockwise, e.g. a quotient and a remainder from one pass over the inputs.
     */
    public static List<CubedArray> mapBlocksMulti(MultiBlockFunction fn, List<DType> dtypes, CubedArray... arrays) {
        if (dtypes.isEmpty()) {
            throw new InvalidArgumentException("map_blocks: at least one output dtype is needed");
        }
        MapBlocksOptions options = MapBlocksOptions.builder(dtypes.get(0)).build();
        return mapBlocks("map_blocks", new MultiBlocksChunkFunction(fn), dtypes, options, List.of(arrays));
    }

    /** As {@link #mapBlocks(BlockFunction, MapBlocksOptions, CubedArray...)}, naming the operation {@code name}. */
    static CubedArray mapBlocks(String name, BlockFunction fn, MapBlocksOptions options, List<CubedArray> arrays) {
        ChunkFunction function = fn instanceof ElementwiseBlockFunction e
                ? new ElementwiseBlocksChunkFunction(e, options.tileMemBytes())
                : new MapBlocksChunkFunction(fn);
        return mapBlocks(name, function, List.of(options.dtype()), options, arrays)
                .get(0);
    }

    private static List<CubedArray> mapBlocks(
            String name,
            ChunkFunction function,
            List<DType> dtypes,
            MapBlocksOptions options,
            List<CubedArray> arraysGiven) {
        List<CubedArray> arrays = arraysGiven;
        if (arrays.isEmpty()) {
            throw new InvalidArgumentException(name + " needs at least one input array");
        }
        Spec spec = Execution.commonSpec(arrays);
        int nd = 0;
        for (CubedArray a : arrays) {
            nd = Math.max(nd, a.ndim());
        }
        String base = letters(nd);
        String[] indices = new String[arrays.size()];
        for (int j = 0; j < indices.length; j++) {
            indices[j] = base.substring(nd - arrays.get(j).ndim());
        }
        long[] shape = new long[nd];
        int[] chunks = new int[nd];
        arrays = unifyChunks(arrays, indices, base);
        alignedAxes(name, arrays, indices, base, shape, chunks);

        int[] drop = options.dropAxis();
        StringBuilder out = new StringBuilder();
        List<Long> outShape = new ArrayList<>();
        List<Integer> outChunks = new ArrayList<>();
        int firstOffset = nd - arrays.get(0).ndim();
        for (int a = 0; a < nd; a++) {
            boolean dropped = false;
            for (int d : drop) {
                if (d < 0 || d >= arrays.get(0).ndim()) {
                    throw new InvalidArgumentException(name + ": dropAxis " + d + " is not an axis of "
                            + arrays.get(0).name() + " (rank " + arrays.get(0).ndim() + ")");
                }
                dropped |= d + firstOffset == a;
            }
            if (dropped) {
                if (ChunkGrid.of(new long[] {shape[a]}, new int[] {chunks[a]}).numChunks() > 1) {
                    throw new InvalidArgumentException(name + ": cannot drop axis " + (a - firstOffset) + " of "
                            + arrays.get(0).name() + ": it has several chunks (rechunk it to one chunk first)");
                }
                continue;
            }
            out.append(base.charAt(a));
            outShape.add(shape[a]);
            outChunks.add(chunks[a]);
        }
        int[] newAxes = options.newAxis().clone();
        Arrays.sort(newAxes);
        char next = (char) ('a' + 52);
        for (int p : newAxes) {
            if (p < 0 || p > out.length()) {
                throw new InvalidArgumentException(
                        name + ": newAxis " + p + " is outside the output's " + (out.length() + 1) + " positions");
            }
            out.insert(p, next++);
            outShape.add(p, 1L);
            outChunks.add(p, 1);
        }
        ChunkGrid grid = ChunkGrid.of(
                outShape.stream().mapToLong(Long::longValue).toArray(),
                outChunks.stream().mapToInt(Integer::intValue).toArray());
        if (options.outputShape() != null) {
            ChunkGrid given = Chunking.grid(options.outputShape(), options.outputChunks(), name + " output");
            if (!Arrays.equals(given.chunksPerAxis(), grid.chunksPerAxis())) {
                throw new InvalidArgumentException(name + ": output shape " + Arrays.toString(options.outputShape())
                        + " with chunks " + Arrays.toString(options.outputChunks()) + " has "
                        + Arrays.toString(given.chunksPerAxis()) + " chunks per axis, but the inputs give "
                        + Arrays.toString(grid.chunksPerAxis()));
            }
            grid = given;
        }
        List<ArrayNode> inputs = new ArrayList<>();
        long[][] perAxis = new long[arrays.size()][];
        for (int j = 0; j < arrays.size(); j++) {
            inputs.add(arrays.get(j).node());
            perAxis[j] = arrays.get(j).chunks().chunksPerAxis();
        }
        int[] held = new int[arrays.size()];
        Arrays.fill(held, 1);
        List<ChunkGrid> grids = new ArrayList<>();
        for (int i = 0; i < dtypes.size(); i++) {
            grids.add(grid);
        }
        OpNode op = OpNode.blockwise(
                name,
                inputs,
                new IndexKeyFunction(out.toString(), indices, perAxis),
                function,
                held,
                options.extraMemBytes(),
                dtypes,
                grids);
        List<CubedArray> result = new ArrayList<>();
        for (ArrayNode node : op.outputs()) {
            result.add(CubedArray.of(node, spec));
        }
        return result;
    }

    /**
     * The inputs with chunks unified along every shared index letter, as Cubed's {@code unify_chunks}: where inputs
     * with several chunks along a letter differ, every input not broadcast along it is rechunked to the smallest of
     * their chunk lengths. Inputs whose shapes cannot broadcast are returned as they are ({@link #alignedAxes} reports
     * them).
     */
    static List<CubedArray> unifyChunks(List<CubedArray> arrays, String[] indices, String letters) {
        int[][] targets = new int[arrays.size()][];
        for (int j = 0; j < arrays.size(); j++) {
            targets[j] = Chunking.grid(
                            arrays.get(j).shape(),
                            arrays.get(j).chunkShape(),
                            arrays.get(j).name())
                    .chunkShape();
        }
        boolean changed = false;
        for (char letter : letters.toCharArray()) {
            long length = 1;
            for (int j = 0; j < arrays.size(); j++) {
                int ax = indices[j].indexOf(letter);
                if (ax >= 0 && arrays.get(j).shape()[ax] != 1) {
                    if (length != 1 && arrays.get(j).shape()[ax] != length) {
                        return arrays;
                    }
                    length = arrays.get(j).shape()[ax];
                }
            }
            int smallest = Integer.MAX_VALUE;
            boolean split = false;
            for (int j = 0; j < arrays.size(); j++) {
                int ax = indices[j].indexOf(letter);
                if (ax >= 0 && arrays.get(j).shape()[ax] == length && length != 1) {
                    smallest = Math.min(smallest, targets[j][ax]);
                    split |= arrays.get(j).chunks().chunksPerAxis(ax) > 1;
                }
            }
            if (!split) {
                continue;
            }
            for (int j = 0; j < arrays.size(); j++) {
                int ax = indices[j].indexOf(letter);
                if (ax >= 0 && arrays.get(j).shape()[ax] == length && targets[j][ax] != smallest) {
                    targets[j][ax] = smallest;
                    changed = true;
                }
            }
        }
        if (!changed) {
            return arrays;
        }
        List<CubedArray> out = new ArrayList<>();
        for (int j = 0; j < arrays.size(); j++) {
            out.add(Manipulation.rechunk(arrays.get(j), targets[j]));
        }
        return out;
    }

    /**
     * Checks that inputs sharing an index letter agree on it (same length and chunks, or length 1 to broadcast) and
     * fills {@code shape} and {@code chunks} for each letter of {@code base}.
     */
    private static void alignedAxes(
            String name, List<CubedArray> arrays, String[] indices, String base, long[] shape, int[] chunks) {
        for (int a = 0; a < base.length(); a++) {
            char letter = base.charAt(a);
            CubedArray ref = null;
            int refAxis = -1;
            for (int j = 0; j < arrays.size(); j++) {
                int ax = indices[j].indexOf(letter);
                if (ax < 0) {
                    continue;
                }
                CubedArray x = arrays.get(j);
                if (ref == null || (ref.shape()[refAxis] == 1 && x.shape()[ax] != 1)) {
                    ref = x;
                    refAxis = ax;
                }
            }
            if (ref == null) {
                throw new InvalidArgumentException(name + ": index '" + letter + "' belongs to no input array");
            }
            shape[a] = ref.shape()[refAxis];
            chunks[a] = ref.chunkShape()[refAxis];
            for (int j = 0; j < arrays.size(); j++) {
                int ax = indices[j].indexOf(letter);
                if (ax < 0) {
                    continue;
                }
                CubedArray x = arrays.get(j);
                long len = x.shape()[ax];
                if (len == 1 && shape[a] != 1) {
                    continue;
                }
                if (len != shape[a]) {
                    throw new InvalidArgumentException(name + ": shapes " + Arrays.toString(ref.shape()) + " of "
                            + ref.name() + " and " + Arrays.toString(x.shape()) + " of " + x.name()
                            + " cannot be broadcast together");
                }
                if (x.chunkShape()[ax] != chunks[a]
                        && x.chunks().chunksPerAxis(ax) + ref.chunks().chunksPerAxis(refAxis) > 2) {
                    throw new InvalidArgumentException(name + ": chunks " + Arrays.toString(ref.chunkShape()) + " of "
                            + ref.name() + " and " + Arrays.toString(x.chunkShape()) + " of " + x.name()
                            + " differ along a shared axis; rechunk one to match the other");
                }
            }
        }
    }

    /**
     * {@code fn} over Dask-style index notation: {@code blockwise(fn, "ij", dtype, x, "ik", y, "kj")}. Indices missing
     * from {@code outIndex} are contracted: the function gets every chunk of an input along them.
     */
    public static CubedArray blockwise(BlockwiseFunction fn, String outIndex, DType dtype, Object... arraysAndIndices) {
        if (arraysAndIndices.length == 0 || arraysAndIndices.length % 2 != 0) {
            throw new InvalidArgumentException(
                    "blockwise needs pairs of (array, index string), got " + arraysAndIndices.length + " arguments");
        }
        List<CubedArray> arrays = new ArrayList<>();
        String[] indices = new String[arraysAndIndices.length / 2];
        for (int i = 0; i < arraysAndIndices.length; i += 2) {
            if (!(arraysAndIndices[i] instanceof CubedArray) || !(arraysAndIndices[i + 1] instanceof String)) {
                throw new InvalidArgumentException(
                        "blockwise argument " + i + " must be a CubedArray followed by its " + "index string");
            }
            CubedArray a = (CubedArray) arraysAndIndices[i];
            String ind = (String) arraysAndIndices[i + 1];
            if (ind.length() != a.ndim()) {
                throw new InvalidArgumentException("blockwise: index '" + ind + "' has " + ind.length()
                        + " letters but " + a.name() + " has " + a.ndim() + " axes");
            }
            arrays.add(a);
            indices[i / 2] = ind;
        }
        Spec spec = Execution.commonSpec(arrays);
        StringBuilder all = new StringBuilder(outIndex);
        for (String ind : indices) {
            for (char c : ind.toCharArray()) {
                if (all.indexOf(String.valueOf(c)) < 0) {
                    all.append(c);
                }
            }
        }
        long[] shape = new long[all.length()];
        int[] chunks = new int[all.length()];
        arrays = unifyChunks(arrays, indices, all.toString());
        alignedAxes("blockwise", arrays, indices, all.toString(), shape, chunks);
        long[] outShape = Arrays.copyOf(shape, outIndex.length());
        int[] outChunks = Arrays.copyOf(chunks, outIndex.length());
        List<ArrayNode> inputs = new ArrayList<>();
        long[][] perAxis = new long[arrays.size()][];
        int[] held = new int[arrays.size()];
        for (int j = 0; j < arrays.size(); j++) {
            inputs.add(arrays.get(j).node());
            perAxis[j] = arrays.get(j).chunks().chunksPerAxis();
            long h = 1;
            for (int ax = 0; ax < indices[j].length(); ax++) {
                if (outIndex.indexOf(indices[j].charAt(ax)) < 0) {
                    h *= perAxis[j][ax];
                }
            }
            held[j] = (int) Math.min(Integer.MAX_VALUE, h);
        }
        OpNode op = OpNode.blockwise(
                "blockwise",
                inputs,
                new IndexKeyFunction(outIndex, indices, perAxis),
                new BlockwiseChunkFunction(fn),
                held,
                0,
                List.of(dtype),
                List.of(ChunkGrid.of(outShape, outChunks)));
        return CubedArray.of(op.outputs().get(0), spec);
    }

    /** Adapts a {@link BlockFunction} (one chunk per input) to the primitive's chunk function. */
    private record MapBlocksChunkFunction(BlockFunction fn) implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            return new Chunk[] {fn.apply(args.singleChunks(), outputCoords)};
        }
    }

    /** Runs one of this package's elementwise chunk functions as the primitive's elementwise function. */
    private record ElementwiseBlocksChunkFunction(ElementwiseBlockFunction fn, long tileWorkingBytes)
            implements ElementwiseChunkFunction {
        @Override
        public Chunk applyElementwise(Chunk[] blocks) {
            return fn.apply(blocks);
        }
    }

    /** Adapts a {@link MultiBlockFunction} (one chunk per output) to the primitive's chunk function. */
    private record MultiBlocksChunkFunction(MultiBlockFunction fn) implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            return fn.apply(args.singleChunks(), outputCoords);
        }
    }

    /** Adapts a {@link BlockwiseFunction} to the primitive's chunk function. */
    private record BlockwiseChunkFunction(BlockwiseFunction fn) implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            return new Chunk[] {fn.apply(args, outputCoords)};
        }
    }
}
