package io.cubed.plan;

import io.cubed.error.PlanException;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.zarr.IncompleteMark;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The arrays a computation writes: targets in their format at their URLs (with dimension names, marked incomplete
 * until the computation has written all of them), intermediates as Zarr v2 in the work directory; when resuming, the
 * arrays already there if they match the plan.
 */
final class OutputArrays {
    private final Spec spec;
    private final String computeId;
    private final boolean resume;
    private final Map<ArrayNode, String> urls;
    private final Set<ArrayNode> targetNodes;
    private final ZarrFormat targetFormat;
    private final ZarrFormat intermediateFormat;
    private final Map<ArrayNode, List<String>> dimensionNames;
    /** Sets up each new target before its dimension names and mark ({@code ComputeOptions.setUpTargets}). */
    private final java.util.function.UnaryOperator<ChunkStore> targetSetUp;

    private final String writer;
    private final String resumeHint;
    /** Targets whose place {@link #requireAbsent} found holding nothing. */
    private final Set<ArrayNode> foundNew = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * The arrays at {@code urls}; {@code targetNodes} are the targets to store, {@code writer} and {@code resumeHint}
     * what their incomplete marks say (null: the computation and {@code ComputeOptions.resume}).
     */
    OutputArrays(
            Spec spec,
            String computeId,
            boolean resume,
            Map<ArrayNode, String> urls,
            Set<ArrayNode> targetNodes,
            ZarrFormat targetFormat,
            ZarrFormat intermediateFormat,
            Map<ArrayNode, List<String>> dimensionNames,
            java.util.function.UnaryOperator<ChunkStore> targetSetUp,
            String writer,
            String resumeHint) {
        this.spec = spec;
        this.computeId = computeId;
        this.resume = resume;
        this.urls = urls;
        this.targetNodes = targetNodes;
        this.targetFormat = targetFormat;
        this.intermediateFormat = intermediateFormat;
        this.dimensionNames = dimensionNames;
        this.targetSetUp = targetSetUp;
        this.writer = writer;
        this.resumeHint = resumeHint;
    }

    /**
     * For a target, fails when an array is already at {@code out}'s URL and the computation does not resume, or when no
     * array is and none may be created there (a group, or a directory of other files: their names are listed once).
     * Intermediates need no check: they go to the computation's own directory.
     */
    void requireAbsent(ArrayNode out) {
        String url = urls.get(out);
        if (!targetNodes.contains(out)) {
            // An intermediate, at a new place of the computation's own in the work directory: a directory named by
            // the time and a random id unless the computation resumes, so nothing is there to look for (a round trip
            // per intermediate on an object store).
            return;
        }
        Zarr.PlaceForArray place = Zarr.examinePlace(url, spec.storeOptions(), false);
        if (place.isNew() && apartFromWorkDir(out)) {
            // Created right after every output is checked (Computation.run), with nothing of this computation
            // written there meanwhile (its own writes before that go to the work directory, which this place does
            // not overlap): not examined again.
            foundNew.add(out);
        }
        if (place.arrayExists()) {
            if (!resume) {
                throw new PlanException("cannot write " + out.name() + " to " + url + ": an array already exists "
                        + "there (resume a failed computation with ComputeOptions.resume)");
            }
        } else if (place.refusal() != null) {
            throw new PlanException("writing " + out.name() + ": " + place.refusal());
        }
    }

    /**
     * {@code action} of each of {@code arrays}, all at once when {@code concurrently} (each makes its own requests to
     * a store), else one after another, in their order: the first failure in that order is thrown once every one has
     * ended.
     */
    static <T> Map<ArrayNode, T> each(
            List<ArrayNode> arrays, boolean concurrently, java.util.function.Function<ArrayNode, T> action) {
        Map<ArrayNode, T> done = new java.util.LinkedHashMap<>();
        if (!concurrently || arrays.size() == 1) {
            for (ArrayNode a : arrays) {
                done.put(a, action.apply(a));
            }
            return done;
        }
        List<java.util.concurrent.CompletableFuture<T>> running = new java.util.ArrayList<>();
        for (ArrayNode a : arrays) {
            running.add(io.cubed.storage.StoreThreads.supply(() -> action.apply(a)));
        }
        Throwable first = null;
        for (int i = 0; i < arrays.size(); i++) {
            try {
                done.put(arrays.get(i), io.cubed.storage.StoreThreads.join(running.get(i)));
            } catch (RuntimeException | Error e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first instanceof RuntimeException r) {
            throw r;
        }
        if (first instanceof Error e) {
            throw e;
        }
        return done;
    }

    /**
     * Whether {@code out}'s place neither lies in the work directory nor holds it: nothing the computation writes
     * before its targets (the intermediates' directory) can be there.
     */
    boolean apartFromWorkDir(ArrayNode out) {
        return !io.cubed.storage.fs.StoreLocation.of(urls.get(out))
                .overlaps(io.cubed.storage.fs.StoreLocation.of(spec.workDir()));
    }

    /** The array {@code out} is written to: created, or (resuming) the one already there if it matches. */
    ChunkStore create(ArrayNode out) {
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
        if (!targetNodes.contains(out)) {
            // Resuming, an intermediate not found above is created at a place that may hold a failed run's chunks
            // without metadata: examined (and refused), as before. A new computation's directory is its own.
            return resume
                    ? format.create(url, out.grid(), out.dtype(), false, spec.storeOptions())
                    : format.createAtNewPlace(url, out.grid(), out.dtype(), spec.storeOptions());
        }
        // A target is marked incomplete until the computation has written all of it.
        String by = writer != null ? writer : "a Cubed computation (" + out.name() + ")";
        String hint = resumeHint != null
                ? resumeHint
                : resume
                        ? "compute it again with ComputeOptions.resume(\"" + computeId + "\")"
                        : "it was not resumable: delete it and compute it again, with ComputeOptions.resume to be able"
                                + " to finish a failed run";
        List<String> names = dimensionNames.get(out);
        boolean atNewPlace = foundNew.contains(out);
        return IncompleteMark.createMarked(
                () -> atNewPlace
                        ? format.unwrittenAtNewPlace(url, out.grid(), out.dtype(), spec.storeOptions())
                        : format.unwritten(url, out.grid(), out.dtype(), false, spec.storeOptions()),
                created -> {
                    ChunkStore set = targetSetUp.apply(created);
                    return names == null ? set : io.cubed.storage.zarr.DimensionNames.write(set, names);
                },
                by,
                hint);
    }
}
