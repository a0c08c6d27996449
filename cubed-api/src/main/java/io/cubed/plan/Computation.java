package io.cubed.plan;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.memory.BufferCopies;
import io.cubed.memory.MemorySize;
import io.cubed.runtime.Callback;
import io.cubed.runtime.ExecutionPlan;
import io.cubed.runtime.Stage;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.IncompleteMark;
import io.cubed.storage.zarr.ZarrFormat;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One run of a plan: checks every operation against the memory budget, creates the output arrays (targets at their
 * URLs, intermediates under {@code workDir/cubed-<computeId>/}), runs the stages on the spec's executor, and deletes
 * the intermediates when {@link #cleanup} is called (unless the spec keeps them). While it runs, the intermediates
 * directory names its owner ({@link IntermediatesOwner}), so that {@link WorkDirCleaner} can tell the directory of a
 * killed driver from that of a live or resumable computation.
 */
public final class Computation {
    private static final DateTimeFormatter ID_FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss");

    private final Spec spec;
    private final Plan plan;
    private final String computeId;
    private final boolean resume;
    private boolean deleteEarly;
    private ZarrFormat targetFormat;
    private final ZarrFormat intermediateFormat;
    private String writer;
    private String resumeHint;
    private final java.util.Set<ArrayNode> targetNodes = new java.util.HashSet<>();
    private final Map<ArrayNode, String> urls = new HashMap<>();
    private final Map<OpNode, Long> projected = new LinkedHashMap<>();
    private final Map<ArrayNode, ChunkStore> stores = new HashMap<>();
    private final Map<ArrayNode, List<String>> dimensionNames = new HashMap<>();
    private java.util.function.UnaryOperator<io.cubed.storage.ChunkStore> targetSetUp =
            java.util.function.UnaryOperator.identity();
    private final java.util.Set<ArrayNode> deferred = new HashSet<>();
    private final Fusion fusion;
    private final SiblingReads siblings;
    private IntermediatesOwner owner;
    /** Whether {@link #run} has deleted the intermediates already (nothing read them after it). */
    private volatile boolean intermediatesDeleted;

    private Computation(
            Spec spec,
            Plan plan,
            Map<ArrayNode, String> targetUrls,
            FusionOptions fusionOptions,
            String resumeId,
            ZarrFormat targetFormat) {
        this.spec = spec;
        this.targetFormat = java.util.Objects.requireNonNull(targetFormat, "targetFormat");
        this.plan = plan;
        this.resume = resumeId != null;
        this.targetNodes.addAll(targetUrls.keySet());
        if (resumeId != null && !resumeId.matches("[A-Za-z0-9._-]{1,100}")) {
            throw new InvalidArgumentException("resume id '" + resumeId
                    + "' must be 1 to 100 letters, digits, '.', '_' or '-' (it names the intermediates' directory)");
        }
        this.computeId = resumeId != null
                ? resumeId
                : LocalDateTime.now().format(ID_FORMAT) + "-"
                        + UUID.randomUUID().toString().substring(0, 8);
        StoredArrays.assignUrls(plan, targetUrls, intermediateDir(), urls);
        this.intermediateFormat = StoredArrays.intermediateFormat(spec);
        java.util.function.Function<ArrayNode, BufferCopies> copies =
                StoredArrays.bufferCopies(spec, urls, targetUrls.keySet(), targetFormat, intermediateFormat);
        this.fusion = new Fusion(
                plan,
                new HashSet<>(plan.targets()),
                fusionOptions,
                spec.reservedMem().bytes(),
                spec.allowedMem().bytes(),
                copies);
        for (OpNode op : plan.ops()) {
            if (!fusion.isFused(op)) {
                projected.put(op, fusion.projected().get(op));
            }
        }
        this.siblings = new SiblingReads(
                plan,
                fusion,
                fusionOptions.enabled(),
                spec.reservedMem().bytes(),
                spec.allowedMem().bytes(),
                projected,
                copies);
    }

    /**
     * Prepares the computation of {@code targets} ({@code targetUrls} maps the ones to store to their URL); fails with
     * {@link MemoryBudgetExceededException} before anything runs when a task would exceed {@code allowedMem}.
     */
    public static Computation prepare(Spec spec, List<ArrayNode> targets, Map<ArrayNode, String> targetUrls) {
        return prepare(
                spec, targets, targetUrls, spec.optimize() ? FusionOptions.defaults() : FusionOptions.disabled());
    }

    /** As {@link #prepare(Spec, List, Map)}, fusing operations as {@code fusionOptions} say. */
    public static Computation prepare(
            Spec spec, List<ArrayNode> targets, Map<ArrayNode, String> targetUrls, FusionOptions fusionOptions) {
        return prepare(spec, targets, targetUrls, fusionOptions, null);
    }

    /**
     * As {@link #prepare(Spec, List, Map, FusionOptions)}, resumable when {@code resumeId} is not null: intermediates go
     * to {@code workDir/cubed-<resumeId>/} and are kept when the computation fails; arrays already there or at the
     * target URLs (same shape, chunks and dtype) are reused, and every task whose output chunks all exist is skipped.
     * Running again with the same id after a failure, even from a new process, computes only the missing chunks.
     */
    public static Computation prepare(
            Spec spec,
            List<ArrayNode> targets,
            Map<ArrayNode, String> targetUrls,
            FusionOptions fusionOptions,
            String resumeId) {
        return prepare(spec, targets, targetUrls, fusionOptions, resumeId, ZarrFormat.v2());
    }

    /**
     * As {@link #prepare(Spec, List, Map, FusionOptions, String)}, writing the targets in {@code targetFormat}, whose
     * codec's buffers count in the memory of the tasks that write them.
     */
    public static Computation prepare(
            Spec spec,
            List<ArrayNode> targets,
            Map<ArrayNode, String> targetUrls,
            FusionOptions fusionOptions,
            String resumeId,
            ZarrFormat targetFormat) {
        Computation c = new Computation(spec, Plan.of(targets), targetUrls, fusionOptions, resumeId, targetFormat);
        c.checkMemory();
        return c;
    }

    /**
     * The computation of {@code targets} prepared for inspection only ({@link #explain}, {@link #statistics},
     * {@link #visualize}): unlike {@link #prepare}, a plan over the memory budget is returned (its operations marked),
     * not refused.
     */
    public static Computation inspect(Spec spec, List<ArrayNode> targets, FusionOptions fusionOptions) {
        return new Computation(spec, Plan.of(targets), Map.of(), fusionOptions, null, ZarrFormat.v2());
    }

    private String intermediateDir() {
        return StoredArrays.intermediateDir(spec.workDir(), computeId);
    }

    private void checkMemory() {
        long allowed = spec.allowedMem().bytes();
        for (Map.Entry<OpNode, Long> e : projected.entrySet()) {
            if (e.getValue() > allowed) {
                OpNode op = e.getKey();
                long carried = fusion.carriedBytes(op);
                throw new MemoryBudgetExceededException("Projected blockwise memory (" + MemorySize.format(e.getValue())
                        + ") exceeds allowedMem (" + spec.allowedMem() + "), including reservedMem ("
                        + spec.reservedMem() + ") for " + op.id() + " " + op.name()
                        + (carried == 0
                                ? ""
                                : ", of which " + MemorySize.format(carried) + " (" + carried
                                        + " bytes) is data its tasks carry (asarray data, take's indices)")
                        + ": use smaller chunks or a larger allowedMem"
                        + (carried == 0 ? "" : ", or store the data in Zarr (Cubed.fromArray)"));
            }
        }
    }

    public String computeId() {
        return computeId;
    }

    public Plan plan() {
        return plan;
    }

    /** Which operations run inside others' tasks, and the figures they were decided on. */
    Fusion fusion() {
        return fusion;
    }

    /** Projected memory per task of each operation that runs (fused operations run inside others), in bytes. */
    public Map<OpNode, Long> projectedMemBytes() {
        return projected;
    }

    /**
     * The optimizer's decisions, one line per fusion taken or refused and per operation run with a sibling that reads the
     * same input (also logged at debug level).
     */
    public List<String> fusionDecisions() {
        List<String> all = new ArrayList<>(fusion.decisions());
        all.addAll(siblings.decisions());
        return all;
    }

    /** True when {@code op} runs inside the tasks of another operation. */
    public boolean isFused(OpNode op) {
        return fusion.isFused(op);
    }

    /** The plan's figures as it will run, with fusion. */
    public PlanStatistics statistics() {
        return PlanFigures.statistics(plan, fusion::isFused, projected, siblings);
    }

    /** The plan's figures as they would be without fusion, for comparison. */
    public PlanStatistics unoptimizedStatistics() {
        return PlanFigures.statistics(plan, op -> false, fusion.unfusedProjected(), null);
    }

    /**
     * The plan as a Graphviz graph: one node per operation that runs (with the operations fused into it, its tasks and
     * projected memory; red above {@code allowedMem}) and per array (shape, chunks, dtype, size; virtual arrays
     * dashed, intermediates grey, the arrays asked for bold).
     */
    public String dot() {
        return PlanGraph.dot(
                plan,
                fusion::isFused,
                fusion::predecessors,
                projected,
                spec.allowedMem().bytes());
    }

    /**
     * Writes {@link #dot()} to {@code base.dot} and, when Graphviz's {@code dot} is on the PATH, renders
     * {@code base.svg} and {@code base.png}; returns the files written ({@code base} may end in {@code .dot}).
     */
    public List<java.nio.file.Path> visualize(java.nio.file.Path base) {
        return PlanGraph.write(dot(), base);
    }

    /**
     * The operations' table with their figures (see {@link Plan#explain}), then a line per group of sibling operations
     * that run as one stage reading their input once, with the group's memory per task.
     */
    public String explain() {
        StringBuilder sb =
                new StringBuilder(plan.explain(projected, spec.allowedMem(), fusion::isFused, fusion::predecessors));
        PlanFigures.appendSiblingGroups(sb, plan, siblings);
        return sb.toString();
    }

    /**
     * The format of intermediate arrays under {@code spec}'s work directory: Zarr v2 with {@link Spec#intermediateCodec()}
     * ({@code auto}: no compressor on a local file system, the default Blosc-LZ4 elsewhere).
     */
    public static ZarrFormat intermediateFormat(Spec spec) {
        return StoredArrays.intermediateFormat(spec);
    }

    /** The format of intermediates compressed as {@code codec} says ({@code auto} or a spec) under {@code workDir}. */
    public static ZarrFormat intermediateFormat(String codec, String workDir) {
        return StoredArrays.intermediateFormat(codec, workDir);
    }

    /** Creates the output arrays, then runs every stage on the spec's executor. */
    public void run(List<Callback> callbacks) {
        OutputArrays outputs = new OutputArrays(
                spec,
                computeId,
                resume,
                urls,
                targetNodes,
                targetFormat,
                intermediateFormat,
                dimensionNames,
                targetSetUp,
                writer,
                resumeHint);
        List<ArrayNode> targets = new ArrayList<>();
        List<ArrayNode> intermediates = new ArrayList<>();
        for (OpNode op : plan.ops()) {
            if (fusion.isFused(op) || isDeferred(op)) {
                continue;
            }
            for (ArrayNode out : op.outputs()) {
                (targetNodes.contains(out) ? targets : intermediates).add(out);
            }
        }
        boolean overlap = requestsWait(targets);
        // Each target's place is looked at (a listing on an object store), all at once there.
        OutputArrays.each(targets, overlap, t -> {
            outputs.requireAbsent(t);
            return null;
        });
        // On an object store the targets apart from the work directory are created (each one or two writes, the
        // set-up's user code run for one at a time) while the intermediates' owner is written and then the
        // intermediates are created: their round trips overlap. The others are created after the intermediates, as
        // every target is elsewhere: one at the work directory itself is then refused, not made around them.
        List<ArrayNode> early = new ArrayList<>();
        List<ArrayNode> late = new ArrayList<>();
        for (ArrayNode t : targets) {
            (overlap && outputs.apartFromWorkDir(t) ? early : late).add(t);
        }
        java.util.concurrent.CompletableFuture<Map<ArrayNode, ChunkStore>> createdTargets = early.isEmpty()
                ? java.util.concurrent.CompletableFuture.completedFuture(Map.of())
                : io.cubed.storage.StoreThreads.supply(() -> OutputArrays.each(early, false, outputs::create));
        Map<ArrayNode, ChunkStore> createdIntermediates;
        try {
            if (owner == null && !intermediates.isEmpty()) {
                // Before the first intermediate: a directory without an owner is one that cubed clean leaves alone.
                String dir = intermediateDir();
                owner = IntermediatesOwner.start(
                        Stores.supplier(spec.workDir(), spec.storeOptions()).open(),
                        dir.substring(dir.lastIndexOf('/') + 1),
                        computeId,
                        resume,
                        spec.keepIntermediates(),
                        IntermediatesOwner.HEARTBEAT);
            }
            createdIntermediates = OutputArrays.each(intermediates, overlap, outputs::create);
        } catch (RuntimeException | Error e) {
            // Nothing goes on in the background once the computation has failed.
            try {
                createdTargets.join();
            } catch (RuntimeException t) {
                e.addSuppressed(t.getCause() != null ? t.getCause() : t);
            }
            throw e;
        }
        stores.putAll(createdIntermediates);
        stores.putAll(io.cubed.storage.StoreThreads.join(createdTargets));
        stores.putAll(OutputArrays.each(late, false, outputs::create));
        StageBuilder builder = new StageBuilder(
                spec, plan, fusion, siblings, projected, stores, resume, targetNodes, this::isDeferred);
        List<Stage> stages = builder.stages();
        List<Callback> all = callbacks;
        if (deleteEarly && !spec.keepIntermediates()) {
            all = new ArrayList<>(callbacks);
            all.add(new EarlyCleanup(spec, plan, fusion, siblings, urls, intermediateDir()));
        }
        spec.executor().execute(new ExecutionPlan(computeId, stages), all);
        for (ArrayNode t : deferred) {
            stores.put(t, builder.computedStore(t));
        }
        // Every task succeeded: the targets are complete. When nothing reads the intermediates after this (every
        // result is a stored target), they are deleted while the marks are removed, on an object store: two round
        // trips (a listing and a deletion) overlapping the marks' writes.
        java.util.concurrent.CompletableFuture<Void> dropping = overlap
                        && owner != null
                        && !spec.keepIntermediates()
                        && deferred.isEmpty()
                        && targetNodes.containsAll(plan.targets())
                ? io.cubed.storage.StoreThreads.run(this::deleteIntermediates)
                : null;
        try {
            for (ArrayNode t : targetNodes) {
                ChunkStore s = stores.get(t);
                if (s != null) {
                    stores.put(t, IncompleteMark.clear(s));
                }
            }
        } finally {
            if (dropping != null) {
                io.cubed.storage.StoreThreads.join(dropping);
            }
        }
    }

    /**
     * Whether the work directory's store or that of one of {@code targets} makes each request wait for the network
     * (an object store: {@link Store#concurrency} above 1), so that requests made at once take one round trip, not
     * one each. Opening a store asks it nothing.
     */
    private boolean requestsWait(List<ArrayNode> targets) {
        if (Stores.supplier(spec.workDir(), spec.storeOptions()).open().concurrency() > 1) {
            return true;
        }
        for (ArrayNode t : targets) {
            if (Stores.supplier(urls.get(t), spec.storeOptions()).open().concurrency() > 1) {
                return true;
            }
        }
        return false;
    }

    /**
     * Deletes each intermediate array as soon as every operation reading it has finished (default: all intermediates
     * at the end), bounding the storage a long plan occupies at once.
     */
    public Computation deleteIntermediatesEarly(boolean early) {
        this.deleteEarly = early;
        return this;
    }

    /**
     * Leaves the last operation of each target to whoever reads the target's chunks: {@link #run} then runs every
     * other stage, and {@link #store} gives, for such a target, a store that computes each chunk when read (from the
     * stored intermediates, in the reader's task, within the operation's projected memory) instead of a stored array.
     * Only a blockwise operation with one output, one chunk per task, no sibling group and no other reader can be left
     * so; other targets are stored in the work directory as usual. Returns the targets left to readers.
     */
    public java.util.Set<ArrayNode> deferTargets() {
        deferred.clear();
        for (ArrayNode t : plan.targets()) {
            OpNode op = t.op();
            if (op == null
                    || targetNodes.contains(t)
                    || fusion.isFused(op)
                    || op.outputs().size() != 1
                    || op.function() instanceof io.cubed.primitive.RechunkChunkFunction
                    || !siblings.group(op).isEmpty()
                    || siblings.isFollower(op)
                    || !EarlyCleanup.readers(plan, fusion, t).isEmpty()) {
                continue;
            }
            int[] perTask = op.chunksPerTask();
            boolean oneChunk = true;
            if (perTask != null) {
                for (int n : perTask) {
                    oneChunk &= n == 1;
                }
            }
            if (oneChunk) {
                deferred.add(t);
            }
        }
        return java.util.Collections.unmodifiableSet(new HashSet<>(deferred));
    }

    /** Dimension names to write to the stored targets (by node); targets missing from the map get none. */
    public Computation dimensionNames(Map<ArrayNode, List<String>> names) {
        this.dimensionNames.clear();
        this.dimensionNames.putAll(names);
        return this;
    }

    /**
     * Sets up each target array this computation creates, before its first chunk and before the dimension names are
     * written ({@code ComputeOptions.Builder.setUpTargets}).
     */
    public Computation setUpTargets(java.util.function.UnaryOperator<io.cubed.storage.ChunkStore> setUp) {
        this.targetSetUp = java.util.Objects.requireNonNull(setUp, "setUp");
        return this;
    }

    /**
     * What the targets' incomplete marks name as their writer and how they say to finish a target (null: the
     * computation and {@code ComputeOptions.resume}).
     */
    public Computation writtenBy(String writer, String resumeHint) {
        this.writer = writer;
        this.resumeHint = resumeHint;
        return this;
    }

    /** URLs of the intermediate arrays this computation stores in the work directory (after {@link #run}). */
    public List<String> storedIntermediates() {
        List<String> out = new ArrayList<>();
        for (OpNode op : plan.ops()) {
            if (fusion.isFused(op) || isDeferred(op)) {
                continue;
            }
            for (ArrayNode a : op.outputs()) {
                if (!targetNodes.contains(a)) {
                    out.add(urls.get(a));
                }
            }
        }
        return out;
    }

    private boolean isDeferred(OpNode op) {
        return op.outputs().size() == 1 && deferred.contains(op.outputs().get(0));
    }

    /**
     * The stored array of a computed array (after {@link #run}), or a source's own store; for a target left to its
     * readers ({@link #deferTargets}), a store computing its chunks when read.
     */
    public ChunkStore store(ArrayNode a) {
        return a.source() != null ? a.source() : stores.get(a);
    }

    /** Deletes the intermediate arrays, unless the spec keeps them. */
    public void cleanup() {
        cleanup(true);
    }

    /**
     * Deletes the intermediate arrays after a computation that {@code succeeded} or not, unless the spec keeps them;
     * a resumable computation that failed keeps them for the next attempt.
     */
    public void cleanup(boolean succeeded) {
        boolean leaving = spec.keepIntermediates() || (resume && !succeeded);
        if (owner != null) {
            owner.end(leaving);
        }
        if (leaving || intermediatesDeleted || storedIntermediates().isEmpty()) {
            // Kept; deleted already (run); or none was ever written (a listing of nothing is a round trip).
            return;
        }
        deleteIntermediates();
    }

    /** Ends the intermediates' owner and deletes their directory. */
    private void deleteIntermediates() {
        if (owner != null) {
            owner.end(false);
        }
        String dir = intermediateDir();
        Store work = Stores.open(spec.workDir(), spec.storeOptions());
        work.deletePrefix(dir.substring(dir.lastIndexOf('/') + 1));
        intermediatesDeleted = true;
    }
}
