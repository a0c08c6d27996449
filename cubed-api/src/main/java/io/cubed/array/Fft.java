package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.FftPlan;
import io.cubed.chunk.Fourier;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.grid.ChunkGrid;
import io.cubed.memory.BufferCopies;
import io.cubed.memory.MemorySize;
import io.cubed.plan.ArrayNode;
import io.cubed.plan.Computation;
import io.cubed.plan.OpNode;
import io.cubed.plan.Spec;
import io.cubed.primitive.ChunkArgs;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.IndexKeyFunction;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.VirtualArray;
import io.cubed.storage.fs.Stores;
import java.util.Arrays;
import java.util.List;

/**
 * The Array API's Fourier transform extension ({@code fft}, 2024.12). A transform along an axis is one blockwise
 * operation whose tasks each transform every row of one chunk ({@link Fourier}: radix-2 for powers of two, Bluestein
 * otherwise, O(n log n) for every length); it needs the whole axis in one chunk, so the input is first rechunked to a
 * single chunk along the axis, with the other axes' chunks cut down where needed so that a task (its input and output
 * chunks with their buffer copies and the transform's tables) stays within {@code allowedMem}. When even one row does
 * not fit, the call is refused. An n-d transform is one such operation per axis.
 *
 * <p>Types: the complex transforms take complex or real floating-point arrays (real ones as complex with a zero
 * imaginary part) and give complex64 for single precision, complex128 for double; {@code rfft}, {@code rfftn} and
 * {@code ihfft} take real floating-point arrays and give complex ones; {@code irfft}, {@code irfftn} and {@code hfft}
 * give real ones. Integer and boolean arrays are refused (cast them with {@code astype}). Building runs nothing.
 */
public final class Fft {
    private Fft() {}

    // ---- one axis ----

    /** The discrete Fourier transform along the last axis ({@code fft.fft(x)}). */
    public static CubedArray fft(CubedArray x) {
        return fft(x, FftOptions.defaults());
    }

    /** The discrete Fourier transform of length {@code n} along {@code axis} ({@code fft.fft}). */
    public static CubedArray fft(CubedArray x, FftOptions options) {
        return oneAxis("fft", x, options, Fourier.Kind.FORWARD, false);
    }

    /** The inverse discrete Fourier transform along the last axis ({@code fft.ifft(x)}). */
    public static CubedArray ifft(CubedArray x) {
        return ifft(x, FftOptions.defaults());
    }

    /** The inverse discrete Fourier transform of length {@code n} along {@code axis} ({@code fft.ifft}). */
    public static CubedArray ifft(CubedArray x, FftOptions options) {
        return oneAxis("ifft", x, options, Fourier.Kind.INVERSE, false);
    }

    /** The transform of a real array along the last axis, non-negative frequencies only ({@code fft.rfft(x)}). */
    public static CubedArray rfft(CubedArray x) {
        return rfft(x, FftOptions.defaults());
    }

    /**
     * The transform of a real array of length {@code n} along {@code axis}: its {@code n/2 + 1} non-negative
     * frequencies ({@code fft.rfft}).
     */
    public static CubedArray rfft(CubedArray x, FftOptions options) {
        return oneAxis("rfft", x, options, Fourier.Kind.REAL_FORWARD, false);
    }

    /** The inverse of {@link #rfft} along the last axis, {@code 2(m − 1)} real values ({@code fft.irfft(x)}). */
    public static CubedArray irfft(CubedArray x) {
        return irfft(x, FftOptions.defaults());
    }

    /**
     * The inverse of {@link #rfft}: {@code n} real values (default {@code 2(m − 1)} for input length {@code m}) from
     * the first {@code n/2 + 1} frequencies along {@code axis} ({@code fft.irfft}).
     */
    public static CubedArray irfft(CubedArray x, FftOptions options) {
        return oneAxis("irfft", x, options, Fourier.Kind.REAL_INVERSE, false);
    }

    /** The transform of a Hermitian-symmetric signal along the last axis, real ({@code fft.hfft(x)}). */
    public static CubedArray hfft(CubedArray x) {
        return hfft(x, FftOptions.defaults());
    }

    /**
     * The transform of a signal whose first half (the {@code n/2 + 1} elements along {@code axis}) is given and whose
     * other half is its Hermitian mirror: {@code n} real values, default {@code 2(m − 1)} ({@code fft.hfft}).
     */
    public static CubedArray hfft(CubedArray x, FftOptions options) {
        return oneAxis("hfft", x, options, Fourier.Kind.REAL_INVERSE, true);
    }

