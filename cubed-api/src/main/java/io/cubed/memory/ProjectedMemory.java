package io.cubed.memory;

/** The arithmetic of projected task memory, in bytes, written out so it can be tested term by term. */
public final class ProjectedMemory {
    private ProjectedMemory() {}

    /**
     * Memory of a task that reads one chunk of each input, computes, and writes one output chunk: {@code reserved + Σ
     * input·(1 + copies.read) + extra + output·(1 + copies.write)}, all in bytes.
     */
    public static long blockwise(
            long reservedBytes, long[] inputChunkBytes, long extraBytes, long outputChunkBytes, BufferCopies copies) {
        long total = reservedBytes;
        for (long in : inputChunkBytes) {
            total = Math.addExact(total, Math.multiplyExact(in, 1L + copies.read()));
        }
        total = Math.addExact(total, extraBytes);
        return Math.addExact(total, Math.multiplyExact(outputChunkBytes, 1L + copies.write()));
    }

    /**
     * The number of in-memory copies of one chunk a rechunk copy task holds, when every chunk it handles is at most
     * that size: the input chunk being read and its read buffers, and the output chunk being assembled and its write
     * buffers: {@code (1 + read) + (1 + write)} — 4 on file systems, 6 on object stores. (Cubed counts one more, 5 and
     * 7: its tasks assemble a copy region apart from the chunks they write; ours write the chunk they assemble.)
     */
    public static int rechunkCopies(BufferCopies copies) {
        return (1 + copies.read()) + (1 + copies.write());
    }
}
