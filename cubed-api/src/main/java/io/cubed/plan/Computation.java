package io.cubed.plan;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.error.PlanException;
import io.cubed.memory.BufferCopies;
import io.cubed.memory.MemorySize;
import io.cubed.primitive.BlockwiseTask;
import io.cubed.primitive.ComputedChunkStore;
import io.cubed.runtime.Callback;
import io.cubed.runtime.ExecutionPlan;
import io.cubed.runtime.Stage;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.Store;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.IncompleteMark;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrFormat;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    private final java.util.Set<ArrayNode> deferred = new HashSet<>();
    private final Fusion fusion;
    private final SiblingReads siblings;
    private IntermediatesOwner owner;

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
        String base = intermediateDir();
        // Intermediates are named by their place in the plan, not by the process-wide array counter, so that the
        // same plan built again (by a new process resuming it) finds the arrays of the first attempt.
        int position = 0;
        for (OpNode op : plan.ops()) {
            position++;
            for (ArrayNode out : op.outputs()) {
                String target = targetUrls.get(out);
                String name = String.format(
                        java.util.Locale.ROOT,
                        "%04d-%s-%d",
                        position,
                        op.name().replaceAll("[^A-Za-z0-9_.-]+", "_"),
                        out.outputIndex());
                urls.put(out, target != null ? target : base + "/" + name + ".zarr");
            }
        }
        this.intermediateFormat = intermediateFormat(spec);
        BufferCopies workCopies = copiesOf(spec.workDir(), spec).plus(intermediateFormat.codecCopies());
        Map<String, BufferCopies> byUrl = new HashMap<>();
        java.util.function.Function<ArrayNode, BufferCopies> copies = a -> {
            if (a.source() != null) {
                return a.source().bufferCopies();
            }
            String url = urls.get(a);
            if (url == null) {
                return workCopies;
            }
            // Arrays hold their codec's buffers too (none for Zarr v2 Blosc or no compressor).
            BufferCopies store = byUrl.computeIfAbsent(url, u -> copiesOf(u, spec));
            return store.plus(
                    targetUrls.containsKey(a) ? targetFormat.codecCopies() : intermediateFormat.codecCopies());
        };
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

    /** Buffer copies of the store at {@code url}, opened with the spec's store options (shared, not left open). */
    private static BufferCopies copiesOf(String url, Spec spec) {
        return BufferCopies.forStore(
                Stores.supplier(url, spec.storeOptions()).open().isObjectStore());
    }

    private String intermediateDir() {
        String w = spec.workDir();
        return (w.endsWith("/") ? w : w + "/") + "cubed-" + computeId;
    }

    private void checkMemory() {
        long allowed = spec.allowedMem().bytes();
        for (Map.Entry<OpNode, Long> e : projected.entrySet()) {
            if (e.getValue() > allowed) {
                OpNode op = e.getKey();
                throw new MemoryBudgetExceededException("Projected blockwise memory (" + MemorySize.format(e.getValue())
                        + ") exceeds allowedMem (" + spec.allowedMem() + "), including reservedMem ("
                        + spec.reservedMem() + ") for " + op.id() + " " + op.name()
                        + ": use smaller chunks or a larger allowedMem");
            }
        }
    }

    public String computeId() {
        return computeId;
    }

    public Plan plan() {
        return plan;
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
        return statistics(fusion::isFused, projected, siblings);
    }

    /** The plan's figures as they would be without fusion, for comparison. */
    public PlanStatistics unoptimizedStatistics() {
        return statistics(op -> false, fusion.unfusedProjected(), null);
    }

    /**
     * The figures with operations for which {@code fused} is true run inside others, and, when {@code shared} is not
     * null, sibling operations run in their leader's stage: one stage, one set of tasks and one read of the input
     * for the group, the group's memory, every sibling's outputs.
     */
    private PlanStatistics statistics(
            java.util.function.Predicate<OpNode> fused, Map<OpNode, Long> mem, SiblingReads shared) {
        int running = 0;
        long tasks = 0;
        long maxMem = 0;
        long read = 0;
        long written = 0;
        long intermediate = 0;
        Set<ArrayNode> targets = new HashSet<>(plan.targets());
        for (OpNode op : plan.ops()) {
            if (fused.test(op)) {
                continue;
            }
            if (shared == null || !shared.isFollower(op)) {
                running++;
                tasks += op.numTasks();
                long m =
                        shared != null && !shared.group(op).isEmpty() ? shared.projected(op) : mem.getOrDefault(op, 0L);
                maxMem = Math.max(maxMem, m);
                read += storedBytesRead(op, fused, new HashSet<>());
            }
            for (ArrayNode out : op.outputs()) {
                written += out.nbytes();
                if (!targets.contains(out)) {
                    intermediate += out.nbytes();
                }
            }
        }
        return new PlanStatistics(running, plan.ops().size() - running, tasks, maxMem, read, written, intermediate);
    }

    /** Bytes of the stored arrays {@code op}'s tasks read, looking through fused operations; each array once. */
    private static long storedBytesRead(OpNode op, java.util.function.Predicate<OpNode> fused, Set<ArrayNode> seen) {
        long total = 0;
        for (ArrayNode a : op.inputs()) {
            if (!seen.add(a)) {
                continue;
            }
            if (a.source() != null) {
                total += a.source().isVirtual() ? 0 : a.nbytes();
            } else if (fused.test(a.op())) {
                total += storedBytesRead(a.op(), fused, seen);
            } else {
                total += a.nbytes();
            }
        }
        return total;
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
        for (OpNode op : plan.ops()) {
            List<OpNode> group = siblings.group(op);
            if (group.isEmpty()) {
                continue;
            }
            List<String> names = new ArrayList<>();
            for (OpNode g : group) {
                names.add(g.id() + " " + g.name());
            }
            sb.append(String.format(
                    java.util.Locale.ROOT,
                    "%s run as one stage of %d tasks reading %s once, %s per task%n",
                    String.join(" and ", names),
                    op.numTasks(),
                    op.inputs().get(0).name(),
                    io.cubed.memory.MemorySize.format(siblings.projected(op))));
        }
        return sb.toString();
    }

    /**
     * The format of intermediate arrays under {@code spec}'s work directory: Zarr v2 with {@link Spec#intermediateCodec()}
     * ({@code auto}: no compressor on a local file system, the default Blosc-LZ4 elsewhere).
     */
    public static ZarrFormat intermediateFormat(Spec spec) {
        return intermediateFormat(spec.intermediateCodec(), spec.workDir());
    }

    /** The format of intermediates compressed as {@code codec} says ({@code auto} or a spec) under {@code workDir}. */
    public static ZarrFormat intermediateFormat(String codec, String workDir) {
        if (!codec.equalsIgnoreCase("auto")) {
            return ZarrFormat.v2(io.cubed.storage.zarr.Compressor.parseSpec(codec), io.cubed.dtype.Scalar.zero());
        }
        return onLocalFileSystem(workDir) ? ZarrFormat.v2(null, io.cubed.dtype.Scalar.zero()) : ZarrFormat.v2();
    }

    /** Whether {@code url} is a path or a {@code file:} URI (not a Hadoop or object-store URI). */
    static boolean onLocalFileSystem(String url) {
        int colon = url.indexOf(':');
        int slash = url.indexOf('/');
        if (colon < 0 || (slash >= 0 && slash < colon)) {
            return true;
        }
        String scheme = url.substring(0, colon);
        // A one-letter scheme is a Windows drive letter.
        return scheme.equalsIgnoreCase("file") || scheme.length() == 1;
    }

    /** Creates the output arrays, then runs every stage on the spec's executor. */
    public void run(List<Callback> callbacks) {
        for (OpNode op : plan.ops()) {
            if (fusion.isFused(op) || isDeferred(op)) {
                continue;
            }
            for (ArrayNode out : op.outputs()) {
                String url = urls.get(out);
                if (!resume && Zarr.arrayExists(url, spec.storeOptions())) {
                    throw new PlanException("cannot write " + out.name() + " to " + url + ": an array already exists "
                            + "there (resume a failed computation with ComputeOptions.resume)");
                }
            }
        }
        List<Stage> stages = new ArrayList<>();
        if (owner == null && !storedIntermediates().isEmpty()) {
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
        for (OpNode op : plan.ops()) {
            if (fusion.isFused(op) || isDeferred(op)) {
                continue;
            }
            for (ArrayNode out : op.outputs()) {
                stores.put(out, outputArray(out));
            }
        }
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
        List<Callback> all = callbacks;
        if (deleteEarly && !spec.keepIntermediates()) {
            all = new ArrayList<>(callbacks);
            all.add(new EarlyCleanup());
        }
        spec.executor().execute(new ExecutionPlan(computeId, stages), all);
        for (ArrayNode t : deferred) {
            OpNode op = t.op();
            ChunkStore[] in = new ChunkStore[op.inputs().size()];
            for (int j = 0; j < in.length; j++) {
                in[j] = inputStore(op.inputs().get(j));
            }
            stores.put(
                    t,
                    new ComputedChunkStore(
                            op.id() + " " + op.name(),
                            in,
                            op.keyFunction(),
                            op.function(),
                            t.outputIndex(),
                            t.dtype(),
                            t.grid()));
        }
        // Every task succeeded: the targets are complete.
        for (ArrayNode t : targetNodes) {
            ChunkStore s = stores.get(t);
            if (s != null) {
                stores.put(t, IncompleteMark.clear(s));
            }
        }
    }

    /**
     * Deletes each intermediate array as soon as every operation reading it has finished (default: all intermediates
     * at the end), bounding the storage a long plan occupies at once.
     */
    public Computation deleteIntermediatesEarly(boolean early) {
        this.deleteEarly = early;
        return this;
    }

    /** The running operations that read {@code a}'s stored array, looking through fused operations. */
    private java.util.Set<OpNode> readers(ArrayNode a) {
        java.util.Set<OpNode> out = new HashSet<>();
        for (OpNode op : plan.ops()) {
            if (op.inputs().contains(a)) {
                if (fusion.isFused(op)) {
                    for (ArrayNode o : op.outputs()) {
                        out.addAll(readers(o));
                    }
                } else {
                    out.add(op);
                }
            }
        }
        return out;
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

    /** Deletes intermediates whose readers have all finished, as operations end. */
    private final class EarlyCleanup implements Callback {
        private final Map<String, java.util.Set<String>> pendingReaders = new HashMap<>();
        private final Map<String, String> urlOf = new HashMap<>();

        EarlyCleanup() {
            Set<ArrayNode> targets = new HashSet<>(plan.targets());
            for (OpNode op : plan.ops()) {
                if (fusion.isFused(op)) {
                    continue;
                }
                for (ArrayNode out : op.outputs()) {
                    if (targets.contains(out)) {
                        continue;
                    }
                    java.util.Set<String> ids = new HashSet<>();
                    for (OpNode r : readers(out)) {
                        ids.add(siblings.stageOf(r).id());
                    }
                    pendingReaders.put(out.name(), ids);
                    urlOf.put(out.name(), urls.get(out));
                }
            }
        }

        @Override
        public synchronized void onOperationEnd(OperationEnd event) {
            String done = event.stage().id();
            String dir = intermediateDir();
            String prefix = dir.substring(dir.lastIndexOf('/') + 1);
            Store work = Stores.open(spec.workDir(), spec.storeOptions());
            for (Map.Entry<String, java.util.Set<String>> e : pendingReaders.entrySet()) {
                if (e.getValue().remove(done) && e.getValue().isEmpty()) {
                    String url = urlOf.get(e.getKey());
                    work.deletePrefix(prefix + "/" + url.substring(url.lastIndexOf('/') + 1));
                }
            }
        }
    }

    /** The array {@code out} is written to: created, or (resuming) the one already there if it matches. */
    private ChunkStore outputArray(ArrayNode out) {
        String url = urls.get(out);
        if (resume && Zarr.arrayExists(url, spec.storeOptions())) {
            ChunkStore existing = Zarr.open(url, spec.storeOptions());
            if (!java.util.Arrays.equals(existing.grid().shape(), out.grid().shape())
                    || !java.util.Arrays.equals(
                            existing.grid().chunkShape(), out.grid().chunkShape())
                    || existing.dtype() != out.dtype()) {
                throw new PlanException("cannot resume " + out.name() + " at " + url + ": the array there is "
                        + existing.dtype() + " "
                        + java.util.Arrays.toString(existing.grid().shape()) + " in chunks "
                        + java.util.Arrays.toString(existing.grid().chunkShape()) + ", the plan needs " + out.dtype()
                        + " " + java.util.Arrays.toString(out.grid().shape()) + " in chunks "
                        + java.util.Arrays.toString(out.grid().chunkShape()));
            }
            return existing;
        }
        // Targets (toZarr, store) are written in the chosen format; intermediates as Zarr v2 with the spec's codec.
        ZarrFormat format = targetNodes.contains(out) ? targetFormat : intermediateFormat;
        ChunkStore created = format.create(url, out.grid(), out.dtype(), false, spec.storeOptions());
        if (!targetNodes.contains(out)) {
            return created;
        }
        if (dimensionNames.containsKey(out)) {
            created = io.cubed.storage.zarr.DimensionNames.write(created, dimensionNames.get(out));
        }
        // A target is marked incomplete until the computation has written all of it.
        String by = writer != null ? writer : "a Cubed computation (" + out.name() + ")";
        String hint = resumeHint != null
                ? resumeHint
                : resume
                        ? "compute it again with ComputeOptions.resume(\"" + computeId + "\")"
                        : "it was not resumable: delete it and compute it again, with ComputeOptions.resume to be able"
                                + " to finish a failed run";
        return IncompleteMark.set(created, by, hint);
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
                    || !readers(t).isEmpty()) {
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
     * What the targets' incomplete marks name as their writer and how they say to finish a target (null: the
     * computation and {@code ComputeOptions.resume}).
     */
    public Computation writtenBy(String writer, String resumeHint) {
        this.writer = writer;
        this.resumeHint = resumeHint;
        return this;
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
        if (leaving) {
            return;
        }
        String dir = intermediateDir();
        Store work = Stores.open(spec.workDir(), spec.storeOptions());
        work.deletePrefix(dir.substring(dir.lastIndexOf('/') + 1));
    }
}
