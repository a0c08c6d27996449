package io.cubed.primitive;

import io.cubed.chunk.ArrayRecycler;
import io.cubed.chunk.Chunk;
import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.runtime.TaskFunction;
import io.cubed.runtime.TaskIo;
import io.cubed.storage.ChunkStore;
import java.util.Arrays;
import java.util.BitSet;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The task of a blockwise operation: task {@code i} computes the output chunks of {@link TaskRegion} {@code i} (boxes
 * of {@code chunksPerTask} output chunks, C order; one chunk per task unless the operation says otherwise) — reads the
 * input chunks the key function names, applies the chunk function, and writes each output chunk whole as soon as the
 * function hands it over. Every output chunk belongs to exactly one task, so a retried task rewrites the same chunks.
 */
public final class BlockwiseTask implements TaskFunction {
    private static final long serialVersionUID = 3L;

    private final String opName;
    private final ChunkStore[] inputs;
    private final ChunkStore[] outputs;
    private final KeyFunction keyFunction;
    private final ChunkFunction function;
    private final int[] chunksPerTask;
    private final boolean skipWritten;
    private final long recycleBytes;
    /**
     * The inputs whose chunks {@link #release} deletes (empty: none). Transient: a copy shipped to Spark releases
     * nothing, and Spark never calls release anyway.
     */
    private final transient int[] releasedInputs;
    /** Per released input, the readers of each of its chunks (C order) whose tasks have not been released; lazily. */
    private transient AtomicIntegerArray[] readersLeft;

    /** A task computing one output chunk each. */
    public BlockwiseTask(
            String opName, ChunkStore[] inputs, ChunkStore[] outputs, KeyFunction keyFunction, ChunkFunction function) {
        this(opName, inputs, outputs, keyFunction, function, null);
    }

    /**
     * A task computing boxes of {@code chunksPerTask} output chunks per axis ({@code null}: one chunk per task).
     */
    public BlockwiseTask(
            String opName,
            ChunkStore[] inputs,
            ChunkStore[] outputs,
            KeyFunction keyFunction,
            ChunkFunction function,
            int[] chunksPerTask) {
        this(opName, inputs, outputs, keyFunction, function, chunksPerTask, false);
    }

    /**
     * As above; with {@code skipWritten}, a task whose output chunks all exist already does nothing (resuming a
     * computation: chunk writes are atomic, so a chunk that exists is complete).
     */
    public BlockwiseTask(
            String opName,
            ChunkStore[] inputs,
            ChunkStore[] outputs,
            KeyFunction keyFunction,
            ChunkFunction function,
            int[] chunksPerTask,
            boolean skipWritten) {
        this(opName, inputs, outputs, keyFunction, function, chunksPerTask, skipWritten, 0);
    }

    /**
     * As above; up to {@code recycleBytes} of the arrays one task used are kept for a next task of this
     * operation ({@link ArrayRecycler}: the operation's projected task memory without the reserve; 0: none).
     */
    public BlockwiseTask(
            String opName,
            ChunkStore[] inputs,
            ChunkStore[] outputs,
            KeyFunction keyFunction,
            ChunkFunction function,
            int[] chunksPerTask,
            boolean skipWritten,
            long recycleBytes) {
        this(opName, inputs, outputs, keyFunction, function, chunksPerTask, skipWritten, recycleBytes, new int[0]);
    }

    private BlockwiseTask(
            String opName,
            ChunkStore[] inputs,
            ChunkStore[] outputs,
            KeyFunction keyFunction,
            ChunkFunction function,
            int[] chunksPerTask,
            boolean skipWritten,
            long recycleBytes,
            int[] releasedInputs) {
        if (outputs.length == 0) {
            throw new InvalidArgumentException(opName + " has no output");
        }
        for (ChunkStore o : outputs) {
            if (!Arrays.equals(o.grid().chunksPerAxis(), outputs[0].grid().chunksPerAxis())) {
                throw new InvalidArgumentException(opName + ": every output needs the same number of chunks per axis");
            }
        }
        int nd = outputs[0].grid().ndim();
        int[] perTask = chunksPerTask == null ? ones(nd) : chunksPerTask.clone();
        TaskRegion.numTasks(outputs[0].grid().chunksPerAxis(), perTask); // validates
        this.opName = opName;
        this.inputs = inputs.clone();
        this.outputs = outputs.clone();
        this.keyFunction = keyFunction;
        this.function = function;
        this.chunksPerTask = perTask;
        this.skipWritten = skipWritten;
        this.recycleBytes = Math.max(0, recycleBytes);
        for (int j : releasedInputs) {
            if (j < 0 || j >= inputs.length) {
                throw new InvalidArgumentException(opName + " has no input " + j + " (it has " + inputs.length + ")");
            }
        }
        this.releasedInputs = releasedInputs.clone();
    }

