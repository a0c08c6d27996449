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
     * The number of in-memory copies of one chunk a rechunk copy task holds, when every chunk it handles (input chunk,
     * copy region, output chunk) is at most that size: the input chunk being read and its read buffers, the copy
     * region being assembled, and the output chunk cut from it with its write buffers: {@code (1 + read) + 1 + (1 +
     * write)} — 5 on file systems, 7 on object stores, as Cubed counts. The planner bounds its regions by the budget
     * over these copies; a task's projection ({@link #rechunkTask}) counts what the task holds, at most as much.
     */
    public static int rechunkCopies(BufferCopies copies) {
        return (1 + copies.read()) + 1 + (1 + copies.write());
    }

    /**
     * Memory of one rechunk copy task in bytes, without {@code reservedMem}: {@code input chunk · (1 + read) + region
     * buffer + keys + output chunk · (1 + write)}, less what the task never holds:
     *
     * <ul>
     *   <li>a task that reads its input chunks straight into the output chunks it holds ({@code readsInputsInto}: it
     *       reads several input chunks, or writes one output chunk) from an array that decodes no chunk doing so
     *       ({@link BufferCopies#readsInto}) holds an input chunk's read copies only, not the input chunk;
     *   <li>with a region buffer, the buffer is the region's output chunks themselves, so an output chunk counts its
     *       write copies only.
     * </ul>
     *
     * {@code regionBufferBytes} is 0 when the task reads a single input chunk (it cuts the outputs from that chunk,
     * decoded) or writes a single output chunk (it reads the inputs into that chunk). Every term is held at the same
     * time in the worst case: a finished chunk is garbage the JVM has not necessarily collected yet when the next one is
     * allocated.
     */
    public static long rechunkTask(
            long inputChunkBytes,
            long regionBufferBytes,
            long keyBytes,
            long outputChunkBytes,
            BufferCopies copies,
            boolean readsInputsInto) {
        int inputCopies = readsInputsInto ? copies.readIntoCopies() : 1 + copies.read();
        int outputCopies = regionBufferBytes > 0 ? copies.write() : 1 + copies.write();
        long total = Math.multiplyExact(inputChunkBytes, (long) inputCopies);
        total = Math.addExact(total, regionBufferBytes);
        total = Math.addExact(total, keyBytes);
        return Math.addExact(total, Math.multiplyExact(outputChunkBytes, (long) outputCopies));
    }
}
