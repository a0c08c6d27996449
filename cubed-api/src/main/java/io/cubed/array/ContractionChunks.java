package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.Contraction;
import io.cubed.dtype.DType;
import io.cubed.primitive.ChunkArgs;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.ChunkSink;
import io.cubed.primitive.TaskRegion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The contraction of the listed pairs of operand chunks (the first conjugated when {@code conjugateA}), summed one
 * pair at a time, with {@code ones} trailing length-1 axes (the group of contracted chunks). A task computing a box
 * of output chunks reads each operand chunk once: for each contracted chunk in turn it holds the chunks of the
 * held operand ({@code holdSecond}: b's) the box needs, reads those of the other one at a time, and adds each
 * product to the running sum of its output chunk.
 */
record ContractionChunks(
        ContractionKeys keys,
        String ia,
        String ib,
        String out,
        DType type,
        int ones,
        boolean conjugateA,
        boolean holdSecond)
        implements ChunkFunction {
    @Override
    public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
        Chunk r = null;
        for (int k = 0; k < args.count(0); k++) {
            r = Contraction.contractAdd(r, args.chunk(0, k), ia, args.chunk(1, k), ib, out, type, conjugateA);
        }
        return new Chunk[] {withOnes(r)};
    }

    @Override
    public void applyRegion(ChunkArgs args, TaskRegion region, ChunkSink sink) {
        if (region.isSingleChunk()) {
            ChunkFunction.super.applyRegion(args, region, sink);
            return;
        }
        int outputs = (int) region.numChunks();
        int held = holdSecond ? 1 : 0;
        Map<List<Long>, Integer> heldIndex = listed(args, held);
        Map<List<Long>, Integer> streamedIndex = listed(args, 1 - held);
        // pairs[o][k]: the task's indexes of the held and the streamed chunk of output o's k-th product.
        int[][][] pairs = new int[outputs][][];
        for (int o = 0; o < outputs; o++) {
            long[][][] k = keys.inputKeys(region.chunk(o));
            pairs[o] = new int[k[0].length][];
            for (int p = 0; p < k[0].length; p++) {
                pairs[o][p] = new int[] {heldIndex.get(boxed(k[held][p])), streamedIndex.get(boxed(k[1 - held][p]))};
            }
        }
        Chunk[] sums = new Chunk[outputs];
        // The operand chunks of the contracted chunk done last, read over by the next one's (same shapes, but for
        // edge chunks): the task allocates its operand chunks once instead of once per contracted chunk, and
        // they come from the thread's last task of this operation (they live the whole task, as its outputs do).
        List<Chunk> spare = new ArrayList<>();
        for (int p = 0; p < pairs[0].length; p++) {
            Map<Integer, Chunk> heldChunks = new LinkedHashMap<>();
            Map<Integer, List<Integer>> byStreamed = new LinkedHashMap<>();
            for (int o = 0; o < outputs; o++) {
                int h = pairs[o][p][0];
                if (!heldChunks.containsKey(h)) {
                    heldChunks.put(h, readOver(args, held, h, spare));
                }
                byStreamed
                        .computeIfAbsent(pairs[o][p][1], i -> new ArrayList<>())
                        .add(o);
            }
            for (Map.Entry<Integer, List<Integer>> e : byStreamed.entrySet()) {
                Chunk streamed = readOver(args, 1 - held, e.getKey(), spare);
                for (int o : e.getValue()) {
                    Chunk h = heldChunks.get(pairs[o][p][0]);
                    sums[o] = holdSecond
                            ? Contraction.contractAdd(sums[o], streamed, ia, h, ib, out, type, conjugateA)
                            : Contraction.contractAdd(sums[o], h, ia, streamed, ib, out, type, conjugateA);
                }
                spare.add(streamed);
            }
            spare.addAll(heldChunks.values());
        }
        for (int o = 0; o < outputs; o++) {
            sink.write(0, region.chunk(o), withOnes(sums[o]));
            sums[o] = null;
        }
    }

    /**
     * Chunk {@code k} of input {@code input}, read into a spare chunk of its shape (taken off {@code spare}) or
     * into one for the task to overwrite; then one spare of another shape (an edge chunk's) is dropped, so the task
     * never holds more operand chunks than it did without spares.
     */
    private static Chunk readOver(ChunkArgs args, int input, int k, List<Chunk> spare) {
        int[] shape = args.chunkShape(input, k);
        DType t = args.dtype(input);
        for (int i = 0; i < spare.size(); i++) {
            Chunk c = spare.get(i);
            if (c.dtype() == t && Arrays.equals(c.shape(), shape)) {
                spare.remove(i);
                return args.chunk(input, k, c);
            }
        }
        if (!spare.isEmpty()) {
            spare.remove(spare.size() - 1);
        }
        return args.chunk(input, k, Chunk.allocateForTaskToOverwrite(t, shape));
    }

    private static Map<List<Long>, Integer> listed(ChunkArgs args, int input) {
        Map<List<Long>, Integer> index = new HashMap<>();
        for (int i = 0; i < args.count(input); i++) {
            index.put(boxed(args.key(input, i)), i);
        }
        return index;
    }

    private static List<Long> boxed(long[] key) {
        return Arrays.stream(key).boxed().toList();
    }

    private Chunk withOnes(Chunk r) {
        if (ones == 0) {
            return r;
        }
        int[] s = Arrays.copyOf(r.shape(), r.ndim() + ones);
        Arrays.fill(s, r.ndim(), s.length, 1);
        return Chunk.wrap(r.dtype(), s, r.data());
    }
}