    /**
     * This task, deleting each stored chunk of the inputs {@code inputIndexes} once every task that reads it has been
     * {@linkplain #release released}: for intermediates that no other operation reads, so that they leave the disk (and,
     * on a local file system, the page cache, before the kernel writes them back) as the operation consumes them.
     */
    public BlockwiseTask deletingInputChunks(int... inputIndexes) {
        return new BlockwiseTask(
                opName, inputs, outputs, keyFunction, function, chunksPerTask, skipWritten, recycleBytes, inputIndexes);
    }

    @Override
    public boolean releasesInputs() {
        return releasedInputs != null && releasedInputs.length > 0;
    }

    /** Largest number of chunks of a released input whose readers are counted (4 bytes each); larger ones stay. */
    static final long MAX_COUNTED_CHUNKS = 1L << 22;

    /**
     * Task {@code taskIndex} will not read its input chunks again: deletes those of the released inputs that no other
     * unreleased task reads. Counts every task's reads on the first call.
     */
    @Override
    public void release(long taskIndex) {
        if (releasedInputs == null || releasedInputs.length == 0) {
            return;
        }
        AtomicIntegerArray[] left = readersLeft();
        TaskKeys keys =
                keyFunction.taskKeys(TaskRegion.of(outputs[0].grid().chunksPerAxis(), chunksPerTask, taskIndex));
        for (int r = 0; r < releasedInputs.length; r++) {
            if (left[r] == null) {
                continue;
            }
            ChunkStore in = inputs[releasedInputs[r]];
            for (int k = 0; k < keys.count(releasedInputs[r]); k++) {
                long[] coords = keys.keyAt(releasedInputs[r], k);
                if (left[r].decrementAndGet(Math.toIntExact(in.grid().chunkIndexOf(coords))) == 0) {
                    in.deleteChunk(coords);
                }
            }
        }
    }

    private synchronized AtomicIntegerArray[] readersLeft() {
        if (readersLeft == null) {
            AtomicIntegerArray[] left = new AtomicIntegerArray[releasedInputs.length];
            for (int r = 0; r < left.length; r++) {
                long n = inputs[releasedInputs[r]].grid().numChunks();
                left[r] = n <= MAX_COUNTED_CHUNKS ? new AtomicIntegerArray(Math.toIntExact(n)) : null;
            }
            long[] chunksPerAxis = outputs[0].grid().chunksPerAxis();
            for (long t = 0; t < numTasks(); t++) {
                TaskKeys keys = keyFunction.taskKeys(TaskRegion.of(chunksPerAxis, chunksPerTask, t));
                for (int r = 0; r < left.length; r++) {
                    if (left[r] == null) {
                        continue;
                    }
                    ChunkGrid grid = inputs[releasedInputs[r]].grid();
                    for (int k = 0; k < keys.count(releasedInputs[r]); k++) {
                        left[r].incrementAndGet(Math.toIntExact(grid.chunkIndexOf(keys.keyAt(releasedInputs[r], k))));
                    }
                }
            }
            readersLeft = left;
        }
        return readersLeft;
    }

    static int[] ones(int nd) {
        int[] ones = new int[nd];
        Arrays.fill(ones, 1);
        return ones;
    }

    /** Number of tasks: boxes of {@code chunksPerTask} output chunks covering the output grid. */
    public long numTasks() {
        return TaskRegion.numTasks(outputs[0].grid().chunksPerAxis(), chunksPerTask);
    }

    /**
     * Starts reading the input chunks of task {@code taskIndex} ahead, input chunk by input chunk in the order the
     * keys list them, the inputs interleaved (the order most chunk functions read them). Nothing when the task will
     * skip its chunks because they are written already (resuming).
     */
    @Override
    public void readAhead(long taskIndex) {
        TaskRegion region = TaskRegion.of(outputs[0].grid().chunksPerAxis(), chunksPerTask, taskIndex);
        if (skipWritten && allWritten(region)) {
            return;
        }
        readAhead(inputs, keyFunction, function, region);
    }

    /**
     * Starts reading ahead the chunks of {@code inputs} that {@code keyFunction} lists for the task of {@code region}
     * of an operation computed by {@code function}; of those of which the task will read only a box ({@link
     * ChunkArgs#box}: a gather's single output chunk needing part of a sharded input chunk), that box ({@link
     * ChunkStore#readRegionAhead}), not the whole stored chunk.
     */
    static void readAhead(ChunkStore[] inputs, KeyFunction keyFunction, ChunkFunction function, TaskRegion region) {
        ChunkArgs.Need[][] needed = function instanceof Gather g
                        && keyFunction == g
                        && region.isSingleChunk()
                        && Arrays.stream(inputs).anyMatch(ChunkArgs::readsBoxes)
                ? g.neededElements(region.first())
                : null;
        readAhead(inputs, keyFunction.taskKeys(region), needed, function);
    }

    /**
     * Bytes a task slot may usefully hold in requests in flight on this operation's arrays: the most any input or
     * output wants ({@link ChunkStore#inFlightBytes}); 0 when all of them are read and written on the task's thread.
     */
    public long inFlightBytes() {
        long most = 0;
        for (ChunkStore c : inputs) {
            most = Math.max(most, c.inFlightBytes());
        }
        for (ChunkStore c : outputs) {
            most = Math.max(most, c.inFlightBytes());
        }
        return most;
    }