    /** The inverse of {@link #hfft} along the last axis ({@code fft.ihfft(x)}). */
    public static CubedArray ihfft(CubedArray x) {
        return ihfft(x, FftOptions.defaults());
    }

    /** The inverse of {@link #hfft}: {@code n/2 + 1} complex values from a real array along {@code axis}. */
    public static CubedArray ihfft(CubedArray x, FftOptions options) {
        return oneAxis("ihfft", x, options, Fourier.Kind.REAL_FORWARD, true);
    }

    // ---- n axes ----

    /** The n-d discrete Fourier transform over all axes ({@code fft.fftn(x)}). */
    public static CubedArray fftn(CubedArray x) {
        return fftn(x, FftOptions.defaults());
    }

    /** The n-d discrete Fourier transform over {@code axes} with lengths {@code s} ({@code fft.fftn}). */
    public static CubedArray fftn(CubedArray x, FftOptions options) {
        return nAxes("fftn", x, options, Fourier.Kind.FORWARD);
    }

    /** The n-d inverse discrete Fourier transform over all axes ({@code fft.ifftn(x)}). */
    public static CubedArray ifftn(CubedArray x) {
        return ifftn(x, FftOptions.defaults());
    }

    /** The n-d inverse discrete Fourier transform over {@code axes} with lengths {@code s} ({@code fft.ifftn}). */
    public static CubedArray ifftn(CubedArray x, FftOptions options) {
        return nAxes("ifftn", x, options, Fourier.Kind.INVERSE);
    }

    /** The n-d transform of a real array over all axes, the last one halved ({@code fft.rfftn(x)}). */
    public static CubedArray rfftn(CubedArray x) {
        return rfftn(x, FftOptions.defaults());
    }

    /**
     * The n-d transform of a real array: {@link #rfft} along the last of {@code axes}, then {@link #fft} along the
     * others ({@code fft.rfftn}).
     */
    public static CubedArray rfftn(CubedArray x, FftOptions options) {
        return nAxes("rfftn", x, options, Fourier.Kind.REAL_FORWARD);
    }

    /** The inverse of {@link #rfftn} over all axes ({@code fft.irfftn(x)}). */
    public static CubedArray irfftn(CubedArray x) {
        return irfftn(x, FftOptions.defaults());
    }

    /**
     * The inverse of {@link #rfftn}: {@link #ifft} along all but the last of {@code axes}, then {@link #irfft} along
     * the last, whose length defaults to {@code 2(m − 1)} ({@code fft.irfftn}).
     */
    public static CubedArray irfftn(CubedArray x, FftOptions options) {
        return nAxes("irfftn", x, options, Fourier.Kind.REAL_INVERSE);
    }

    // ---- frequencies and shifts ----

    /**
     * The sample frequencies of a transform of length {@code n} with sample spacing {@code d} ({@code fft.fftfreq}):
     * {@code [0, 1, …, ⌈n/2⌉ − 1, −⌊n/2⌋, …, −1] / (n·d)}, of real floating-point type {@code dtype}, in chunks of
     * {@code chunk}. Lazy, like {@link Creation#arange}.
     */
    public static CubedArray fftfreq(long n, double d, int chunk, DType dtype, Spec spec) {
        return frequencies("fftfreq", n, d, false, chunk, dtype, spec);
    }

    /** {@link #fftfreq(long, double, int, DType, Spec)} in float64. */
    public static CubedArray fftfreq(long n, double d, int chunk, Spec spec) {
        return fftfreq(n, d, chunk, DType.FLOAT64, spec);
    }

    /**
     * The non-negative sample frequencies of {@link #rfft} of length {@code n} with spacing {@code d}
     * ({@code fft.rfftfreq}): {@code [0, 1, …, ⌊n/2⌋] / (n·d)}.
     */
    public static CubedArray rfftfreq(long n, double d, int chunk, DType dtype, Spec spec) {
        return frequencies("rfftfreq", n, d, true, chunk, dtype, spec);
    }

    /** {@link #rfftfreq(long, double, int, DType, Spec)} in float64. */
    public static CubedArray rfftfreq(long n, double d, int chunk, Spec spec) {
        return rfftfreq(n, d, chunk, DType.FLOAT64, spec);
    }

    /** {@code x} rolled by half its length along every axis, the zero frequency to the centre ({@code fftshift}). */
    public static CubedArray fftshift(CubedArray x) {
        return shift("fftshift", x, null, false);
    }

    /** {@code x} rolled by {@code ⌊length/2⌋} along each of {@code axes} ({@code fft.fftshift(x, axes=...)}). */
    public static CubedArray fftshift(CubedArray x, int... axes) {
        return shift("fftshift", x, axes, false);
    }

