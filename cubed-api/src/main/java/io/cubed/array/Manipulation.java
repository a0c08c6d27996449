package io.cubed.array;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import io.cubed.memory.MemorySize;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.primitive.RechunkChunkFunction;
import io.cubed.primitive.RechunkKeyFunction;
import io.cubed.primitive.RechunkPlan;
import io.cubed.primitive.RechunkPlanner;
import io.cubed.primitive.RechunkStage;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.fs.Stores;
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
            return Creation.empty(shape, target, dtype, spec);
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
                    new RechunkChunkFunction(dtype, in, out),
                    new int[] {1},
                    s.regionBufferBytes() + s.keyBytes(),
                    List.of(dtype),
                    List.of(out),
                    s.outputChunksPerTask(),
                    detail);
            node = op.outputs().get(0);
        }
        return CubedArray.of(node, spec);
    }

    /**
     * The planner of a rechunk of {@code x} to {@code target} chunks with {@code x}'s spec: memory per task {@code
     * allowedMem − reservedMem}, read copies of the source or the work directory (the larger), write copies of the
     * work directory.
     */
    public static RechunkPlanner planner(CubedArray x, int[] target) {
        Spec spec = x.spec();
        BufferCopies work = BufferCopies.forStore(
                Stores.open(spec.workDir(), spec.storeOptions()).isObjectStore());
        ChunkStore source = x.node().source();
        BufferCopies in = source != null ? source.bufferCopies() : work;
        BufferCopies copies = new BufferCopies(Math.max(in.read(), work.read()), work.write());
        return RechunkPlanner.of(x.shape(), x.dtype().itemSizeBytes(), x.chunkShape(), target)
                .budget(spec.budget().availableBytes(), copies);
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
