package io.cubed.plan;

import io.cubed.primitive.BlockwiseTask;
import io.cubed.primitive.ComputedChunkStore;
import io.cubed.runtime.Stage;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.ZarrArray;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The stages of a computation's run, one per operation that runs (fused operations inside their reader's tasks,
 * sibling groups as their leader's one stage), each waiting for the stages that produce its inputs; where the
 * computation allows it, tasks delete the intermediate chunks they alone consume.
 */
final class StageBuilder {
    private final Spec spec;
    private final Plan plan;
    private final Fusion fusion;
    private final SiblingReads siblings;
    private final Map<OpNode, Long> projected;
    private final Map<ArrayNode, ChunkStore> stores;
    private final boolean resume;
    private final Set<ArrayNode> targetNodes;
    private final Predicate<OpNode> deferred;

    /**
     * Stages of {@code plan} as fused and grouped, reading and writing the arrays of {@code stores} (updated where
     * intermediates are released); {@code targetNodes} are the targets to store, {@code deferred} the operations left
     * to the readers of their targets.
     */
    StageBuilder(
            Spec spec,
            Plan plan,
            Fusion fusion,
            SiblingReads siblings,
            Map<OpNode, Long> projected,
            Map<ArrayNode, ChunkStore> stores,
            boolean resume,
            Set<ArrayNode> targetNodes,
            Predicate<OpNode> deferred) {
        this.spec = spec;
        this.plan = plan;
        this.fusion = fusion;
        this.siblings = siblings;
        this.projected = projected;
        this.stores = stores;
        this.resume = resume;
        this.targetNodes = targetNodes;
        this.deferred = deferred;
    }

    /** The stages, in the plan's order. */
    List<Stage> stages() {
        List<Stage> stages = new ArrayList<>();
        boolean releasing = releasesConsumedChunks();
        if (releasing) {
            markReleasedIntermediates();
        }
        for (OpNode op : plan.ops()) {
            if (fusion.isFused(op) || siblings.isFollower(op) || isDeferred(op)) {
                continue;
            }
            ChunkStore[] in = new ChunkStore[op.inputs().size()];
            for (int j = 0; j < in.length; j++) {
                in[j] = inputStore(op.inputs().get(j));
            }
            List<String> deps = new ArrayList<>();
            collectDependencies(op, deps);
            List<OpNode> group = siblings.group(op);
            if (!group.isEmpty()) {
                stages.add(sharedReadStage(op, group, in, deps));
                continue;
            }
            ChunkStore[] out = op.outputs().stream().map(stores::get).toArray(ChunkStore[]::new);
            stages.add(stage(
                    op.id(),
                    op.name() + stageSuffix(op),
                    op.numTasks(),
                    new BlockwiseTask(
                                    op.id() + " " + op.name(),
                                    in,
                                    out,
                                    op.keyFunction(),
                                    op.function(),
                                    op.chunksPerTask(),
                                    resume,
                                    workingSetBytes(projected.get(op)))
                            .deletingInputChunks(releasing ? consumedInputs(op, in) : new int[0]),
                    projected.get(op),
                    deps));
        }
        return stages;
    }

    /** The store computing the chunks of {@code t}, the output of an operation left to its readers, when read. */
    ChunkStore computedStore(ArrayNode t) {
        OpNode op = t.op();
        ChunkStore[] in = new ChunkStore[op.inputs().size()];
        for (int j = 0; j < in.length; j++) {
            in[j] = inputStore(op.inputs().get(j));
        }
        return new ComputedChunkStore(
                op.id() + " " + op.name(), in, op.keyFunction(), op.function(), t.outputIndex(), t.dtype(), t.grid());
    }

    /**
     * Whether tasks may delete intermediate chunks as they consume them ({@link #consumedInputs}): when the
     * computation neither keeps its intermediates nor can be resumed (a resumed run would find them gone), and the
     * work directory is not an object store (there the chunks are on the store already, and a request per chunk would
     * only free what the computation's end frees).
     */
    private boolean releasesConsumedChunks() {
        return !resume
                && !spec.keepIntermediates()
                && !Stores.supplier(spec.workDir(), spec.storeOptions()).open().isObjectStore();
    }

    /**
     * Has every intermediate whose chunks its reader's tasks delete ({@link #consumedInputs}) read a missing chunk as an
     * error ({@link ZarrArray#everyChunkStored()}): every chunk of an intermediate is written before any is read, so a
     * missing one was deleted, and a task reading it must fail rather than take the fill value for the data.
     */
    private void markReleasedIntermediates() {
        for (OpNode op : plan.ops()) {
            if (fusion.isFused(op)
                    || siblings.isFollower(op)
                    || isDeferred(op)
                    || !siblings.group(op).isEmpty()) {
                continue;
            }
            ChunkStore[] in = new ChunkStore[op.inputs().size()];
            for (int j = 0; j < in.length; j++) {
                in[j] = inputStore(op.inputs().get(j));
            }
            for (int j : consumedInputs(op, in)) {
                ArrayNode a = op.inputs().get(j);
                if (stores.get(a) instanceof ZarrArray z) {
                    stores.put(a, z.everyChunkStored());
                }
            }
        }
    }

