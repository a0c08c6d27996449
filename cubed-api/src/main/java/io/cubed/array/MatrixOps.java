package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.chunk.Factorizations;
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
import io.cubed.storage.fs.Stores;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The per-matrix path of the {@code linalg} factorizations: every input is a stack of matrices with the same batch
 * axes; each is rechunked so that its last two axes are one chunk, and one blockwise task factors every matrix of a
 * batch chunk, one matrix at a time ({@link Factorizations}). The batch chunk is shrunk until a task fits {@code
 * allowedMem}: its input and output chunks with their buffers plus the kernel's workspace for one matrix. A plan in
 * which one matrix alone does not fit is refused at once, with the sizes.
 */
final class MatrixOps {
    private MatrixOps() {}

    /** What a task computes; {@link MatrixChunks} dispatches on it. */
    enum Kind {
        QR,
        QR_COMPLETE,
        SVD,
        SVD_FULL,
        SVDVALS,
        EIGH,
        EIGVALSH,
        CHOLESKY,
        CHOLESKY_UPPER,
        DET,
        SLOGDET,
        INV,
        SOLVE,
        PINV,
        MATRIX_RANK
    }

    /** The floating type {@code x} is computed in: its own, or float64 for integers (as NumPy); bool is refused. */
    static DType floating(String op, CubedArray x) {
        DType t = x.dtype();
        if (t.isFloating() || t.isComplex()) {
            return t;
        }
        if (t == DType.BOOL) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": data type bool is not supported; linalg "
                    + "takes floating-point arrays (integer arrays are computed as float64, as NumPy does)");
        }
        return DType.FLOAT64;
    }

    /** Checks that {@code x} is a stack of matrices (rank 2 or more), square when {@code square}. */
    static void checkMatrices(String op, CubedArray x, boolean square) {
        long[] s = x.shape();
        if (s.length < 2) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": needs a matrix or a stack of matrices (rank "
                    + "2 or more), got shape " + Arrays.toString(s));
        }
        if (square && s[s.length - 1] != s[s.length - 2]) {
            throw new InvalidArgumentException(op + " of " + x.name() + ": needs square matrices, got shape "
                    + Arrays.toString(s) + " (" + s[s.length - 2] + "×" + s[s.length - 1] + ")");
        }
    }

    /** Buffer copies of the inputs (the larger of a source's and the work directory's) and of the outputs. */
    static BufferCopies copies(Spec spec, List<CubedArray> inputs) {
        BufferCopies work = BufferCopies.forStore(
                        Stores.open(spec.workDir(), spec.storeOptions()).isObjectStore())
                .plus(Computation.intermediateFormat(spec).codecCopies());
        int read = work.read();
        for (CubedArray x : inputs) {
            ChunkStore source = x.node().source();
            if (source != null) {
                read = Math.max(read, source.bufferCopies().read());
            }
        }
        return new BufferCopies(read, work.write());
    }

    /**
     * Bytes of the kernel's workspace for one {@code m×n} matrix with {@code outElements} elements of output: the
     * matrix converted to double (and to LAPACK's column order), its factors in both orders, and LAPACK's work arrays
     * (at most about {@code 5·max(m, n)² + 16·max(m, n)} doubles for the SVD); twice that for complex matrices, held
     * as planar real and imaginary parts.
     */
    static long workspaceBytes(long m, long n, long outElements, boolean complex) {
        long big = Math.max(m, n);
        long doubles = 3 * m * n + 3 * outElements + 5 * big * big + 16 * big + 64;
        return 8 * doubles * (complex ? 2 : 1);
    }

    /** The output of a per-matrix operation: its type and per-matrix shape ({@code tail}). */
    record Out(DType dtype, long[] tail) {}

    /**
     * The outputs of {@code kind} over the matrices of {@code inputs} (same batch shape, matrices in the last two axes):
     * one blockwise operation named {@code op} whose outputs all have the batch axes followed by their {@code tail}.
     */
    static List<CubedArray> perMatrix(
            String op, Kind kind, double rtol, DType type, List<CubedArray> inputs, List<Out> outs) {
        CubedArray x = inputs.get(0);
        Spec spec = Execution.commonSpec(inputs);
        int nb = x.ndim() - 2;
        long[] batchShape = Arrays.copyOf(x.shape(), nb);
        for (CubedArray in : inputs) {
            if (!Arrays.equals(Arrays.copyOf(in.shape(), in.ndim() - 2), batchShape) || in.ndim() != x.ndim()) {
                throw new InvalidArgumentException(op + ": batch shapes " + Arrays.toString(x.shape()) + " and "
                        + Arrays.toString(in.shape()) + " differ");
            }
        }
        BufferCopies copies = copies(spec, inputs);
        long inPer = 0;
        long outPer = 0;
        long outElements = 0;
        long maxCore = 0;
        for (CubedArray in : inputs) {
            long m = in.shape()[nb];
            long n = in.shape()[nb + 1];
            inPer += m * n * in.dtype().itemSizeBytes() * (1 + copies.read());
            maxCore = Math.max(maxCore, Math.max(m, n));
        }
        for (Out o : outs) {
            long e = 1;
            for (long t : o.tail) {
                e *= t;
            }
            outElements += e;
            outPer += e * o.dtype.itemSizeBytes() * (1 + copies.write());
        }
        long m0 = x.shape()[nb];
        long n0 = x.shape()[nb + 1];
        long work = workspaceBytes(Math.max(m0, maxCore), Math.max(n0, maxCore), outElements, type.isComplex());
        long reserved = spec.reservedMem().bytes();
        long allowed = spec.allowedMem().bytes();
        long perMatrix = inPer + outPer;
        if (reserved + work + perMatrix > allowed) {
            throw new MemoryBudgetExceededException(op + " of " + x.name() + ": one " + m0 + "×" + n0 + " " + type
                    + " matrix needs " + MemorySize.format(reserved + work + perMatrix) + " in a task (inputs with "
                    + "their buffers " + inPer + " bytes, outputs with theirs " + outPer + " bytes, kernel workspace "
                    + work + " bytes, reservedMem " + reserved + " bytes), over allowedMem " + spec.allowedMem()
                    + ": every matrix is factored whole in one task; raise allowedMem");
        }
        long maxBatch = (allowed - reserved - work) / Math.max(1, perMatrix);
        int[] bc =
                Arrays.copyOf(Chunking.grid(x.shape(), x.chunkShape(), x.name()).chunkShape(), nb);
        for (CubedArray in : inputs) {
            int[] c = Chunking.grid(in.shape(), in.chunkShape(), in.name()).chunkShape();
            for (int a = 0; a < nb; a++) {
                bc[a] = Math.min(bc[a], c[a]);
            }
        }
        for (int a = 0; a < nb; a++) {
            long prod = 1;
            for (int c : bc) {
                prod *= c;
            }
            if (prod <= maxBatch) {
                break;
            }
            long others = prod / bc[a];
            bc[a] = (int) Math.max(1, maxBatch / others);
        }
        String letters = Blockwise.letters(nb);
        List<ArrayNode> nodes = new ArrayList<>();
        String[] indices = new String[inputs.size()];
        long[][] perAxis = new long[inputs.size()][];
        for (int j = 0; j < inputs.size(); j++) {
            CubedArray in = inputs.get(j);
            int[] target = Arrays.copyOf(bc, nb + 2);
            target[nb] = (int) Math.max(1, in.shape()[nb]);
            target[nb + 1] = (int) Math.max(1, in.shape()[nb + 1]);
            CubedArray r = Manipulation.rechunk(in, target);
            nodes.add(r.node());
            indices[j] = letters + (j == 0 ? "YZ" : "Z" + (char) ('P' + j));
            perAxis[j] = r.chunks().chunksPerAxis();
        }
        List<DType> types = new ArrayList<>();
        List<ChunkGrid> grids = new ArrayList<>();
        int tailLength = outs.get(0).tail.length;
        for (Out o : outs) {
            if (o.tail.length != tailLength) {
                throw new IllegalStateException("outputs of one operation need tails of one rank");
            }
            long[] shape = Arrays.copyOf(batchShape, nb + o.tail.length);
            int[] chunks = Arrays.copyOf(bc, nb + o.tail.length);
            for (int t = 0; t < o.tail.length; t++) {
                shape[nb + t] = o.tail[t];
                chunks[nb + t] = (int) Math.max(1, o.tail[t]);
            }
            types.add(o.dtype);
            grids.add(ChunkGrid.of(shape, chunks));
        }
        String outIndex = letters + "YZ".substring(0, tailLength);
        OpNode node = OpNode.blockwise(
                op,
                nodes,
                new IndexKeyFunction(outIndex, indices, perAxis),
                new MatrixChunks(kind, rtol, type, types, op + " of " + x.name(), bc, tailLength),
                ones(inputs.size()),
                work,
                types,
                grids,
                "one task per chunk of " + Arrays.toString(bc) + " matrices, each factored whole");
        List<CubedArray> result = new ArrayList<>();
        for (ArrayNode out : node.outputs()) {
            result.add(CubedArray.of(out, spec));
        }
        return result;
    }

    static int[] ones(int n) {
        int[] o = new int[n];
        Arrays.fill(o, 1);
        return o;
    }

    /** Factors the matrices of one batch chunk as {@code kind} says. */
    record MatrixChunks(
            Kind kind, double rtol, DType type, List<DType> outTypes, String what, int[] batchChunk, int tail)
            implements ChunkFunction {
        @Override
        public Chunk[] apply(ChunkArgs args, long[] outputCoords) {
            long[] origin = new long[batchChunk.length];
            for (int a = 0; a < origin.length; a++) {
                origin[a] = outputCoords[a] * batchChunk[a];
            }
            Factorizations f = Factorizations.get();
            Factorizations.Where where = new Factorizations.Where(what, origin);
            Chunk x = args.chunk(0);
            Chunk[] r =
                    switch (kind) {
                        case QR -> f.qr(x, false, type);
                        case QR_COMPLETE -> f.qr(x, true, type);
                        case SVD -> f.svd(x, true, false, type, outTypes.get(1), where);
                        case SVD_FULL -> f.svd(x, true, true, type, outTypes.get(1), where);
                        case SVDVALS -> f.svd(x, false, false, type, outTypes.get(0), where);
                        case EIGH -> f.eigh(x, true, type, outTypes.get(0), where);
                        case EIGVALSH -> f.eigh(x, false, type, outTypes.get(0), where);
                        case CHOLESKY -> new Chunk[] {f.cholesky(x, false, type, where)};
                        case CHOLESKY_UPPER -> new Chunk[] {f.cholesky(x, true, type, where)};
                        case DET -> new Chunk[] {f.det(x, type, where)};
                        case SLOGDET -> f.slogdet(x, type, outTypes.get(1), where);
                        case INV -> new Chunk[] {f.inv(x, type, where)};
                        case SOLVE -> new Chunk[] {f.solve(x, args.chunk(1), type, where)};
                        case PINV -> new Chunk[] {f.pinv(x, rtol, type, where)};
                        case MATRIX_RANK -> new Chunk[] {f.matrixRank(x, rtol, type, where)};
                    };
            // Values computed beside vectors carry a trailing axis of length 1 (outputs of one operation share a rank).
            for (int i = 0; i < r.length; i++) {
                int rank = batchChunk.length + tail;
                if (r[i].ndim() < rank) {
                    int[] s = Arrays.copyOf(r[i].shape(), rank);
                    Arrays.fill(s, r[i].ndim(), rank, 1);
                    r[i] = Chunk.wrap(r[i].dtype(), s, r[i].data());
                }
            }
            return r;
        }
    }
}
