package io.cubed.array;

import io.cubed.primitive.KeyFunction;

/**
 * The chunks of the two operands of a contraction one output chunk reads, as pairs: the {@code k}-th chunk of
 * each operand meets the other's {@code k}-th in one product. Output letters pick the operands' chunk by the
 * output's coordinate (chunk 0 where an operand has one chunk along the letter: broadcast); the contracted letters
 * run over a group of {@code group[l]} chunks (C order over {@code con}), the group given by the output's trailing
 * coordinates when {@code partials}, else the only one.
 */
record ContractionKeys(
        String out, String ia, String ib, String con, int[] group, long[] chunksA, long[] chunksB, boolean partials)
        implements KeyFunction {
    @Override
    public long[][][] inputKeys(long[] outputCoords) {
        long[] start = new long[con.length()];
        int[] extent = new int[con.length()];
        int pairs = 1;
        for (int l = 0; l < con.length(); l++) {
            start[l] = partials ? outputCoords[out.length() + l] * group[l] : 0;
            long along = chunksA[ia.indexOf(con.charAt(l))];
            extent[l] = (int) Math.min(group[l], along - start[l]);
            pairs *= extent[l];
        }
        long[][] keysA = new long[pairs][];
        long[][] keysB = new long[pairs][];
        long[] at = new long[con.length()];
        for (int k = 0; k < pairs; k++) {
            int rest = k;
            for (int l = con.length() - 1; l >= 0; l--) {
                at[l] = start[l] + rest % extent[l];
                rest /= extent[l];
            }
            keysA[k] = key(ia, chunksA, outputCoords, at);
            keysB[k] = key(ib, chunksB, outputCoords, at);
        }
        return new long[][][] {keysA, keysB};
    }

    private long[] key(String letters, long[] chunks, long[] outputCoords, long[] at) {
        long[] key = new long[letters.length()];
        for (int x = 0; x < key.length; x++) {
            char c = letters.charAt(x);
            int l = con.indexOf(c);
            if (l >= 0) {
                key[x] = at[l];
            } else {
                key[x] = chunks[x] == 1 ? 0 : outputCoords[out.indexOf(c)];
            }
        }
        return key;
    }
}
