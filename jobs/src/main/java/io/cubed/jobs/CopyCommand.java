package io.cubed.jobs;

import io.cubed.Cubed;
import io.cubed.array.ComputeOptions;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.array.Manipulation;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.Scalar;
import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.StoreLocation;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.IncompleteMark;
import io.cubed.storage.zarr.Zarr;
import io.cubed.storage.zarr.ZarrFormat;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cubed copy SRC DST}: copies a Zarr array (v2 or v3) chunk by chunk, by default in the source's format, codecs
 * and fill value, optionally in the other Zarr version or with another compressor.
 */
@Command(
        name = "copy",
        description =
                "Copy a Zarr array (v2 or v3) chunk by chunk, optionally re-compressing it or converting it to the"
                        + " other Zarr version.")
final class CopyCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SRC", description = "Source array (path or URI).")
    String src;

    @Parameters(index = "1", paramLabel = "DST", description = "Destination array (path or URI).")
    String dst;

    @Option(
            names = "--codec",
            paramLabel = "SPEC",
            description = "Compressor of the copy: none, zlib[:L], gzip[:L], zstd[:L], lz4, bz2[:L], "
                    + "blosc[:CNAME[:CLEVEL[:SHUFFLE]]] (Zarr v3: none, gzip, zstd or blosc; in a sharded array it"
                    + " compresses the inner chunks). Default: the source's.")
    String codec;

    @Option(
            names = "--zarr-format",
            paramLabel = "2|3",
            description = "Zarr version of the copy (default: the source's). To 3: bytes then the source's compressor"
                    + " (gzip, zstd, blosc; others need --codec); to 2: the compressor of the v3 codecs, without"
                    + " sharding (the shards become the chunks), transposes or checksums.")
    Integer zarrFormat;

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
        // Before anything is opened, deleted or written: --overwrite of the source would delete it.
        StoreLocation.requireApart("copy", src, dst);
        try (Execution run = execution.start("copy", store)) {
            return copy(run);
        } catch (io.cubed.error.MemoryBudgetExceededException e) {
            throw Checks.naming("copy " + src + " to " + dst, e);
        }
    }

    private int copy(Execution run) {
        StoreOptions options = run.spec().storeOptions();
        Compressor requested = codec == null ? null : parseCodec(codec);
        DType type = dtype == null ? null : DType.fromName(dtype);
        // DST is looked at while the source is opened (one round trip for both on an object store).
        Checks.Look look = overwrite || !resume ? Checks.Look.start(dst, options, overwrite) : null;
        ChunkStore source;
        try {
            source = Zarr.open(src, options);
            IncompleteMark.requireComplete(source, options);
            if (chunks != null) {
                Checks.chunks("copy", "--chunks", chunks, source.grid().ndim(), src);
            }
        } catch (RuntimeException e) {
            if (look != null) {
                look.drop();
            }
            throw e;
        }
        boolean newPlace = false;
        if (!overwrite && !resume) {
            newPlace = Checks.newDestination(
                            "copy",
                            dst,
                            look.place(),
                            "pass --overwrite to replace it, --resume to finish an interrupted copy, or choose another"
                                    + " DST")
                    .isNew();
        } else if (overwrite) {
            String refusal = look.place().refusal();
            if (refusal != null) {
                throw new io.cubed.error.InvalidArgumentException("copy: " + refusal);
            }
        }
        ZarrFormat format = targetFormat(source, requested);
        if (chunks != null || type != null) {
            return transform(run, source, format, type);
        }
        ChunkGrid grid = source.grid();
        ChunkStore target = resume && !overwrite ? existing(dst, format, grid, source.dtype(), options) : null;
        // Within the budget before anything is written: a refused copy leaves DST as it was.
        budget(source, target != null ? target : format.describe(dst, grid, source.dtype(), options), run);
        if (target == null) {
            // The source's attributes go with its data (CF units, scale_factor, …), as zarr-python's copy_store.
            // A place just found empty is not examined again (one round trip fewer on an object store).
            boolean atNewPlace = newPlace;
            target = IncompleteMark.createMarked(
                    () -> atNewPlace
                            ? format.unwrittenAtNewPlace(dst, grid, source.dtype(), options)
                            : format.unwritten(dst, grid, source.dtype(), overwrite, options),
                    created -> io.cubed.storage.zarr.Attributes.copy(source, created),
                    "cubed copy",
                    RESUME_HINT);
        }
        // Resuming: chunks already at DST are whole (writes are atomic) and are not copied again.
        long skipped = resume ? Zarr.writtenChunkCount(target) : 0;
        long start = System.nanoTime();
        long copied;
        try {
            copied = copy(source, target, run, resume);
        } catch (CubedException e) {
            throw leftIncomplete(e, src, dst, options);
        }
        IncompleteMark.clear(target);
        long nanos = System.nanoTime() - start;
        double bytes =
                (double) copied * elements(grid.chunkShape()) * source.dtype().itemSizeBytes();
        spec.commandLine()
                .getOut()
                .println("copied " + copied + " of " + grid.numChunks() + " chunks (" + Sizes.format(bytes)
                        + " uncompressed) from " + src + " to " + dst + " (Zarr v" + format.version() + ") in "
                        + String.format(java.util.Locale.ROOT, "%.2f s", nanos / 1e9) + ", "
                        + Sizes.rate(bytes, nanos) + " on the " + run.name());
        if (resume) {
            spec.commandLine().getOut().println("tasks: " + copied + " run, " + skipped + " skipped (already written)");
        }
        return 0;
    }

    /**
     * The format of the copy: the source's (version, codecs, fill value, chunk keys), in the version of {@code
     * --zarr-format} and with the compressor of {@code --codec} when given; refused before anything is written when the
     * version has no codec for the compressor.
     */
    private ZarrFormat targetFormat(ChunkStore source, Compressor requested) {
        return targetFormat("copy", src, dst, source, codec, requested, zarrFormat);
    }

    /**
     * The format a command writes {@code dst} in: {@code source}'s (version, codecs, fill value, chunk keys), in version
     * {@code zarrFormat} (null: the source's) and with compressor {@code requested} when {@code codec} (the spec given)
     * is not null; refused before anything is written when the version has no codec for the compressor.
     */
    static ZarrFormat targetFormat(
            String command,
            String src,
            String dst,
            ChunkStore source,
            String codec,
            Compressor requested,
            Integer zarrFormat) {
        if (zarrFormat != null && zarrFormat != 2 && zarrFormat != 3) {
            throw new InvalidArgumentException(command + ": --zarr-format must be 2 or 3, got " + zarrFormat);
        }
        ZarrFormat f = ZarrFormat.of(source);
        int version = zarrFormat == null ? f.version() : zarrFormat;
        try {
            return codec == null
                    ? f.withVersion(version)
                    : f.withCompressor(null).withVersion(version).withCompressor(requested);
        } catch (InvalidArgumentException e) {
            throw new InvalidArgumentException("cannot " + command + " " + src + " to " + dst + " as Zarr v" + version
                    + ": " + e.getMessage() + (codec == null ? "; choose a compressor with --codec" : ""));
        }
    }

    /**
     * Refuses, before anything is written, chunks that cannot be the shards of a sharded {@code format}: they must be
     * multiples of its inner chunks (those of {@code src}).
     */
    static void checkShards(String command, String src, String dst, ZarrFormat format, int[] chunks) {
        int[] inner = format.innerChunks();
        if (inner != null && inner.length == chunks.length) {
            for (int a = 0; a < inner.length; a++) {
                if (chunks[a] % inner[a] != 0) {
                    throw new InvalidArgumentException(command + ": the chunks " + Arrays.toString(chunks)
                            + " are the shards of the sharded copy to " + dst + ", so they must be multiples of the"
                            + " inner chunks " + Arrays.toString(inner) + " of " + src + "; choose other --chunks, or"
                            + " --zarr-format 2");
                }
            }
        }
    }

    /**
     * The copy with other chunks or another data type: a plan ({@code astype}, then {@code rechunk}) on the run's
     * executor, within its memory budget, writing DST in {@code format} with the (converted) fill value. A sharded v3
     * copy keeps the source's inner chunks: its chunks are the shards.
     */
    private int transform(Execution run, ChunkStore source, ZarrFormat format, DType type) {
        if (overwrite) {
            throw new InvalidArgumentException("copy " + src + " to " + dst + ": --overwrite cannot be combined with"
                    + " --chunks or --dtype (the copy is then a computation, which never replaces an array); remove "
                    + dst + " first");
        }
        io.cubed.plan.Spec plan = run.spec();
        CubedArray x = Cubed.fromZarr(source, plan);
        DType to = type == null ? source.dtype() : type;
        CubedArray y = Elementwise.astype(x, to);
        if (chunks != null) {
            y = Manipulation.rechunk(y, chunks);
        }
        ZarrFormat f = format.withFillValue(convertFill(format.fillValue(), to));
        checkShards("copy", src, dst, f, y.chunkShape());
        f.check(dst, y.shape(), y.chunkShape(), to);
        // The source's attributes go with its data, written as DST is created (with its incomplete mark).
        ComputeOptions.Builder options = ComputeOptions.builder()
                .zarrFormat(f)
                .writtenBy("cubed copy", RESUME_HINT)
                .setUpTargets(created -> io.cubed.storage.zarr.Attributes.copy(source, created));
        if (resume) {
            List<String> planArguments = new ArrayList<>(List.of(
                    Resume.canonicalUrl(src),
                    Resume.canonicalUrl(dst),
                    Arrays.toString(chunks),
                    String.valueOf(to),
                    String.valueOf(f.compressor()),
                    String.valueOf(plan.allowedMem().bytes()),
                    String.valueOf(plan.reservedMem().bytes())));
            if (f.version() != 2) {
                planArguments.add(f.toString());
            }
            options.resume(Resume.deriveId("copy", planArguments));
        }
        Resume.TaskTally tally = new Resume.TaskTally();
        long start = System.nanoTime();
        try {
            y.toZarr(dst, options.build(), tally);
        } catch (CubedException e) {
            throw leftIncomplete(e, src, dst, plan.storeOptions());
        }
        long nanos = System.nanoTime() - start;
        double bytes = (double) x.nbytes();
        PrintWriter out = spec.commandLine().getOut();
        out.println("copied " + src + " " + Arrays.toString(x.shape()) + " " + x.dtype() + " in chunks "
                + Arrays.toString(x.chunkShape()) + " to " + dst + " " + to + " in chunks "
                + Arrays.toString(y.chunkShape()) + " (Zarr v" + f.version() + ") in "
                + String.format(Locale.ROOT, "%.2f s", nanos / 1e9) + ", " + Sizes.rate(bytes, nanos) + " on the "
                + run.name());
        if (resume) {
            out.println(tally.summary());
        }
        return 0;
    }

    /** What a copy left incomplete says to do. */
    static final String RESUME_HINT = "run the same cubed copy command with --resume";

    /**
     * {@code e}, with what to do about {@code dst} when the failure left it marked incomplete: finish it with {@code
     * --resume}, or delete it; when a chunk of {@code src} is corrupt, mend it first (resuming reads it again).
     */
    static CubedException leftIncomplete(CubedException e, String src, String dst, StoreOptions options) {
        if (e instanceof InvalidArgumentException) {
            return e;
        }
        try {
            ChunkStore there = Zarr.open(dst, options);
            if (IncompleteMark.of(there).isEmpty()) {
                return e;
            }
        } catch (RuntimeException notThere) {
            return e;
        }
        String corrupt = corruptInputChunk(e, src);
        if (corrupt != null) {
            return new CubedException(
                    e.getMessage() + "; " + dst + " is left incomplete (marked so in its attributes), and --resume"
                            + " alone cannot finish it: the input chunk " + corrupt + " is corrupt, and every run"
                            + " reads it again. Mend the input first (write that chunk, or " + src + ", again from"
                            + " where it came from, or restore it from a copy), then run the same command with"
                            + " --resume to finish " + dst + "; or delete " + dst,
                    e);
        }
        return new CubedException(
                e.getMessage() + "; " + dst + " is left incomplete (marked so in its attributes):"
                        + " run the same command with --resume to finish it, or delete it",
                e);
    }

    /** The chunk of the input array {@code src} that {@code e} found corrupt, or null (none, or not of the input). */
    static String corruptInputChunk(Throwable e, String src) {
        io.cubed.error.CorruptDataException c = io.cubed.error.CorruptDataException.in(e);
        String chunk = c == null ? null : c.chunk();
        if (chunk == null) {
            return null;
        }
        try {
            StoreLocation.Relation r = StoreLocation.of(chunk).relationTo(StoreLocation.of(src));
            return r == StoreLocation.Relation.INSIDE ? chunk : null;
        } catch (RuntimeException notALocation) {
            return null;
        }
    }

    /** The compressor of {@code --codec}: a bad spec names the flag. */
    static Compressor parseCodec(String spec) {
        try {
            return Compressor.parseSpec(spec);
        } catch (InvalidArgumentException e) {
            String m = e.getMessage();
            throw new InvalidArgumentException("--codec" + (m.startsWith("codec ") ? m.substring(5) : ": " + m), e);
        }
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
            if (!Double.isFinite(d)
                    || d != Math.rint(d)
                    || new java.math.BigDecimal(d).compareTo(new java.math.BigDecimal(DTypes.integerMin(to))) < 0
                    || new java.math.BigDecimal(d).compareTo(new java.math.BigDecimal(DTypes.integerMax(to))) > 0) {
                throw new InvalidArgumentException(
                        "copy: the fill value " + fill + " has no " + to + " equivalent; copy to a floating type");
            }
            return to == DType.UINT64
                    ? Scalar.ofUnsignedLong(
                            new java.math.BigDecimal(d).toBigInteger().longValue())
                    : Scalar.ofLong((long) d);
        }
        // An integer (or bool) wraps to the narrower or other-signed type as astype wraps the elements: int16 300 is
        // int8 44, int8 -1 is uint8 255, so the regions of fill value read as the converted elements would.
        int bits = 8 * to.itemSizeBytes();
        long v = fill.longValue();
        if (to.kind() == DType.Kind.SIGNED) {
            return Scalar.ofLong(v << (64 - bits) >> (64 - bits));
        }
        return bits == 64 ? Scalar.ofUnsignedLong(v) : Scalar.ofLong(v & ((1L << bits) - 1));
    }

    /**
     * Copies every written chunk of the Zarr array (v2 or v3) at {@code src} to the existing array at {@code dst} (same
     * grid, either version) on {@code run}'s executor; returns the number of chunks copied. Chunks never written stay
     * unwritten.
     */
    static long copy(String src, String dst, StoreOptions options, Execution run) {
        return copy(src, dst, options, run, false);
    }

    /**
     * As {@link #copy(String, String, StoreOptions, Execution)}; with {@code skipWritten}, chunks already in {@code
     * dst} are not copied again (writes are atomic, so a chunk there is whole) nor counted.
     */
    static long copy(String src, String dst, StoreOptions options, Execution run, boolean skipWritten) {
        return copy(Zarr.open(src, options), Zarr.open(dst, options), run, skipWritten);
    }

    /** What each task of a copy may hold: its projection, the bytes its requests may keep in flight, and its kind. */
    record Budget(long projected, long ioBytes, boolean storedBytes) {}

    /**
     * The budget of a copy of {@code source} to {@code target} (same grid; the target may be only described, not yet
     * created: {@link ZarrFormat#describe}) on {@code run}, refused with the figures when a task would exceed {@code
     * --allowed-mem}. A task holds one chunk and its stored bytes as it reads, the same as it writes ({@link
     * io.cubed.memory.BufferCopies}), plus the runtime's reserve; a copy of the stored bytes as they are (both arrays
     * storing chunks alike) holds no decoded chunk.
     */
    static Budget budget(ChunkStore source, ChunkStore target, Execution run) {
        requireSameGrid(source, target);
        long chunk =
                (long) elements(source.grid().chunkShape()) * source.dtype().itemSizeBytes();
        long allowed = run.spec().allowedMem().bytes();
        Object encoding = source.chunkEncoding();
        boolean storedBytes = encoding != null && encoding.equals(target.chunkEncoding());
        long projected = run.spec().reservedMem().bytes()
                + chunk * ((storedBytes ? 0 : 1) + source.bufferCopies().read())
                + chunk * ((storedBytes ? 0 : 1) + target.bufferCopies().write());
        if (projected > allowed) {
            throw new InvalidArgumentException("copy of " + source.url() + ": a chunk of "
                    + Sizes.format(chunk) + " needs " + Sizes.format(projected) + " per task with the reserve, more"
                    + " than --allowed-mem " + run.spec().allowedMem() + "; raise --allowed-mem");
        }
        long ioBytes = Math.min(Math.max(source.inFlightBytes(), target.inFlightBytes()), allowed - projected);
        return new Budget(projected, ioBytes, storedBytes);
    }

    /**
     * Copies every written chunk of {@code source} to {@code target} (same grid, either Zarr version) on {@code run}'s
     * executor; returns the number of chunks copied. A chunk costs one read (a missing one is left unwritten: no
     * existence check first) and one write, the tasks carry both arrays with their metadata (nothing is read again on
     * the executors), and on object stores the slot keeps reads of the next chunks and writes of the last ones in
     * flight within the memory left beside the tasks ({@link io.cubed.storage.ChunkIo}).
     */
    static long copy(ChunkStore source, ChunkStore target, Execution run, boolean skipWritten) {
        Budget budget = budget(source, target, run);
        // Fewer chunks than threads (in this JVM): each chunk's Blosc blocks are coded on the threads left idle.
        long n = source.grid().numChunks();
        int blockThreads = run instanceof Execution.Local && n < run.config().threads()
                ? (int) Math.max(1, run.config().threads() / Math.max(1, n))
                : 1;
        return run.forEachTask(
                n,
                "copy of " + source.url() + " to " + target.url(),
                budget.projected(),
                budget.ioBytes(),
                new CopyChunksTask(
                        source,
                        target,
                        skipWritten,
                        budget.storedBytes(),
                        blockThreads,
                        budget.projected() - run.spec().reservedMem().bytes()));
    }

    /**
     * The array at {@code url} when there is one (resuming) and it has the metadata {@code format} writes; null when
     * there is none; an error saying what differs otherwise.
     */
    private static ChunkStore existing(
            String url, ZarrFormat format, ChunkGrid grid, DType dtype, StoreOptions options) {
        if (!Zarr.arrayExists(url, options)) {
            return null;
        }
        ChunkStore there = Zarr.open(url, options);
        // The layout only: the attributes it carried from the source are not what makes it this copy's.
        Object have = io.cubed.storage.zarr.Attributes.layout(there);
        Object wanted = io.cubed.storage.zarr.Attributes.layout(
                format.version() == 2
                        ? format.v2Metadata(grid.shape(), grid.chunkShape(), dtype)
                        : format.v3Metadata(url, grid.shape(), grid.chunkShape(), dtype));
        if (!have.equals(wanted)) {
            throw new InvalidArgumentException("cannot resume the copy to " + url + ": the array there is " + have
                    + ", this copy writes " + wanted);
        }
        return there;
    }

    private static void requireSameGrid(ChunkStore source, ChunkStore target) {
        if (!source.grid().equals(target.grid())) {
            throw new InvalidArgumentException("cannot copy " + source.url() + " to " + target.url()
                    + ": the chunk grids differ (" + source.grid() + " vs " + target.grid() + ")");
        }
    }

    private static long elements(int[] shape) {
        long n = 1;
        for (int s : shape) {
            n *= s;
        }
        return n;
    }

    /**
     * Copies every written chunk of {@code source} to {@code target} (same grid), {@code threads} at a time in this
     * JVM; returns the number of chunks copied. Chunks never written stay unwritten.
     */
    static long copy(ChunkStore source, ChunkStore target, int threads) {
        requireSameGrid(source, target);
        java.util.concurrent.atomic.AtomicLong copied = new java.util.concurrent.atomic.AtomicLong();
        ParallelChunks.forEach(source.grid(), threads, "copy of " + source.url() + " to " + target.url(), c -> {
            Chunk read = source.readChunkIfStored(c);
            if (read != null) {
                target.writeChunk(read, c);
                copied.incrementAndGet();
            }
        });
        return copied.get();
    }
}
