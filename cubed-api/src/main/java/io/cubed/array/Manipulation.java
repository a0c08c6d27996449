package io.cubed.array;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import io.cubed.memory.MemorySize;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.Computation;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.primitive.RechunkChunkFunction;
import io.cubed.primitive.RechunkKeyFunction;
import io.cubed.primitive.RechunkPlan;
import io.cubed.primitive.RechunkPlanner;
import io.cubed.primitive.RechunkStage;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.ZarrFormat;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Manipulation functions of the Array API that change how an array is chunked or laid out. */
public final class Manipulation {
    private Manipulation() {}

    /**
     * {@code x} in chunks {@code chunks} (one length per axis, {@code -1}: the whole axis); Cubed's {@code rechunk}.
     * Returns {@code x} itself when the chunks do not change.
     */
    public static CubedArray rechunk(CubedArray x, int... chunks) {
        return rechunk(x, RechunkOptions.chunks(chunks));
    }

    /** {@code x} with new chunk lengths for the axes in {@code chunksByAxis}; the other axes keep theirs. */
    public static CubedArray rechunk(CubedArray x, Map<Integer, Integer> chunksByAxis) {
        return rechunk(x, RechunkOptions.builder().axes(chunksByAxis).build());
    }

    /**
     * {@code x} rechunked as {@code options} say, through as many copy stages as the memory budget needs, every task
     * within {@code allowedMem} (see docs/rechunk.md). Builds the stages now, runs nothing; returns {@code x} itself
     * when the chunks do not change. Fails with {@link MemoryBudgetExceededException}, naming the {@code allowedMem}
     * that would work, when even the source and target chunks alone do not fit.
     */
    public static CubedArray rechunk(CubedArray x, RechunkOptions options) {
        int[] target = targetChunks(x, options);
        Spec spec = x.spec();
        long[] shape = x.shape();
        DType dtype = x.dtype();
        if (Arrays.equals(Chunking.grid(shape, x.chunkShape(), x.name()).chunkShape(), target)) {
            return x;
        }
        if (x.size() == 0) {
            return Creation.empty(shape, target, dtype, spec).withDimsOf(x);
        }
        RechunkPlanner planner = planner(x, target).maxStages(options.maxStages());
        if (options.minMemBytes() >= 0) {
            planner.minMem(options.minMemBytes());
        }
        RechunkPlan plan;
        try {
            plan = planner.plan();
        } catch (MemoryBudgetExceededException e) {
            long need = planner.minimumTaskBytes() + spec.reservedMem().bytes();
            throw new MemoryBudgetExceededException("rechunk of " + x.name() + " " + Arrays.toString(shape) + " "
                    + dtype + " from chunks " + Arrays.toString(x.chunkShape()) + " to " + Arrays.toString(target)
                    + " needs allowedMem of at least " + MemorySize.format(need) + " (" + need + " bytes, including "
                    + "reservedMem " + spec.reservedMem() + "), but allowedMem is " + spec.allowedMem()
                    + ": a copy task holds at least one source chunk or one target chunk with its buffers; raise "
                    + "allowedMem or use smaller chunks");
        }
        ArrayNode node = x.node();
        List<RechunkStage> stages = plan.stages();
        for (int i = 0; i < stages.size(); i++) {
            RechunkStage s = stages.get(i);
            ChunkGrid in = node.grid();
            ChunkGrid out = ChunkGrid.of(shape, s.outputChunks());
            String detail = String.format(
                    Locale.ROOT,
                    "read chunks %s, region %s, write chunks %s: %d reads, %d writes, %s read, %s written; a task "
                            + "reads %d and writes %d chunk(s)%s",
                    Arrays.toString(s.inputChunks()),
                    Arrays.toString(s.regionChunks()),
                    Arrays.toString(s.outputChunks()),
                    s.reads(),
                    s.writes(),
                    MemorySize.format(s.bytesRead()),
                    MemorySize.format(s.bytesWritten()),
                    s.fanIn(),
                    s.fanOut(),
                    s.regionBuffered() ? ", region buffer " + MemorySize.format(s.regionBufferBytes()) : "");
            OpNode op = OpNode.blockwise(
                    "rechunk (stage " + (i + 1) + "/" + stages.size() + ")",
                    List.of(node),
                    new RechunkKeyFunction(in, out),
                    new RechunkChunkFunction(dtype, in, out, s.readsInputsInto()),
                    new int[] {1},
                    s.extraMemBytes(),
                    List.of(dtype),
                    List.of(out),
                    s.outputChunksPerTask(),
                    detail);
            node = op.outputs().get(0);
        }
        return CubedArray.of(node, spec).withDimsOf(x);
    }