    /**
     * Starts reading ahead the chunks {@code keys} lists of {@code inputs}, the inputs interleaved; with {@code
     * needed} (the elements the task reads of each listed chunk, per input; or null) only the box of those of which it
     * reads a box ({@link ChunkArgs#regionToRead}); none of an input that reads boxes when {@code function} reads
     * boxes of it that are not known ahead ({@link ChunkFunction#readsAheadWhole}).
     */
    private static void readAhead(
            ChunkStore[] inputs, TaskKeys keys, ChunkArgs.Need[][] needed, ChunkFunction function) {
        int most = 0;
        for (int j = 0; j < inputs.length; j++) {
            most = Math.max(most, keys.count(j));
        }
        for (int k = 0; k < most; k++) {
            for (int j = 0; j < inputs.length; j++) {
                if (k >= keys.count(j)) {
                    continue;
                }
                long[] key = keys.keyAt(j, k);
                ChunkArgs.Need need = needed != null && k < needed[j].length ? needed[j][k] : null;
                long[][] box = need == null ? null : ChunkArgs.regionToRead(inputs[j], key, need);
                if (box == null) {
                    if (function.readsAheadWhole(j) || !ChunkArgs.readsBoxes(inputs[j])) {
                        inputs[j].readAhead(key);
                    }
                    continue;
                }
                int[] shape = new int[box[0].length];
                for (int a = 0; a < shape.length; a++) {
                    shape[a] = Math.toIntExact(box[1][a] - box[0][a]);
                }
                // The box the task will read (its inner chunks' runs), not the whole stored chunk.
                inputs[j].readRegionAhead(box[0], shape, need.readable(inputs[j]));
            }
        }
    }

    @Override
    public TaskIo run(long taskIndex) {
        ChunkGrid grid = outputs[0].grid();
        TaskRegion region = TaskRegion.of(grid.chunksPerAxis(), chunksPerTask, taskIndex);
        if (skipWritten && allWritten(region)) {
            return TaskIo.NONE;
        }
        try (ArrayRecycler.Scope scope = ArrayRecycler.open(opName, recycleBytes)) {
            ChunkArgs args = new ChunkArgs(inputs, keyFunction.taskKeys(region));
            Writer writer = new Writer(region);
            try {
                function.applyRegion(args, region, writer);
            } catch (InvalidArgumentException e) {
                throw new InvalidArgumentException(opName + ": " + e.getMessage(), e);
            }
            writer.checkComplete();
            return new TaskIo(args.bytesRead(), writer.written);
        }
    }

    private boolean allWritten(TaskRegion region) {
        for (long k = 0; k < region.numChunks(); k++) {
            long[] coords = region.chunk(k);
            for (ChunkStore out : outputs) {
                if (!out.chunkExists(coords)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Checks and writes the chunks of one task's region, each exactly once. */
    private final class Writer implements ChunkSink {
        private final TaskRegion region;
        private final BitSet done;
        private long written;

        Writer(TaskRegion region) {
            this.region = region;
            this.done = new BitSet(Math.toIntExact(region.numChunks() * outputs.length));
        }

        @Override
        public int outputs() {
            return outputs.length;
        }

        @Override
        public void write(int output, long[] coords, Chunk chunk) {
            if (output < 0 || output >= outputs.length) {
                throw new CubedException(
                        opName + ": no output " + output + " (the operation has " + outputs.length + ")");
            }
            long k = region.indexOf(coords);
            if (k < 0) {
                throw new CubedException(
                        opName + ": chunk " + Arrays.toString(coords) + " is outside the task's " + region);
            }
            int bit = Math.toIntExact(k * outputs.length + output);
            if (done.get(bit)) {
                throw new CubedException(opName + ": chunk " + Arrays.toString(coords) + " of output " + output
                        + " written twice by one task");
            }
            ChunkStore out = outputs[output];
            int[] expected = out.grid().chunkShapeAt(coords);
            if (chunk == null || chunk.dtype() != out.dtype() || !Arrays.equals(chunk.shape(), expected)) {
                // No operation name here: run() adds it to every InvalidArgumentException of the chunk function.
                throw new InvalidArgumentException("the chunk function returned "
                        + (chunk == null
                                ? "null"
                                : "a " + chunk.dtype() + " chunk of shape " + Arrays.toString(chunk.shape()))
                        + " for chunk " + Arrays.toString(coords) + " of " + out.url() + ", expected a " + out.dtype()
                        + " chunk of shape " + Arrays.toString(expected));
            }
            out.writeChunk(chunk, coords);
            done.set(bit);
            written += chunk.nbytes();
        }

        void checkComplete() {
            int expected = Math.toIntExact(region.numChunks() * outputs.length);
            if (done.cardinality() != expected) {
                int missing = done.nextClearBit(0);
                throw new CubedException(opName + ": the chunk function did not write chunk "
                        + Arrays.toString(region.chunk(missing / outputs.length)) + " of output "
                        + missing % outputs.length + " (" + done.cardinality() + " of " + expected + " written)");
            }
        }
    }
}
