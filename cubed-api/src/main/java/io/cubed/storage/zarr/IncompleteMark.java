package io.cubed.storage.zarr;

import io.cubed.error.StorageException;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The mark of an array being written: the attribute {@value #ATTRIBUTE} ({@code .zattrs} in Zarr v2, {@code
 * attributes} of {@code zarr.json} in v3) holding {@code {"since": <ISO time>, "by": <what writes it>, "resume": <how to
 * finish it>}}, set with the metadata before any chunk is written and removed once the last chunk has landed. A marked
 * array looks like any other to zarr-python (unknown attributes are kept, not interpreted), but Cubed's readers refuse
 * it unless the store option {@value #READ_OPTION} is {@code true}: a copy or computation that failed half-way must not
 * pass for a complete array. Other attributes are kept as they are.
 */
public final class IncompleteMark {
    /** The attribute that marks an array being written. */
    public static final String ATTRIBUTE = "cubed:incomplete";

    /** Store option that lets readers open a marked array anyway ({@code true}). */
    public static final String READ_OPTION = "cubed.read.incomplete";

    private IncompleteMark() {}

    /**
     * Marks {@code array} as being written by {@code by} (e.g. {@code "cubed copy"}); {@code resume} says how to finish
     * it. Returns the array with its new metadata (Zarr v3 arrays carry their attributes in it).
     */
    public static ChunkStore set(ChunkStore array, String by, String resume) {
        return set(array, attributes(array), by, resume);
    }

    /** {@link #set}, over the attributes {@code attributes} (the array's own, or those about to be its own). */
    private static ChunkStore set(ChunkStore array, Map<String, Object> attributes, String by, String resume) {
        Map<String, Object> mark = new LinkedHashMap<>();
        mark.put("since", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        mark.put("by", by);
        mark.put("resume", resume);
        Map<String, Object> attrs = new LinkedHashMap<>(attributes);
        attrs.put(ATTRIBUTE, mark);
        return write(array, attrs);
    }

    /**
     * Creates an array marked as being written ({@link #set}), set up first by {@code setUp} (its other attributes:
     * the source's, dimension names). {@code created} gives either an {@linkplain ZarrFormat#unwritten unwritten}
     * array, which is set up and marked in memory and then written: each of its documents once, in an order that never
     * shows an unmarked array ({@code zarr.json} in Zarr v3; {@code .zattrs}, then {@code .zarray} in v2); or an array
     * it has created already, which until the mark lands passes for a complete one (every chunk reads as the fill
     * value). If {@code setUp} or a write fails (a refused or failed write, a lost connection), the metadata documents
     * written are removed again, so that the failure leaves no array rather than an unmarked empty one. When they
     * cannot be removed either, the failure says so and names the array to delete.
     */
    public static ChunkStore createMarked(
            Supplier<ChunkStore> created, UnaryOperator<ChunkStore> setUp, String by, String resume) {
        ChunkStore array = created.get();
        try {
            ChunkStore marked = set(setUp.apply(array), by, resume);
            if (marked instanceof ZarrArrayCore core && core.documentsPending()) {
                marked = core.writeDocuments();
            }
            if (array instanceof ZarrArrayCore core && core.documentsPending()) {
                // The set-up handed back another array than the new one: the new one is marked and written too.
                ((ZarrArrayCore) set(array, by, resume)).writeDocuments();
            }
            return marked;
        } catch (RuntimeException e) {
            throw undoCreation(array, e);
        }
    }

    private static RuntimeException undoCreation(ChunkStore array, RuntimeException failure) {
        if (!(array instanceof ZarrArrayCore core) || core.nothingWritten()) {
            // Not a Zarr array, or none of its documents written.
            return failure;
        }
        // The document that makes it an array first: once it is gone, nothing passes for an array there.
        List<String> left = new java.util.ArrayList<>();
        RuntimeException undo = null;
        for (String doc : List.of(ZarrArray.ZARRAY, ZarrV3Metadata.ZARR_JSON, ZarrArray.ZATTRS)) {
            try {
                core.store().delete(doc);
            } catch (RuntimeException e) {
                left.add(doc);
                undo = undo == null ? e : undo;
            }
        }
        if (undo == null) {
            return failure;
        }
        // An array whose documents were written after its mark (an unwritten one) has at most its attributes there.
        String state = core.unwritten != null ? "" : " is not marked incomplete and";
        StorageException e = new StorageException(
                failure.getMessage() + "; the array just created at " + array.url() + state
                        + " could not be removed (" + String.join(", ", left) + ": " + undo.getMessage()
                        + "): it holds no data, delete it",
                failure);
        e.addSuppressed(undo);
        return e;
    }

    /** Removes the mark of {@code array} (it is complete), keeping its other attributes; a no-op when unmarked. */
    public static ChunkStore clear(ChunkStore array) {
        Map<String, Object> attrs = new LinkedHashMap<>(attributes(array));
        if (attrs.remove(ATTRIBUTE) == null) {
            return array;
        }
        return write(array, attrs);
    }

    /** The mark of {@code array} as its metadata was read, if it has one. */
    @SuppressWarnings("unchecked")
    public static Optional<Map<String, Object>> of(ChunkStore array) {
        Object m = attributes(array).get(ATTRIBUTE);
        return m instanceof Map ? Optional.of((Map<String, Object>) m) : Optional.empty();
    }

    /**
     * Refuses a marked {@code array} unless {@code options} allow reading incomplete arrays: the message names the
     * array, what wrote it and since when, and the ways forward.
     */
    public static void requireComplete(ChunkStore array, StoreOptions options) {
        Optional<Map<String, Object>> mark = of(array);
        if (mark.isEmpty() || "true".equalsIgnoreCase(options.get(READ_OPTION))) {
            return;
        }
        throw new StorageException("cannot read " + array.url() + ": it is incomplete, " + describe(mark.get())
                + "; finish it (" + mark.get().getOrDefault("resume", "run the same command again with --resume")
                + "), delete it, or read it anyway with the store option " + READ_OPTION + "=true (--conf "
                + READ_OPTION + "=true)");
    }

    /** For example {@code "being written by cubed copy since 2026-11-24T10:00:00Z"}. */
    public static String describe(Map<String, Object> mark) {
        return "being written by " + mark.getOrDefault("by", "an unknown writer") + " since "
                + mark.getOrDefault("since", "an unknown time");
    }

    /** The metadata of {@code array} that identifies what it holds, without the mark: for comparing arrays. */
    public static Object identity(ChunkStore array) {
        if (array instanceof ZarrV3Array v3) {
            Map<String, Object> attrs = new LinkedHashMap<>(v3.attributes());
            attrs.remove(ATTRIBUTE);
            return v3.metadata().withAttributes(attrs);
        }
        return ((ZarrArray) array).metadata();
    }

    private static Map<String, Object> attributes(ChunkStore array) {
        if (array instanceof ZarrV3Array v3) {
            return v3.attributes();
        }
        if (array instanceof ZarrArray v2) {
            return v2.attributes();
        }
        throw new StorageException("cannot mark " + array.url() + ": not a Zarr array");
    }

    private static ChunkStore write(ChunkStore array, Map<String, Object> attrs) {
        if (array instanceof ZarrV3Array v3) {
            return v3.writeAttributes(attrs);
        }
        ((ZarrArray) array).writeAttributes(attrs);
        return array;
    }
}