    // ---- Array API manipulation functions (see docs/manipulation.md) ----

    /**
     * {@code x} broadcast to {@code shape} ({@code broadcast_to}); as Cubed, new axes and stretched length-1 axes get
     * chunks of 1 and the other axes keep {@code x}'s chunks. Returns {@code x} when nothing changes.
     */
    public static CubedArray broadcastTo(CubedArray x, long... shape) {
        return Layout.broadcastTo(x, shape, null);
    }

    /** {@code x} broadcast to {@code shape} in chunks {@code chunks} (per axis, {@code -1}: whole axis). */
    public static CubedArray broadcastTo(CubedArray x, long[] shape, int[] chunks) {
        return Layout.broadcastTo(x, shape, chunks);
    }

    /**
     * The arrays broadcast to their common shape ({@code broadcast_arrays}), all in the same chunks: along each axis
     * the smallest chunk of the arrays that have the full length there (1 where all have length 1).
     */
    public static List<CubedArray> broadcastArrays(CubedArray... arrays) {
        return Layout.broadcastArrays(List.of(arrays));
    }

    /**
     * The arrays joined along {@code axis} ({@code concat}), promoted to their result type. Output chunks: along
     * {@code axis} the largest chunk of the inputs, along the other axes the smallest. A task reads the input chunks
     * its output chunk overlaps, one at a time.
     */
    public static CubedArray concat(List<CubedArray> arrays, int axis) {
        return Layout.concat(arrays, axis, null);
    }

    /** {@link #concat(List, int)} along axis 0. */
    public static CubedArray concat(List<CubedArray> arrays) {
        return Layout.concat(arrays, 0, null);
    }

    /** {@link #concat(List, int)} with output chunks {@code chunks} (per axis, {@code -1}: whole axis). */
    public static CubedArray concat(List<CubedArray> arrays, int axis, int[] chunks) {
        return Layout.concat(arrays, axis, chunks);
    }

    /** The arrays flattened (C order) and joined into one 1-d array ({@code concat(arrays, axis=None)}). */
    public static CubedArray concatFlattened(List<CubedArray> arrays) {
        return Layout.concat(arrays, null, null);
    }

    /**
     * The arrays, all of one shape, joined along a new axis {@code axis} ({@code stack}), promoted to their result
     * type; chunks of 1 along the new axis (as Cubed), the smallest of the inputs' chunks along the others.
     */
    public static CubedArray stack(List<CubedArray> arrays, int axis) {
        return Layout.stack(arrays, axis);
    }

    /** {@link #stack(List, int)} along a new first axis. */
    public static CubedArray stack(List<CubedArray> arrays) {
        return Layout.stack(arrays, 0);
    }

    /**
     * {@code x} split along {@code axis} into {@code x.shape()[axis]} arrays ({@code unstack}), in one operation with
     * one output per index (as Cubed): a task reads the chunks along {@code axis} one at a time and holds one chunk of
     * every output.
     */
    public static List<CubedArray> unstack(CubedArray x, int axis) {
        return Layout.unstack(x, axis);
    }

    /** {@link #unstack(CubedArray, int)} along axis 0. */
    public static List<CubedArray> unstack(CubedArray x) {
        return Layout.unstack(x, 0);
    }

    /**
     * {@code x} with new axes of length 1 (and chunk 1) at positions {@code axes} of the result ({@code expand_dims});
     * negative positions count from the end of the result.
     */
    public static CubedArray expandDims(CubedArray x, int... axes) {
        return Layout.expandDims(x, axes);
    }

    /**
     * {@code x} without the length-1 axes {@code axes} ({@code squeeze}); with no axes given, without every length-1
     * axis (NumPy's default). An axis of another length is refused.
     */
    public static CubedArray squeeze(CubedArray x, int... axes) {
        int[] a = axes;
        if (a.length == 0) {
            a = java.util.stream.IntStream.range(0, x.ndim())
                    .filter(i -> x.shape()[i] == 1)
                    .toArray();
        }
        return Layout.squeeze(x, a);
    }