    /**
     * The inputs of {@code op} (stored as {@code in}) whose chunks its tasks may delete as they finish, where {@link
     * #releasesConsumedChunks} allows it: intermediates that no other operation reads (not a target, not fused into a
     * reader, not read twice by {@code op}). On a local disk, a chunk deleted before the kernel has written it
     * back is never written: a rechunk's intermediate then occupies the page cache only until the next stage has read
     * it. Executors delete only where no task that reads the chunk can run again ({@link
     * io.cubed.runtime.TaskFunction#release}): the in-process executor after each task, Spark's on the driver as Spark
     * tasks succeed when speculation is off.
     */
    private int[] consumedInputs(OpNode op, ChunkStore[] in) {
        Set<ArrayNode> targets = new HashSet<>(plan.targets());
        targets.addAll(targetNodes);
        List<Integer> out = new ArrayList<>();
        for (int j = 0; j < in.length; j++) {
            ArrayNode a = op.inputs().get(j);
            if (a.source() != null
                    || targets.contains(a)
                    || fusion.isFused(a.op())
                    || isDeferred(a.op())
                    || in[j] != stores.get(a)) {
                continue;
            }
            int slots = 0;
            for (OpNode reader : plan.ops()) {
                for (ArrayNode input : reader.inputs()) {
                    if (input == a) {
                        slots++;
                    }
                }
            }
            if (slots == 1) {
                out.add(j);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The one stage of sibling operations that read their input once ({@link SiblingReads}): the leader's id, every
     * operation's outputs, and a task that pushes each input chunk to all of them.
     */
    private Stage sharedReadStage(OpNode leader, List<OpNode> group, ChunkStore[] in, List<String> deps) {
        List<ChunkStore> out = new ArrayList<>();
        io.cubed.primitive.StreamingChunkFunction[] parts = new io.cubed.primitive.StreamingChunkFunction[group.size()];
        int[] outputs = new int[group.size()];
        List<String> names = new ArrayList<>();
        for (int g = 0; g < group.size(); g++) {
            OpNode op = group.get(g);
            for (ArrayNode a : op.outputs()) {
                out.add(stores.get(a));
            }
            parts[g] = (io.cubed.primitive.StreamingChunkFunction) op.function();
            outputs[g] = op.outputs().size();
            if (g > 0) {
                names.add(op.id() + " " + op.name());
            }
        }
        String name = leader.name() + " (blockwise, with " + String.join(", ", names) + ": reads "
                + leader.inputs().get(0).name() + " once)";
        return stage(
                leader.id(),
                name,
                leader.numTasks(),
                new BlockwiseTask(
                        leader.id() + " " + name,
                        in,
                        out.toArray(ChunkStore[]::new),
                        leader.keyFunction(),
                        new io.cubed.primitive.SharedReadFunction(parts, outputs),
                        leader.chunksPerTask(),
                        resume,
                        workingSetBytes(siblings.projected(leader))),
                siblings.projected(leader),
                deps);
    }

    /**
     * The stage of {@code task}, whose tasks are projected to hold {@code taskBytes}, with room for store requests in
     * flight ({@link io.cubed.storage.ChunkIo}): what its arrays' stores may usefully hold ({@link
     * BlockwiseTask#inFlightBytes}), within what {@code allowedMem} leaves beside the task. The stage's projection
     * counts them.
     */
    private Stage stage(
            String id, String description, long numTasks, BlockwiseTask task, long taskBytes, List<String> deps) {
        long ioBytes =
                Math.min(task.inFlightBytes(), Math.max(0, spec.allowedMem().bytes() - taskBytes));
        return new Stage(id, description, numTasks, task, taskBytes + ioBytes, workingSetBytes(taskBytes), deps)
                .withIoBytes(ioBytes);
    }

    /**
     * What a thread may keep of one task's arrays for its next task of the same operation: the task's projected
     * memory without the reserve, the memory the plan already gives each running task.
     */
    private long workingSetBytes(Long projectedBytes) {
        return projectedBytes == null
                ? 0
                : Math.max(0, projectedBytes - spec.reservedMem().bytes());
    }

    /** How a stage is labelled: "(blockwise)", or "(blockwise, fuses op-003 negative, ...)". */
    private String stageSuffix(OpNode op) {
        List<String> names = new ArrayList<>();
        collectFused(op, names);
        return names.isEmpty() ? " (blockwise)" : " (blockwise, fuses " + String.join(", ", names) + ")";
    }

    private void collectFused(OpNode op, List<String> names) {
        for (OpNode p : fusion.predecessors(op)) {
            collectFused(p, names);
            names.add(p.id() + " " + p.name());
        }
    }

    /** The stages {@code op} waits for: the producers of its inputs, looking through fused operations. */
    private void collectDependencies(OpNode op, List<String> deps) {
        for (ArrayNode a : op.inputs()) {
            OpNode p = a.op();
            if (p == null) {
                continue;
            }
            if (fusion.isFused(p)) {
                collectDependencies(p, deps);
            } else if (!deps.contains(siblings.stageOf(p).id())) {
                deps.add(siblings.stageOf(p).id());
            }
        }
    }

    /** The store a task reads {@code a} from: its source, its stored array, or its chunks computed in the task. */
    private ChunkStore inputStore(ArrayNode a) {
        if (a.source() != null) {
            return a.source();
        }
        OpNode p = a.op();
        if (!fusion.isFused(p)) {
            return stores.get(a);
        }
        ChunkStore[] in = new ChunkStore[p.inputs().size()];
        for (int j = 0; j < in.length; j++) {
            in[j] = inputStore(p.inputs().get(j));
        }
        return new ComputedChunkStore(
                p.id() + " " + p.name(), in, p.keyFunction(), p.function(), a.outputIndex(), a.dtype(), a.grid());
    }

    private boolean isDeferred(OpNode op) {
        return deferred.test(op);
    }
}
