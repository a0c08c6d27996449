package io.cubed.jobs;

import io.cubed.Cubed;
import io.cubed.array.ComputeOptions;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.array.Manipulation;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.storage.zarr.ZarrFormat;
import io.cubed.storage.zarr.ZarrV2Metadata;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cubed copy SRC DST}: copies a Zarr array chunk by chunk, optionally with another compressor. */
@Command(name = "copy", description = "Copy a Zarr array chunk by chunk, optionally re-compressing it.")
final class CopyCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SRC", description = "Source array (path or URI).")
    String src;

    @Parameters(index = "1", paramLabel = "DST", description = "Destination array (path or URI).")
    String dst;

    @Option(
            names = "--codec",
            paramLabel = "SPEC",
            description = "Compressor of the copy: none, zlib[:L], gzip[:L], zstd[:L], lz4, bz2[:L], "
                    + "blosc[:CNAME[:CLEVEL[:SHUFFLE]]]. Default: the source's.")
    String codec;

    @Option(names = "--overwrite", description = "Replace an existing array at DST.")
    boolean overwrite;

    @Option(
            names = "--chunks",
            split = ",",
            paramLabel = "C",
            description = "Chunks of the copy, comma-separated, -1 for a whole axis (default: the source's). The copy"
                    + " is then a rechunk within the memory budget.")
    int[] chunks;

    @Option(
            names = "--dtype",
            paramLabel = "TYPE",
            description = "Data type of the copy, e.g. float32 (default: the source's), converted as NumPy's astype"
                    + " does; the fill value is converted too.")
    String dtype;

    @Option(
            names = "--resume",
            description = "Continue an interrupted copy: an array at DST must be the one this copy creates (same "
                    + "metadata); chunks already there are skipped.")
    boolean resume;

    @Mixin
    CubedCli.StoreArgs store = new CubedCli.StoreArgs();

    @Mixin
    ExecutionOptions execution = new ExecutionOptions();

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (Execution run = execution.start("copy", store)) {
            return copy(run);
        }
    }

    private int copy(Execution run) {
        StoreOptions options = run.spec().storeOptions();
        Compressor requested = codec == null ? null : Compressor.parseSpec(codec);
        DType type = dtype == null ? null : DType.fromName(dtype);
        ZarrArray source = ZarrArray.open(src, options);
        ZarrV2Metadata m = source.metadata();
        Compressor compressor = codec == null ? m.compressor() : requested;
        if (chunks != null || type != null) {
            return transform(run, m, compressor, type);
        }
        ZarrCreateOptions create = ZarrCreateOptions.builder(m.shape(), m.chunks(), m.dtype())
                .compressor(compressor)
                .fillValue(m.fillValue())
                .dimensionSeparator(m.dimensionSeparator())
                .overwrite(overwrite)
                .build();
        ZarrArray target = resume && !overwrite ? existing(dst, create, options) : null;
        if (target == null) {
            target = ZarrArray.create(dst, create, options);
        }
        // Resuming: chunks already at DST are whole (writes are atomic) and are not copied again.
        long skipped = resume ? target.writtenChunkCount() : 0;
        long start = System.nanoTime();
        long copied = copy(src, dst, options, run, resume);
        long nanos = System.nanoTime() - start;
        double bytes = (double) copied * m.chunkSizeBytes();
        spec.commandLine()
                .getOut()
                .println("copied " + copied + " of " + source.grid().numChunks() + " chunks (" + Sizes.format(bytes)
                        + " uncompressed) from " + src + " to " + dst + " in "
                        + String.format(java.util.Locale.ROOT, "%.2f s", nanos / 1e9) + ", "
                        + Sizes.rate(bytes, nanos) + " on the " + run.name());
        if (resume) {
            spec.commandLine().getOut().println("tasks: " + copied + " run, " + skipped + " skipped (already written)");
        }
        return 0;
    }

    /**
     * The copy with other chunks or another data type: a plan ({@code astype}, then {@code rechunk}) on the run's
     * executor, within its memory budget, writing DST with the chosen compressor and the (converted) fill value.
     */
    private int transform(Execution run, ZarrV2Metadata m, Compressor compressor, DType type) {
        if (overwrite) {
            throw new InvalidArgumentException("copy " + src + " to " + dst + ": --overwrite cannot be combined with"
                    + " --chunks or --dtype (the copy is then a computation, which never replaces an array); remove "
                    + dst + " first");
        }
        io.cubed.plan.Spec plan = run.spec();
        CubedArray x = Cubed.fromZarr(src, plan);
        DType to = type == null ? m.dtype() : type;
        CubedArray y = Elementwise.astype(x, to);
        if (chunks != null) {
            if (chunks.length != x.ndim()) {
                throw new InvalidArgumentException("copy: --chunks " + Arrays.toString(chunks) + " has " + chunks.length
                        + " entries but " + src + " has " + x.ndim() + " axes");
            }
            y = Manipulation.rechunk(y, chunks);
        }
        ComputeOptions.Builder options =
                ComputeOptions.builder().zarrFormat(ZarrFormat.v2(compressor, convertFill(m.fillValue(), to)));
        if (resume) {
            options.resume(Resume.deriveId(
                    "copy",
                    List.of(
                            Resume.canonicalUrl(src),
                            Resume.canonicalUrl(dst),
                            Arrays.toString(chunks),
                            String.valueOf(to),
                            String.valueOf(compressor),
                            String.valueOf(plan.allowedMem().bytes()),
                            String.valueOf(plan.reservedMem().bytes()))));
        }
        Resume.TaskTally tally = new Resume.TaskTally();
        long start = System.nanoTime();
        y.toZarr(dst, options.build(), tally);
        long nanos = System.nanoTime() - start;
        double bytes = (double) x.nbytes();
        PrintWriter out = spec.commandLine().getOut();
        out.println("copied " + src + " " + Arrays.toString(x.shape()) + " " + x.dtype() + " in chunks "
                + Arrays.toString(x.chunkShape()) + " to " + dst + " " + to + " in chunks "
                + Arrays.toString(y.chunkShape()) + " in " + String.format(Locale.ROOT, "%.2f s", nanos / 1e9) + ", "
                + Sizes.rate(bytes, nanos) + " on the " + run.name());
        if (resume) {
            out.println(tally.summary());
        }
        return 0;
    }

    /** {@code fill} as a value of {@code to}: converted as astype converts elements, refused where it has none. */
    static Scalar convertFill(Scalar fill, DType to) {
        if (fill == null) {
            return Scalar.zero();
        }
        if (to == DType.BOOL) {
            return Scalar.ofBoolean(fill.booleanValue());
        }
        if (to.isComplex()) {
            return Scalar.ofComplex(fill.realPart(), fill.imagPart());
        }
        if (to.isFloating()) {
            return Scalar.ofDouble(fill.doubleValue());
        }
        if (fill.form() == Scalar.Form.REAL || fill.form() == Scalar.Form.COMPLEX) {
            double d = fill.doubleValue();
            if (!Double.isFinite(d) || d != Math.rint(d)) {
                throw new InvalidArgumentException(
                        "copy: the fill value " + fill + " has no " + to + " equivalent; copy to a floating type");
            }
            return Scalar.ofLong((long) d);
        }
        return Scalar.ofLong(fill.longValue());
    }

    /**
     * Copies every written chunk of the array at {@code src} to the existing array at {@code dst} (same grid) on
     * {@code run}'s executor; returns the number of chunks copied. Chunks never written stay unwritten.
     */
    static long copy(String src, String dst, StoreOptions options, Execution run) {
        return copy(src, dst, options, run, false);
    }

    /**
     * As {@link #copy(String, String, StoreOptions, Execution)}; with {@code skipWritten}, chunks already in {@code
     * dst} are not copied again (writes are atomic, so a chunk there is whole) nor counted.
     */
    static long copy(String src, String dst, StoreOptions options, Execution run, boolean skipWritten) {
        ZarrArray source = ZarrArray.open(src, options);
        ZarrArray target = ZarrArray.open(dst, options);
        requireSameGrid(source, target);
        return run.forEachChunk(source.grid().numChunks(), "copy of " + source.url() + " to " + target.url(), () -> {
            ZarrArray s = ZarrArray.open(src, options);
            ZarrArray t = ZarrArray.open(dst, options);
            return i -> {
                long[] c = s.grid().chunkCoordsOf(i);
                if (!s.chunkExists(c) || (skipWritten && t.chunkExists(c))) {
                    return 0;
                }
                t.writeChunk(s.readChunk(c), c);
                return 1;
            };
        });
    }

    /**
     * The array at {@code url} when there is one (resuming) and it has the metadata {@code create} writes; null when
     * there is none; an error saying what differs otherwise.
     */
    private static ZarrArray existing(String url, ZarrCreateOptions create, StoreOptions options) {
        if (!io.cubed.storage.fs.Stores.open(url, options).exists(ZarrArray.ZARRAY)) {
            return null;
        }
        ZarrArray there = ZarrArray.open(url, options);
        ZarrV2Metadata wanted = create.toMetadata();
        if (!there.metadata().equals(wanted)) {
            throw new io.cubed.error.InvalidArgumentException("cannot resume the copy to " + url
                    + ": the array there is " + there.metadata() + ", this copy writes " + wanted);
        }
        return there;
    }

    private static void requireSameGrid(ZarrArray source, ZarrArray target) {
        if (!source.grid().equals(target.grid())) {
            throw new io.cubed.error.InvalidArgumentException("cannot copy " + source.url() + " to " + target.url()
                    + ": the chunk grids differ (" + source.grid() + " vs " + target.grid() + ")");
        }
    }

    /**
     * Copies every written chunk of {@code source} to {@code target} (same grid), {@code threads} at a time in this
     * JVM; returns the number of chunks copied. Chunks never written stay unwritten.
     */
    static long copy(ZarrArray source, ZarrArray target, int threads) {
        requireSameGrid(source, target);
        java.util.concurrent.atomic.AtomicLong copied = new java.util.concurrent.atomic.AtomicLong();
        ParallelChunks.forEach(source.grid(), threads, "copy of " + source.url() + " to " + target.url(), c -> {
            if (source.chunkExists(c)) {
                target.writeChunk(source.readChunk(c), c);
                copied.incrementAndGet();
            }
        });
        return copied.get();
    }
}