    /** {@code x} with the order of elements reversed along {@code axes} (all axes when none given) ({@code flip}). */
    public static CubedArray flip(CubedArray x, int... axes) {
        return Layout.flip(x, axes.length == 0 ? null : axes);
    }

    /** {@code x} with its axes in the order {@code axes} ({@code permute_dims}); chunks move with their axes. */
    public static CubedArray permuteDims(CubedArray x, int... axes) {
        return Layout.permuteDims(x, axes);
    }

    /** {@code x} with axis {@code source} moved to position {@code destination} ({@code moveaxis}). */
    public static CubedArray moveaxis(CubedArray x, int source, int destination) {
        return Layout.moveaxis(x, new int[] {source}, new int[] {destination});
    }

    /** {@code x} with axes {@code source} moved to positions {@code destination}, the others in order. */
    public static CubedArray moveaxis(CubedArray x, int[] source, int[] destination) {
        return Layout.moveaxis(x, source, destination);
    }

    /**
     * {@code x} with shape {@code shape} ({@code reshape}), elements in global C order; one length may be {@code -1}.
     * Rechunks {@code x} so that its chunks are whole rows of the merged or split axes, then reshapes chunk by chunk
     * (see docs/manipulation.md for the chunks chosen).
     */
    public static CubedArray reshape(CubedArray x, long... shape) {
        return Reshape.reshape(x, shape);
    }

    /** {@code x} flattened, rolled by {@code shift} elements and given its shape back ({@code roll(x, shift)}). */
    public static CubedArray roll(CubedArray x, long shift) {
        CubedArray flat = Reshape.reshape(x, new long[] {-1});
        return Reshape.reshape(Layout.roll(flat, new long[] {shift}, new int[] {0}), x.shape());
    }

    /** {@code x} shifted cyclically by {@code shift} elements along {@code axis} ({@code roll}); chunks unchanged. */
    public static CubedArray roll(CubedArray x, long shift, int axis) {
        return Layout.roll(x, new long[] {shift}, new int[] {axis});
    }

    /** {@code x} shifted by {@code shifts[k]} along {@code axes[k]} (shifts of a repeated axis add up). */
    public static CubedArray roll(CubedArray x, long[] shifts, int[] axes) {
        return Layout.roll(x, shifts, axes);
    }

    /**
     * {@code x} with every element repeated {@code repeats} times along {@code axis} ({@code repeat}), in {@code x}'s
     * chunks.
     */
    public static CubedArray repeat(CubedArray x, long repeats, int axis) {
        return Layout.repeat(x, repeats, axis);
    }

    /** {@code x} flattened with every element repeated {@code repeats} times ({@code repeat(x, repeats)}). */
    public static CubedArray repeat(CubedArray x, long repeats) {
        return Layout.repeat(Reshape.reshape(x, new long[] {-1}), repeats, 0);
    }

    /**
     * {@code x} repeated {@code repetitions[i]} times along each axis ({@code tile}); with more repetitions than axes,
     * {@code x} gets new leading axes (chunk 1), with fewer, the leading axes are repeated once. Chunks are {@code x}'s.
     */
    public static CubedArray tile(CubedArray x, long... repetitions) {
        return Layout.tile(x, repetitions);
    }

    /**
     * {@code x} padded with {@code padWidth[axis] = {before, after}} elements (one pair for every axis, or a single pair
     * for all) ({@code pad}): {@link PadMode#CONSTANT} with {@code constantValue} (zero when null; an integer must fit
     * {@code x}'s integer type, as for {@code add}), or
     * {@link PadMode#SYMMETRIC}, reflecting the array with its edge elements. Chunks are {@code x}'s.
     */
    public static CubedArray pad(CubedArray x, long[][] padWidth, PadMode mode, Scalar constantValue) {
        return Layout.pad(x, padWidth, mode, constantValue, null);
    }

    /** {@link #pad(CubedArray, long[][], PadMode, Scalar)} with output chunks {@code chunks}. */
    public static CubedArray pad(CubedArray x, long[][] padWidth, PadMode mode, Scalar constantValue, int[] chunks) {
        return Layout.pad(x, padWidth, mode, constantValue, chunks);
    }