    /** The inverse of {@link #fftshift} over every axis ({@code fft.ifftshift}). */
    public static CubedArray ifftshift(CubedArray x) {
        return shift("ifftshift", x, null, true);
    }

    /** {@code x} rolled by {@code −⌊length/2⌋} along each of {@code axes} ({@code fft.ifftshift(x, axes=...)}). */
    public static CubedArray ifftshift(CubedArray x, int... axes) {
        return shift("ifftshift", x, axes, true);
    }

    // ---- implementation ----

    private static CubedArray frequencies(
            String op, long n, double d, boolean real, int chunk, DType dtype, Spec spec) {
        if (n < 1) {
            throw new InvalidArgumentException(op + ": n must be at least 1, got " + n);
        }
        if (d == 0 || !Double.isFinite(d)) {
            throw new InvalidArgumentException(op + ": d must be a finite non-zero sample spacing, got " + d);
        }
        if (dtype != DType.FLOAT32 && dtype != DType.FLOAT64) {
            throw new InvalidArgumentException(
                    op + ": dtype must be a real floating-point type (float32 or float64), got " + dtype);
        }
        long length = real ? n / 2 + 1 : n;
        ChunkGrid grid = Chunking.grid(new long[] {length}, new int[] {chunk}, op);
        return CubedArray.of(
                ArrayNode.source(VirtualArray.fftFrequencies(n, d, real, grid.chunkShape(0), dtype)), spec);
    }

    private static CubedArray shift(String op, CubedArray x, int[] axes, boolean inverse) {
        int[] list = axes == null ? Axes.range(x.ndim()) : Reduction.normalizeAxes(op, x, axes);
        long[] shifts = new long[list.length];
        for (int i = 0; i < list.length; i++) {
            long half = x.shape()[list[i]] / 2;
            shifts[i] = inverse ? -half : half;
        }
        return list.length == 0 ? x : Manipulation.roll(x, shifts, list);
    }

