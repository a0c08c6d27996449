package io.cubed.plan;

import io.cubed.memory.BufferCopies;
import io.cubed.storage.fs.Stores;
import io.cubed.storage.zarr.ZarrFormat;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Where and how a computation stores its arrays: the directory and names of its intermediates, their format
 * (compressed or not, by where the work directory is), and the buffer copies each stored array's store and codec
 * hold, which count in the memory of the tasks that read or write it.
 */
final class StoredArrays {
    private StoredArrays() {}

    /** The directory of computation {@code computeId}'s intermediates: {@code workDir/cubed-<computeId>}. */
    static String intermediateDir(String workDir, String computeId) {
        return (workDir.endsWith("/") ? workDir : workDir + "/") + "cubed-" + computeId;
    }

    /**
     * Puts the URL of every output of {@code plan} in {@code urls}: its target URL ({@code targetUrls}), else a name
     * under {@code dir}.
     */
    static void assignUrls(Plan plan, Map<ArrayNode, String> targetUrls, String dir, Map<ArrayNode, String> urls) {
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
                urls.put(out, target != null ? target : dir + "/" + name + ".zarr");
            }
        }
    }

    /**
     * The buffer copies of an array as a task holds it: a source's own, else those of the store at its URL (by {@code
     * urls}; the work directory's for an array with none) plus its codec's, in {@code targetFormat} for the arrays of
     * {@code targets} and {@code intermediateFormat} for the others.
     */
    static Function<ArrayNode, BufferCopies> bufferCopies(
            Spec spec,
            Map<ArrayNode, String> urls,
            Set<ArrayNode> targets,
            ZarrFormat targetFormat,
            ZarrFormat intermediateFormat) {
        BufferCopies workCopies = copiesOf(spec.workDir(), spec)
                .plus(intermediateFormat.codecCopies())
                .readingInto(intermediateFormat.readsInto());
        Map<String, io.cubed.storage.Store> stores = new HashMap<>();
        return a -> {
            if (a.source() != null) {
                return a.source().bufferCopies();
            }
            String url = urls.get(a);
            if (url == null) {
                return workCopies;
            }
            // Arrays hold their codec's buffers too (none for Zarr v2 Blosc or no compressor).
            io.cubed.storage.Store store = stores.computeIfAbsent(
                    url, u -> Stores.supplier(u, spec.storeOptions()).open());
            ZarrFormat format = targets.contains(a) ? targetFormat : intermediateFormat;
            return BufferCopies.forStore(store.isObjectStore())
                    .plus(format.codecCopies(a.grid().chunkShape(), store.putsInPieces()))
                    .readingInto(format.readsInto());
        };
    }

    /**
     * The format of intermediate arrays under {@code spec}'s work directory: Zarr v2 with {@link Spec#intermediateCodec()}
     * ({@code auto}: no compressor on a local file system, the default Blosc-LZ4 elsewhere).
     */
    static ZarrFormat intermediateFormat(Spec spec) {
        return intermediateFormat(spec.intermediateCodec(), spec.workDir());
    }

    /** The format of intermediates compressed as {@code codec} says ({@code auto} or a spec) under {@code workDir}. */
    static ZarrFormat intermediateFormat(String codec, String workDir) {
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

    /** Buffer copies of the store at {@code url}, opened with the spec's store options (shared, not left open). */
    static BufferCopies copiesOf(String url, Spec spec) {
        return BufferCopies.forStore(
                Stores.supplier(url, spec.storeOptions()).open().isObjectStore());
    }
}
