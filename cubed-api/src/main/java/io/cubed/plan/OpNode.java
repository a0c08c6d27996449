package io.cubed.plan;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.KeyFunction;
import io.cubed.primitive.TaskRegion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A blockwise operation of the plan: its id ({@code op-003}) and name ({@code add}), inputs, key and chunk functions,
 * how many chunks of each input a task holds at once, extra memory per task in bytes, how many output chunks per axis
 * one task computes (usually one), and its output arrays (all with the same number of chunks per axis). Immutable once
 * built.
 */
public final class OpNode {
    private static final AtomicLong COUNTER = new AtomicLong();

    private final String id;
    private final String name;
    private final List<ArrayNode> inputs;
    private final KeyFunction keyFunction;
    private final ChunkFunction function;
    private final int[] chunksHeldPerInput;
    private final long extraMemBytes;
    private final int[] chunksPerTask;
    private final String detail;
    private final List<ArrayNode> outputs = new ArrayList<>();

    private OpNode(
            String name,
            List<ArrayNode> inputs,
            KeyFunction keyFunction,
            ChunkFunction function,
            int[] chunksHeldPerInput,
            long extraMemBytes,
            int[] chunksPerTask,
            String detail) {
        this.id = String.format("op-%03d", COUNTER.incrementAndGet());
        this.name = name;
        this.inputs = List.copyOf(inputs);
        this.keyFunction = keyFunction;
        this.function = function;
        this.chunksHeldPerInput = chunksHeldPerInput.clone();
        this.extraMemBytes = extraMemBytes;
        this.chunksPerTask = chunksPerTask;
        this.detail = detail;
    }

    /**
     * A blockwise operation with outputs of the given dtypes and grids; {@code chunksHeldPerInput[j]} is how many
     * chunks of input {@code j} one task holds in memory at the same time (1 for chunks read one at a time).
     */
    public static OpNode blockwise(
            String name,
            List<ArrayNode> inputs,
            KeyFunction keyFunction,
            ChunkFunction function,
            int[] chunksHeldPerInput,
            long extraMemBytes,
            List<DType> outputDtypes,
            List<ChunkGrid> outputGrids) {
        return blockwise(
                name,
                inputs,
                keyFunction,
                function,
                chunksHeldPerInput,
                extraMemBytes,
                outputDtypes,
                outputGrids,
                null,
                null);
    }

    /** As {@link #blockwise}, one output chunk per task, with a line of {@code detail} for {@link Plan#explain}. */
    public static OpNode blockwise(
            String name,
            List<ArrayNode> inputs,
            KeyFunction keyFunction,
            ChunkFunction function,
            int[] chunksHeldPerInput,
            long extraMemBytes,
            List<DType> outputDtypes,
            List<ChunkGrid> outputGrids,
            String detail) {
        return blockwise(
                name,
                inputs,
                keyFunction,
                function,
                chunksHeldPerInput,
                extraMemBytes,
                outputDtypes,
                outputGrids,
                null,
                detail);
    }

    /**
     * As {@link #blockwise}, with tasks that each compute a box of {@code chunksPerTask} output chunks per axis
     * ({@code null}: one chunk per task; the chunk function must then override {@link
     * ChunkFunction#applyRegion}), and a line of {@code detail} for {@link Plan#explain} (or {@code null}).
     * {@code chunksHeldPerInput} and {@code extraMemBytes} describe a whole task: the memory of a task computing
     * several chunks (a region buffer, say) belongs in {@code extraMemBytes}; output chunks are written one at a time.
     */
    public static OpNode blockwise(
            String name,
            List<ArrayNode> inputs,
            KeyFunction keyFunction,
            ChunkFunction function,
            int[] chunksHeldPerInput,
            long extraMemBytes,
            List<DType> outputDtypes,
            List<ChunkGrid> outputGrids,
            int[] chunksPerTask,
            String detail) {
        if (chunksHeldPerInput.length != inputs.size()) {
            throw new InvalidArgumentException(name + ": chunksHeldPerInput has " + chunksHeldPerInput.length
                    + " entries for " + inputs.size() + " inputs");
        }
        if (outputDtypes.isEmpty() || outputDtypes.size() != outputGrids.size()) {
            throw new InvalidArgumentException(name + " needs one dtype and one grid per output");
        }
        long[] perAxis = outputGrids.get(0).chunksPerAxis();
        int[] perTask = chunksPerTask == null ? ones(perAxis.length) : chunksPerTask.clone();
        TaskRegion.numTasks(perAxis, perTask); // validates the number of axes and the counts
        OpNode op = new OpNode(name, inputs, keyFunction, function, chunksHeldPerInput, extraMemBytes, perTask, detail);
        for (int i = 0; i < outputDtypes.size(); i++) {
            if (!Arrays.equals(outputGrids.get(i).chunksPerAxis(), perAxis)) {
                throw new InvalidArgumentException(name + ": all outputs need the same number of chunks per axis");
            }
            op.outputs.add(ArrayNode.output(op, i, outputDtypes.get(i), outputGrids.get(i)));
        }
        return op;
    }

    public String id() {
        return id;
    }

    public String name() {
        return name;
    }

    public List<ArrayNode> inputs() {
        return inputs;
    }

    public KeyFunction keyFunction() {
        return keyFunction;
    }

    public ChunkFunction function() {
        return function;
    }

    public int chunksHeld(int input) {
        return chunksHeldPerInput[input];
    }

    public long extraMemBytes() {
        return extraMemBytes;
    }

    /** A line explaining the operation's figures, shown by {@link Plan#explain}, or {@code null}. */
    public String detail() {
        return detail;
    }

    public List<ArrayNode> outputs() {
        return List.copyOf(outputs);
    }

    /** Output chunks per task along each axis (a copy); all ones for one chunk per task. */
    public int[] chunksPerTask() {
        return chunksPerTask.clone();
    }

    /** Number of tasks: boxes of {@link #chunksPerTask()} output chunks covering the output grid. */
    public long numTasks() {
        return TaskRegion.numTasks(outputs.get(0).grid().chunksPerAxis(), chunksPerTask);
    }

    private static int[] ones(int nd) {
        int[] ones = new int[nd];
        Arrays.fill(ones, 1);
        return ones;
    }

    @Override
    public String toString() {
        return id + " " + name;
    }
}