    /**
     * The planner of a rechunk of {@code x} to {@code target} chunks with {@code x}'s spec: memory per task {@code
     * allowedMem − reservedMem}, read copies of the source or the work directory (the larger), write copies of the
     * work directory, reads into other chunks with no decoded chunk where both read so, and the executor's {@link
     * io.cubed.runtime.Executor#parallelism}.
     */
    public static RechunkPlanner planner(CubedArray x, int[] target) {
        Spec spec = x.spec();
        BufferCopies work = workCopies(spec);
        BufferCopies source = readCopies(x);
        BufferCopies copies = new BufferCopies(
                Math.max(source.read(), work.read()), work.write(), source.readsInto() && work.readsInto());
        return RechunkPlanner.of(x.shape(), x.dtype().itemSizeBytes(), x.chunkShape(), target)
                .budget(spec.budget().availableBytes(), copies)
                .parallelism(spec.executor().parallelism());
    }

    /**
     * The buffer copies of an intermediate array in {@code spec}'s work directory, which hold their codec's buffer too
     * (an intermediateCodec other than Blosc and zstd), as Computation counts them.
     */
    static BufferCopies workCopies(Spec spec) {
        ZarrFormat format = Computation.intermediateFormat(spec);
        return BufferCopies.forStore(
                        Stores.open(spec.workDir(), spec.storeOptions()).isObjectStore())
                .plus(format.codecCopies())
                .readingInto(format.readsInto());
    }

    /** The buffer copies a task reading {@code x} holds: its store's when stored, else the work directory's. */
    static BufferCopies readCopies(CubedArray x) {
        ChunkStore source = x.node().source();
        return source != null ? source.bufferCopies() : workCopies(x.spec());
    }

    /** The target chunk shape of {@code options} for {@code x}, normalized (whole axes, clipped to the shape). */
    static int[] targetChunks(CubedArray x, RechunkOptions options) {
        long[] shape = x.shape();
        if (options.chunks() != null) {
            return Chunking.grid(shape, options.chunks(), "rechunk of " + x.name())
                    .chunkShape();
        }
        int nd = shape.length;
        int[] c = Chunking.grid(shape, x.chunkShape(), x.name()).chunkShape();
        boolean[] given = new boolean[nd];
        for (Map.Entry<Integer, Integer> e : options.perAxis().entrySet()) {
            int axis = e.getKey() < 0 ? e.getKey() + nd : e.getKey();
            if (axis < 0 || axis >= nd) {
                throw new InvalidArgumentException(
                        "rechunk: axis " + e.getKey() + " is not an axis of " + x.name() + " (rank " + nd + ")");
            }
            c[axis] = e.getValue();
            given[axis] = true;
        }
        c = Chunking.grid(shape, c, "rechunk of " + x.name()).chunkShape();
        if (options.autoChunkSize() != null) {
            autoSize(
                    c,
                    given,
                    shape,
                    x.dtype().itemSizeBytes(),
                    options.autoChunkSize().bytes());
        }
        return c;
    }

    /**
     * Scales the chunks of the axes not {@code given} by one common factor so that a chunk holds about {@code bytes}
     * bytes; an axis that reaches its length (or 1) keeps it and the others share the rest.
     */
    static void autoSize(int[] c, boolean[] given, long[] shape, int itemsize, long bytes) {
        boolean[] free = new boolean[c.length];
        for (int i = 0; i < c.length; i++) {
            free[i] = !given[i];
        }
        while (true) {
            double fixed = itemsize;
            double current = 1;
            int n = 0;
            for (int i = 0; i < c.length; i++) {
                if (free[i]) {
                    current *= c[i];
                    n++;
                } else {
                    fixed *= c[i];
                }
            }
            if (n == 0) {
                return;
            }
            double factor = Math.pow(bytes / (fixed * current), 1.0 / n);
            boolean clipped = false;
            for (int i = 0; i < c.length; i++) {
                if (!free[i]) {
                    continue;
                }
                double v = c[i] * factor;
                long full = Math.max(1, Math.min(shape[i], Integer.MAX_VALUE - 8));
                if (v >= full) {
                    c[i] = (int) full;
                    free[i] = false;
                    clipped = true;
                } else if (v < 1) {
                    c[i] = 1;
                    free[i] = false;
                    clipped = true;
                }
            }
            if (!clipped) {
                for (int i = 0; i < c.length; i++) {
                    if (free[i]) {
                        c[i] = (int) Math.max(1, Math.floor(c[i] * factor + 1e-9));
                    }
                }
                return;
            }
        }
    }
}
