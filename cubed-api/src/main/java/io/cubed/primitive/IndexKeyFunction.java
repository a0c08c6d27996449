package io.cubed.primitive;

import io.cubed.error.InvalidArgumentException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A key function compiled from Dask-style index notation, e.g. output {@code "ij"} from inputs {@code "ik"} and
 * {@code "kj"}: an index in the output picks the input chunk with the output's coordinate (or chunk 0 where the input
 * has one chunk on that axis, i.e. broadcasts); an index missing from the output is contracted, and the input
 * contributes every chunk along it.
 */
public final class IndexKeyFunction implements KeyFunction {
    private static final long serialVersionUID = 1L;

    private final String outIndex;
    private final String[] inIndices;
    private final long[][] inChunksPerAxis;
    private final String contracted;
    private final long[] contractedChunks;

    /**
     * Compiles the notation; {@code inChunksPerAxis[j]} is the number of chunks along each axis of input {@code j}.
     * Inputs sharing an index must have equal chunk counts along it, or 1 (broadcast).
     */
    public IndexKeyFunction(String outIndex, String[] inIndices, long[][] inChunksPerAxis) {
        if (inIndices.length != inChunksPerAxis.length) {
            throw new InvalidArgumentException("blockwise needs one index per input: " + inIndices.length
                    + " indices for " + inChunksPerAxis.length + " inputs");
        }
        Map<Character, Long> counts = new LinkedHashMap<>();
        for (int j = 0; j < inIndices.length; j++) {
            String ind = inIndices[j];
            if (ind.length() != inChunksPerAxis[j].length) {
                throw new InvalidArgumentException("index '" + ind + "' of input " + j + " has " + ind.length()
                        + " letters but the input has " + inChunksPerAxis[j].length + " axes");
            }
            for (int a = 0; a < ind.length(); a++) {
                char c = ind.charAt(a);
                long n = inChunksPerAxis[j][a];
                Long prev = counts.get(c);
                if (prev == null || prev == 1) {
                    counts.put(c, n);
                } else if (n != 1 && n != prev) {
                    throw new InvalidArgumentException("index '" + c + "' has " + prev + " chunks in one input and " + n
                            + " in input " + j + "; chunks must match (rechunk one of them)");
                }
            }
        }
        StringBuilder con = new StringBuilder();
        List<Long> conCounts = new ArrayList<>();
        for (Map.Entry<Character, Long> e : counts.entrySet()) {
            if (outIndex.indexOf(e.getKey()) < 0) {
                con.append(e.getKey());
                conCounts.add(e.getValue());
            }
        }
        this.outIndex = outIndex;
        this.inIndices = inIndices.clone();
        this.inChunksPerAxis = new long[inChunksPerAxis.length][];
        for (int j = 0; j < inChunksPerAxis.length; j++) {
            this.inChunksPerAxis[j] = inChunksPerAxis[j].clone();
        }
        this.contracted = con.toString();
        this.contractedChunks = conCounts.stream().mapToLong(Long::longValue).toArray();
    }

    /** Number of output chunks along each axis of the output index (1 for an index no input has). */
    public long[] outputChunksPerAxis() {
        long[] out = new long[outIndex.length()];
        for (int a = 0; a < out.length; a++) {
            out[a] = 1;
            for (int j = 0; j < inIndices.length; j++) {
                int pos = inIndices[j].indexOf(outIndex.charAt(a));
                if (pos >= 0) {
                    out[a] = Math.max(out[a], inChunksPerAxis[j][pos]);
                }
            }
        }
        return out;
    }

    /**
     * True when no two output chunks read the same chunk of input {@code input}: it is not broadcast along an output
     * letter with several chunks, and every output letter it lacks has one chunk (contracted letters only enumerate
     * more chunks per task). Fusing an operation whose output is read this way computes each of its chunks once.
     */
    public boolean readsEachChunkOnce(int input) {
        String ind = inIndices[input];
        long[] out = outputChunksPerAxis();
        for (int a = 0; a < outIndex.length(); a++) {
            int pos = ind.indexOf(outIndex.charAt(a));
            if (pos < 0 ? out[a] != 1 : inChunksPerAxis[input][pos] != out[a]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        long[][][] keys = new long[inIndices.length][][];
        for (int j = 0; j < inIndices.length; j++) {
            String ind = inIndices[j];
            List<Integer> conAxes = new ArrayList<>();
            List<Long> conSizes = new ArrayList<>();
            for (int a = 0; a < ind.length(); a++) {
                int c = contracted.indexOf(ind.charAt(a));
                if (c >= 0) {
                    conAxes.add(a);
                    conSizes.add(inChunksPerAxis[j][a] == 1 ? 1 : contractedChunks[c]);
                }
            }
            long total = 1;
            for (long s : conSizes) {
                total *= s;
            }
            long[][] list = new long[(int) total][];
            for (int k = 0; k < total; k++) {
                long[] key = new long[ind.length()];
                for (int a = 0; a < ind.length(); a++) {
                    int pos = outIndex.indexOf(ind.charAt(a));
                    key[a] = pos >= 0 && inChunksPerAxis[j][a] != 1 ? outputCoords[pos] : 0;
                }
                long rest = k;
                for (int c = conAxes.size() - 1; c >= 0; c--) {
                    key[conAxes.get(c)] = rest % conSizes.get(c);
                    rest /= conSizes.get(c);
                }
                list[k] = key;
            }
            keys[j] = list;
        }
        return keys;
    }

    @Override
    public String toString() {
        return "IndexKeyFunction{" + outIndex + " <- " + Arrays.toString(inIndices) + "}";
    }
}