    private static CubedArray oneAxis(
            String op, CubedArray x, FftOptions options, Fourier.Kind kind, boolean hermitian) {
        if (options.s() != null || options.axes() != null) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": takes n and axis; s and axes are for the "
                    + "n-d transforms (" + op + "n)");
        }
        if (x.ndim() == 0) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": needs an array of rank 1 or more, got 0-d");
        }
        DType out = resultType(op, x, kind);
        int axis = Reduction.normalizeAxis(op, x, options.axis() == null ? -1 : options.axis());
        long n = length(op, x, axis, options.n() == null ? -1 : options.n(), kind);
        return along(op, x, axis, kind, n, options.norm(), hermitian, out);
    }

    private static CubedArray nAxes(String op, CubedArray x, FftOptions options, Fourier.Kind kind) {
        if (options.n() != null || options.axis() != null) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": takes s and axes; n and axis are for the "
                    + "one-axis transforms (" + op.substring(0, op.length() - 1) + ")");
        }
        int nd = x.ndim();
        long[] s = options.s();
        int[] given = options.axes();
        int[] axes;
        if (given == null) {
            if (s == null) {
                axes = Axes.range(nd);
            } else {
                if (s.length > nd) {
                    throw new InvalidArgumentException(op + " of " + x.name() + ": s " + Arrays.toString(s) + " has "
                            + s.length + " entries, more than the " + nd + " axes of shape "
                            + Arrays.toString(x.shape()));
                }
                axes = new int[s.length];
                for (int i = 0; i < s.length; i++) {
                    axes[i] = nd - s.length + i;
                }
            }
        } else {
            axes = new int[given.length];
            boolean[] seen = new boolean[nd];
            for (int i = 0; i < given.length; i++) {
                axes[i] = Reduction.normalizeAxis(op, x, given[i]);
                if (seen[axes[i]]) {
                    throw new InvalidArgumentException(op + " of " + x.name() + ": axes " + Arrays.toString(given)
                            + " name axis " + axes[i] + " twice");
                }
                seen[axes[i]] = true;
            }
        }
        if (s != null && s.length != axes.length) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": s " + Arrays.toString(s) + " and axes "
                    + Arrays.toString(axes) + " differ in length");
        }
        FftNorm norm = options.norm();
        DType complexType = resultType(op, x, kind); // refuses a bad input type before anything is built
        int last = axes.length - 1;
        if (last < 0) {
            if (kind == Fourier.Kind.REAL_FORWARD || kind == Fourier.Kind.REAL_INVERSE) {
                throw new InvalidArgumentException(op + " of " + x.name() + ": needs at least one axis to transform");
            }
            return Elementwise.astype(x, complexType);
        }
        // NumPy's order: the last axis first; rfftn starts with its real transform, irfftn ends with it.
        CubedArray y = x;
        Fourier.Kind others = kind == Fourier.Kind.REAL_FORWARD
                ? Fourier.Kind.FORWARD
                : kind == Fourier.Kind.REAL_INVERSE ? Fourier.Kind.INVERSE : kind;
        if (kind != Fourier.Kind.REAL_INVERSE) {
            y = alongAxis(op, y, axes[last], s == null ? -1 : s[last], kind, norm);
        }
        for (int i = last - 1; i >= 0; i--) {
            y = alongAxis(op, y, axes[i], s == null ? -1 : s[i], others, norm);
        }
        if (kind == Fourier.Kind.REAL_INVERSE) {
            y = alongAxis(op, y, axes[last], s == null ? -1 : s[last], kind, norm);
        }
        return y;
    }

    private static CubedArray alongAxis(String op, CubedArray x, int axis, long n, Fourier.Kind kind, FftNorm norm) {
        DType out = resultType(op, x, kind);
        return along(op, x, axis, kind, length(op, x, axis, n, kind), norm, false, out);
    }

    /** The transform length: {@code n} when given (not −1), else the input's, or {@code 2(m − 1)} for a real inverse. */
    private static long length(String op, CubedArray x, int axis, long n, Fourier.Kind kind) {
        long m = x.shape()[axis];
        long len = n != -1 ? n : kind == Fourier.Kind.REAL_INVERSE ? 2 * (m - 1) : m;
        if (len < 1) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": the transform length along axis " + axis
                    + " is " + len
                    + (n != -1
                            ? ""
                            : kind == Fourier.Kind.REAL_INVERSE
                                    ? " (2(m - 1) for its length m = " + m + ")"
                                    : " (its length)")
                    + "; it must be at least 1: give n (or s)");
        }
        if (len > Integer.MAX_VALUE - 8) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": the transform length " + len + " along axis "
                    + axis + " is more than one chunk can hold (" + (Integer.MAX_VALUE - 8) + " elements)");
        }
        return len;
    }

    /** The output type, or a clear refusal of the input type. */
    private static DType resultType(String op, CubedArray x, Fourier.Kind kind) {
        DType t = x.dtype();
        boolean realInput = kind == Fourier.Kind.REAL_FORWARD;
        if (realInput ? !t.isFloating() : !t.isFloating() && !t.isComplex()) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": data type " + t + " is not supported; "
                    + op + " takes " + (realInput ? "real floating-point" : "floating-point (real or complex)")
                    + " arrays" + (t.isComplex() ? " (use fft for complex input)" : "; cast with astype"));
        }
        boolean single = t == DType.FLOAT32 || t == DType.COMPLEX64;
        if (kind == Fourier.Kind.REAL_INVERSE) {
            return single ? DType.FLOAT32 : DType.FLOAT64;
        }
        return single ? DType.COMPLEX64 : DType.COMPLEX128;
    }

    /** One blockwise transform of length {@code n} along {@code axis}, after a rechunk to a whole axis per chunk. */
    private static CubedArray along(
            String op, CubedArray x, int axis, Fourier.Kind kind, long n, FftNorm norm, boolean hermitian, DType out) {
        FftNorm effective = hermitian ? norm.swapped() : norm;
        boolean forward = kind == Fourier.Kind.FORWARD || kind == Fourier.Kind.REAL_FORWARD;
        double scale = effective.scale(n, forward);
        CubedArray original = x;
        int used = kind.inputUsed((int) n);
        if (x.shape()[axis] > used) {
            // Truncation first: the tasks (and the rechunk) then hold only the elements the transform reads.
            Index[] key = new Index[x.ndim()];
            Arrays.fill(key, Index.all());
            key[axis] = Index.to(used);
            x = x.get(key);
        }
        long[] shape = x.shape();
        long[] outShape = shape.clone();
        outShape[axis] = kind.outputLength((int) n);
        boolean emptyOut = Arrays.stream(outShape).anyMatch(l -> l == 0);
        if (emptyOut || shape[axis] == 0) {
            // An empty result, or a transform of zero padding: zeros.
            int[] c = Chunking.grid(shape, x.chunkShape(), x.name()).chunkShape();
            c[axis] = -1;
            return Creation.zeros(outShape, c, out, x.spec()).withDimsOf(original);
        }
        if (shape[axis] > Integer.MAX_VALUE - 8) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": axis " + axis + " has length " + shape[axis]
                    + ", more than one chunk can hold (" + (Integer.MAX_VALUE - 8) + " elements)");
        }
        int[] target = taskChunks(op, x, axis, kind, (int) n, out);
        CubedArray in = target == null ? x : Manipulation.rechunk(x, target);
        ChunkGrid grid = in.chunks();
        int[] outChunks = grid.chunkShape();
        outChunks[axis] = (int) outShape[axis];
        ChunkGrid outGrid = ChunkGrid.of(outShape, outChunks);
        String ind = Blockwise.letters(x.ndim());
        OpNode node = OpNode.blockwise(
                op,
                List.of(in.node()),
                new IndexKeyFunction(ind, new String[] {ind}, new long[][] {grid.chunksPerAxis()}),
                new TransformChunks(axis, kind, (int) n, scale, hermitian, out),
                new int[] {1},
                Fourier.workspaceBytes((int) n),
                List.of(out),
                List.of(outGrid),
                kind + " transform of length " + n + " along axis " + axis + " ("
                        + (FftPlan.isPowerOfTwo((int) n) ? "radix-2" : "Bluestein") + "), norm "
                        + norm.pythonName());
        return CubedArray.of(node.outputs().get(0), x.spec()).withDimsOf(original);
    }

    /**
     * The chunks for the transform's input: whole along {@code axis}, the other axes as in {@code x} or cut down
     * (outer axes first) so that a task fits {@code allowedMem}; null when {@code x}'s chunks already do. Refuses when
     * one row does not fit.
     */
    private static int[] taskChunks(String op, CubedArray x, int axis, Fourier.Kind kind, int n, DType out) {
        Spec spec = x.spec();
        long allowed = spec.allowedMem().bytes();
        long reserved = spec.reservedMem().bytes();
        BufferCopies work = BufferCopies.forStore(
                        Stores.open(spec.workDir(), spec.storeOptions()).isObjectStore())
                .plus(Computation.intermediateFormat(spec).codecCopies());
        ChunkStore source = x.node().source();
        BufferCopies own = source != null ? source.bufferCopies() : work;
        int inLen = (int) x.shape()[axis];
        int outLen = kind.outputLength(n);
        long rowIn = (long) inLen * x.dtype().itemSizeBytes();
        long rowOut = (long) outLen * out.itemSizeBytes();
        long extra = Fourier.workspaceBytes(n);
        int[] c = Chunking.grid(x.shape(), x.chunkShape(), x.name()).chunkShape();
        long rows = 1;
        for (int a = 0; a < c.length; a++) {
            if (a != axis) {
                rows *= c[a];
            }
        }
        long maxElements = Integer.MAX_VALUE - 8;
        if (x.chunks().chunksPerAxis(axis) == 1) {
            long need = reserved + rows * rowIn * (1 + own.read()) + extra + rows * rowOut * (1 + work.write());
            if (need <= allowed && rows * Math.max(inLen, outLen) <= maxElements) {
                return null;
            }
        }
        long perRow = rowIn * (1 + work.read()) + rowOut * (1 + work.write());
        long room = allowed - reserved - extra;
        if (room < perRow) {
            long need = reserved + perRow + extra;
            throw new MemoryBudgetExceededException(op + " of " + x.name() + " " + Arrays.toString(x.shape()) + " "
                    + x.dtype() + ": one row along axis " + axis + " needs " + MemorySize.format(need) + " (" + need
                    + " bytes) in a task: " + inLen + " input elements (" + MemorySize.format(rowIn) + ") and "
                    + outLen + " output elements of " + out + " (" + MemorySize.format(rowOut) + ") with their "
                    + "buffer copies, the transform's tables (" + MemorySize.format(extra) + ") and reservedMem "
                    + spec.reservedMem() + ", but allowedMem is " + spec.allowedMem()
                    + "; raise allowedMem or transform a shorter axis");
        }
        long maxRows = Math.min(room / perRow, maxElements / Math.max(inLen, outLen));
        c[axis] = inLen;
        // Cut the outer axes first: a task's rows stay contiguous runs of the inner axes.
        for (int a = 0; a < c.length && rows > maxRows; a++) {
            if (a == axis) {
                continue;
            }
            long rest = rows / c[a];
            c[a] = (int) Math.max(1, Math.min(c[a], maxRows / rest));
            rows = rest * c[a];
        }
        return c;
    }

    /** Transforms every row of a chunk along the axis ({@link Fourier#transform}). */
    private record TransformChunks(int axis, Fourier.Kind kind, int n, double scale, boolean conjugate, DType type)
            implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            return new Chunk[] {Fourier.transform(args.chunk(0), axis, kind, n, scale, conjugate, type)};
        }
    }
}
