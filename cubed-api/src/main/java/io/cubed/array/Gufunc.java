package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link #applyGufunc}: NumPy's generalized ufuncs on lazy arrays, as Dask's and Cubed's {@code apply_gufunc}. A
 * signature such as {@code "(i,j),(j)->(i)"} names the core dimensions (the last axes) of each input and of the output;
 * the other axes are loop dimensions, broadcast NumPy-style across inputs. Each task gets inputs that are whole along
 * their core dimensions, so one blockwise operation computes the result.
 */
public final class Gufunc {
    private Gufunc() {}

    private static final Pattern ARG = Pattern.compile("\\(([^()]*)\\)");

    /**
     * {@code fn} applied over the loop dimensions of {@code inputs}, giving an array of {@code dtype}.
     *
     * @param allowRechunk rechunk core dimensions that span several chunks into one; otherwise such a dimension is an
     *     error (a whole core dimension per task may need much more memory, so it is opt-in, as in Cubed)
     * @throws InvalidArgumentException for a malformed signature, inputs that do not match it, core dimensions of
     *     different lengths, or an output core dimension that no input has
     */
    public static CubedArray applyGufunc(
            GufuncFunction fn, String signature, DType dtype, boolean allowRechunk, CubedArray... inputs) {
        String[] sides = signature.replace(" ", "").split("->", -1);
        if (sides.length != 2) {
            throw new InvalidArgumentException("apply_gufunc: signature '" + signature + "' needs one '->'");
        }
        List<List<String>> inCores = parse(sides[0], signature);
        List<List<String>> outCores = parse(sides[1], signature);
        if (outCores.size() != 1) {
            throw new InvalidArgumentException("apply_gufunc: signature '" + signature + "' must have one output; "
                    + "use Blockwise.mapBlocksMulti for several");
        }
        if (inCores.size() != inputs.length) {
            throw new InvalidArgumentException("apply_gufunc: signature '" + signature + "' has " + inCores.size()
                    + " inputs, but " + inputs.length + " arrays were given");
        }
        Map<String, Character> letters = new HashMap<>();
        Map<String, Long> lengths = new HashMap<>();
        int loopDims = 0;
        for (int j = 0; j < inputs.length; j++) {
            int core = inCores.get(j).size();
            if (inputs[j].ndim() < core) {
                throw new InvalidArgumentException("apply_gufunc: input " + j + " '" + inputs[j].name() + "' has "
                        + inputs[j].ndim() + " axes, fewer than its " + core + " core dimensions in '" + signature
                        + "'");
            }
            loopDims = Math.max(loopDims, inputs[j].ndim() - core);
        }
        String loop = Blockwise.letters(loopDims);
        List<Object> args = new ArrayList<>();
        for (int j = 0; j < inputs.length; j++) {
            CubedArray x = inputs[j];
            List<String> cores = inCores.get(j);
            int loopOf = x.ndim() - cores.size();
            StringBuilder index = new StringBuilder(loop.substring(loopDims - loopOf));
            Map<Integer, Integer> whole = new HashMap<>();
            for (int k = 0; k < cores.size(); k++) {
                String name = cores.get(k);
                int axis = loopOf + k;
                long len = x.shape()[axis];
                Long known = lengths.putIfAbsent(name, len);
                if (known != null && known != len) {
                    throw new InvalidArgumentException("apply_gufunc: core dimension '" + name + "' has length " + known
                            + " in one input and " + len + " in '" + x.name() + "'");
                }
                char letter = letters.computeIfAbsent(name, n -> (char) ('A' + letters.size()));
                index.append(letter);
                if (x.chunks().chunksPerAxis(axis) > 1) {
                    if (!allowRechunk) {
                        throw new InvalidArgumentException("apply_gufunc: core dimension '" + name + "' (axis " + axis
                                + " of '" + x.name() + "') has " + x.chunks().chunksPerAxis(axis)
                                + " chunks; rechunk it to one chunk or pass allowRechunk");
                    }
                    whole.put(axis, -1);
                }
            }
            args.add(whole.isEmpty() ? x : Manipulation.rechunk(x, whole));
            args.add(index.toString());
        }
        StringBuilder out = new StringBuilder(loop);
        for (String name : outCores.get(0)) {
            Character letter = letters.get(name);
            if (letter == null) {
                throw new InvalidArgumentException("apply_gufunc: output core dimension '" + name + "' of '" + signature
                        + "' appears in no input; its length is unknown");
            }
            out.append(letter);
        }
        int n = inputs.length;
        return Blockwise.blockwise(new GufuncBlocks(fn, n), out.toString(), dtype, args.toArray());
    }

    private static List<List<String>> parse(String side, String signature) {
        List<List<String>> out = new ArrayList<>();
        Matcher m = ARG.matcher(side);
        int end = 0;
        while (m.find()) {
            if (out.isEmpty() ? m.start() != 0 : !(m.start() == end + 1 && side.charAt(end) == ',')) {
                throw new InvalidArgumentException("apply_gufunc: malformed signature '" + signature + "'");
            }
            List<String> dims = new ArrayList<>();
            if (!m.group(1).isEmpty()) {
                for (String d : m.group(1).split(",", -1)) {
                    if (!d.matches("[A-Za-z_][A-Za-z_0-9]*")) {
                        throw new InvalidArgumentException(
                                "apply_gufunc: malformed dimension '" + d + "' in signature '" + signature + "'");
                    }
                    dims.add(d);
                }
            }
            out.add(dims);
            end = m.end();
        }
        if (end != side.length() || out.isEmpty()) {
            throw new InvalidArgumentException("apply_gufunc: malformed signature '" + signature + "'");
        }
        return out;
    }

    /** Passes each input's single chunk to the user function. */
    private record GufuncBlocks(GufuncFunction fn, int inputs) implements BlockwiseFunction {
        @Override
        public Chunk apply(io.cubed.primitive.ChunkArgs args, long[] blockId) {
            return fn.apply(args.singleChunks());
        }
    }
}
