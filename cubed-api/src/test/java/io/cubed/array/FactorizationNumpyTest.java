package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.testing.NumpyFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The linalg factorizations against NumPy 2 ({@code numpy.linalg}), for float64, complex128, float32 and complex64 and
 * integer input (computed as float64): stacks of matrices with batch axes, chunked along every axis with uneven last
 * chunks (the matrices are rechunked whole), square, tall and wide matrices, and tall matrices chunked along their rows
 * (TSQR, also with a memory budget that makes it combine the R factors in a tree). Unique results (det, slogdet, inv,
 * solve, eigenvalues, singular values, cholesky, pinv, matrix_rank, matrix_norm) are compared with NumPy's; factors
 * unique only up to sign or phase are checked by their defining properties: {@code Q·R = A}, {@code Qᴴ·Q = I}, R upper
 * triangular with NumPy's |diag R|, {@code U·diag(S)·Vh = A} with orthonormal U and Vh, {@code A·V = V·diag(w)} with
 * orthonormal V; shapes and result types are NumPy's. Tolerance: 1e-9 relative for double precision, 2e-4 for single.
 * Skipped without python3 and NumPy, except under CI=true.
 */
class FactorizationNumpyTest {
    @TempDir
    Path dir;

    private final List<String> manifest = new ArrayList<>();
    private int files;

    private Spec spec(long allowed) {
        return Spec.builder()
                .workDir(dir.resolve("work").toString())
                .allowedMem(allowed)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /** A chunk of {@code t} whose elements are (re, im) drawn from a normal distribution (im ignored for real types). */
    static Chunk random(DType t, long seed, int... shape) {
        Random r = new Random(seed);
        Chunk c = Chunk.allocate(t, shape);
        for (int i = 0; i < c.size(); i++) {
            double re = r.nextGaussian();
            double im = r.nextGaussian();
            set(c, i, re, im);
        }
        return c;
    }

    static void set(Chunk c, int i, double re, double im) {
        switch (c.dtype()) {
            case FLOAT64 -> c.doubles()[i] = re;
            case FLOAT32 -> c.floats()[i] = (float) re;
            case COMPLEX128 -> {
                c.doubles()[2 * i] = re;
                c.doubles()[2 * i + 1] = im;
            }
            case COMPLEX64 -> {
                c.floats()[2 * i] = (float) re;
                c.floats()[2 * i + 1] = (float) im;
            }
            case INT64 -> c.longs()[i] = Math.round(re * 4);
            default -> throw new AssertionError(c.dtype());
        }
    }

    /**
     * A stack of Hermitian matrices ({@code (B + Bᴴ)/2}), or positive definite ones ({@code B·Bᴴ + n·I}) when {@code
     * definite}.
     */
    static Chunk hermitian(DType t, long seed, boolean definite, int... shape) {
        Chunk b = random(t, seed, shape);
        int n = shape[shape.length - 1];
        int batch = b.size() / (n * n);
        Chunk out = Chunk.allocate(t, shape);
        for (int s = 0; s < batch; s++) {
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double re;
                    double im;
                    if (definite) {
                        re = i == j ? n : 0;
                        im = 0;
                        for (int k = 0; k < n; k++) {
                            int ik = s * n * n + i * n + k;
                            int jk = s * n * n + j * n + k;
                            // B[i][k] · conj(B[j][k])
                            re += b.getDouble(ik) * b.getDouble(jk) + b.getImag(ik) * b.getImag(jk);
                            im += b.getImag(ik) * b.getDouble(jk) - b.getDouble(ik) * b.getImag(jk);
                        }
                    } else {
                        int ij = s * n * n + i * n + j;
                        int ji = s * n * n + j * n + i;
                        re = (b.getDouble(ij) + b.getDouble(ji)) / 2;
                        im = (b.getImag(ij) - b.getImag(ji)) / 2;
                    }
                    set(out, s * n * n + i * n + j, re, im);
                }
            }
        }
        return out;
    }

    private String save(Chunk c) throws IOException {
        String name = "f" + (files++) + ".bin";
        ByteBuffer bb = ByteBuffer.allocate((int) c.nbytes()).order(ByteOrder.LITTLE_ENDIAN);
        switch (c.dtype()) {
            case FLOAT64, COMPLEX128 -> {
                for (double v : c.doubles()) {
                    bb.putDouble(v);
                }
            }
            case FLOAT32, COMPLEX64 -> {
                for (float v : c.floats()) {
                    bb.putFloat(v);
                }
            }
            case INT64 -> {
                for (long v : c.longs()) {
                    bb.putLong(v);
                }
            }
            default -> throw new AssertionError(c.dtype());
        }
        Files.write(dir.resolve(name), bb.array());
        String code =
                switch (c.dtype()) {
                    case FLOAT64 -> "f8";
                    case FLOAT32 -> "f4";
                    case COMPLEX128 -> "c16";
                    case COMPLEX64 -> "c8";
                    case INT64 -> "i8";
                    default -> throw new AssertionError();
                };
        String shape = Arrays.stream(c.shape()).mapToObj(Integer::toString).collect(Collectors.joining(","));
        return name + "|" + code + "|" + shape;
    }

    /** Computes {@code outputs} and records a case for the NumPy script: {@code fn} with {@code params}. */
    private void check(String fn, String params, List<Chunk> inputs, List<CubedArray> outputs) throws IOException {
        List<Chunk> results = Cubed.compute(outputs);
        List<String> in = new ArrayList<>();
        for (Chunk c : inputs) {
            in.add(save(c));
        }
        List<String> out = new ArrayList<>();
        for (Chunk c : results) {
            out.add(save(c));
        }
        manifest.add(fn + " " + params + " " + String.join(";", in) + " " + String.join(";", out));
    }

    private void check(String fn, String params, Chunk input, CubedArray output) throws IOException {
        check(fn, params, List.of(input), List.of(output));
    }

    private void squareCases(DType t, Spec spec, long seed) throws IOException {
        int[] shape = {2, 3, 4, 4};
        Chunk a = random(t, seed, shape);
        CubedArray x = Cubed.asarray(a, spec, 1, 2, 3, 2);
        check("det", "-", a, LinearAlgebra.det(x));
        check("slogdet", "-", List.of(a), LinearAlgebra.slogdet(x));
        check("inv", "-", a, LinearAlgebra.inv(x));
        Chunk b = random(t, seed + 1, 2, 3, 4, 2);
        check("solve", "-", List.of(a, b), List.of(LinearAlgebra.solve(x, Cubed.asarray(b, spec, 2, 1, 3, 2))));
        Chunk v = random(t, seed + 2, 4);
        check("solve", "-", List.of(a, v), List.of(LinearAlgebra.solve(x, Cubed.asarray(v, spec, 3))));
        Chunk one = random(t, seed + 3, 4, 4);
        check(
                "solve",
                "-",
                List.of(one, b),
                List.of(LinearAlgebra.solve(Cubed.asarray(one, spec, 4, 4), Cubed.asarray(b, spec, 1, 3, 4, 2))));
        Chunk h = hermitian(t, seed + 4, false, shape);
        CubedArray hx = Cubed.asarray(h, spec, 2, 2, 4, 3);
        check("eigh", "-", List.of(h), LinearAlgebra.eigh(hx));
        check("eigvalsh", "-", h, LinearAlgebra.eigvalsh(hx));
        Chunk p = hermitian(t, seed + 5, true, shape);
        CubedArray px = Cubed.asarray(p, spec, 1, 3, 3, 4);
        check("cholesky", "lower", p, LinearAlgebra.cholesky(px));
        check("cholesky", "upper", p, LinearAlgebra.cholesky(px, true));
        check("det", "-", p, LinearAlgebra.det(px));
        general(t, spec, a, x);
    }

    /** The functions of any matrix shape. */
    private void general(DType t, Spec spec, Chunk a, CubedArray x) throws IOException {
        check("qr", "reduced", List.of(a), LinearAlgebra.qr(x));
        check("qr", "complete", List.of(a), LinearAlgebra.qr(x, "complete"));
        check("svd", "full", List.of(a), LinearAlgebra.svd(x));
        check("svd", "reduced", List.of(a), LinearAlgebra.svd(x, false));
        check("svdvals", "-", a, LinearAlgebra.svdvals(x));
        check("pinv", "default", a, LinearAlgebra.pinv(x));
        check("pinv", "0.3", a, LinearAlgebra.pinv(x, 0.3));
        check("matrix_rank", "default", a, LinearAlgebra.matrixRank(x));
        check("matrix_rank", "0.3", a, LinearAlgebra.matrixRank(x, 0.3));
        boolean keep = false;
        for (String ord : new String[] {"fro", "nuc", "1", "-1", "2", "-2", "inf", "-inf"}) {
            check("matrix_norm", ord + "," + keep, a, LinearAlgebra.matrixNorm(x, keep, ord));
            keep = !keep;
        }
    }

    @Test
    void matchesNumpy() throws Exception {
        requireNumpy();
        Spec spec = spec(50_000_000);
        long seed = 1;
        for (DType t : new DType[] {DType.FLOAT64, DType.COMPLEX128, DType.FLOAT32, DType.COMPLEX64}) {
            squareCases(t, spec, seed);
            seed += 10;
            // Tall and wide stacks, chunked across the matrices.
            Chunk tall = random(t, seed++, 2, 5, 3);
            general(t, spec, tall, Cubed.asarray(tall, spec, 2, 2, 2));
            Chunk wide = random(t, seed++, 3, 6);
            general(t, spec, wide, Cubed.asarray(wide, spec, 3, 6));
            // Tall and skinny, rows in chunks of 8 (the last one 5 rows, fewer than the 6 columns): TSQR.
            Chunk ts = random(t, seed++, 61, 6);
            CubedArray tx = Cubed.asarray(ts, spec, 8, 4);
            check("qr", "reduced", List.of(ts), LinearAlgebra.qr(tx));
            check("svd", "reduced", List.of(ts), LinearAlgebra.svd(tx, false));
            check("svdvals", "-", ts, LinearAlgebra.svdvals(tx));
            check("matrix_norm", "2,true", ts, LinearAlgebra.matrixNorm(tx, true, "2"));
        }
        // A rank-deficient stack: matrix_rank, pinv and svd on it.
        Chunk low = random(DType.FLOAT64, 99, 3, 5, 4);
        for (int s = 0; s < 3; s++) {
            for (int i = 0; i < 5; i++) {
                for (int j = 2 + s % 2; j < 4; j++) {
                    low.doubles()[s * 20 + i * 4 + j] = low.doubles()[s * 20 + i * 4] * (j + 1);
                }
            }
        }
        CubedArray lx = Cubed.asarray(low, spec, 2, 3, 4);
        check("matrix_rank", "default", low, LinearAlgebra.matrixRank(lx));
        check("pinv", "default", low, LinearAlgebra.pinv(lx));
        check("svd", "full", List.of(low), LinearAlgebra.svd(lx));
        check("qr", "complete", List.of(low), LinearAlgebra.qr(lx, "complete"));
        // Integer input is computed as float64, as NumPy does.
        Chunk ints = random(DType.INT64, 7, 3, 3, 3);
        CubedArray ix = Cubed.asarray(ints, spec, 2, 3, 3);
        check("det", "-", ints, LinearAlgebra.det(ix));
        check("inv", "-", ints, LinearAlgebra.inv(ix));
        check("svdvals", "-", ints, LinearAlgebra.svdvals(ix));
        check("matrix_norm", "1,false", ints, LinearAlgebra.matrixNorm(ix, false, "1"));
        // TSQR in a tree: a budget that combines at most three (27.6 kB for float64, 53.4 kB for complex128) R factors
        // per task (9 blocks -> 3 -> 1).
        for (DType t : new DType[] {DType.FLOAT64, DType.COMPLEX128}) {
            Spec small = spec(t == DType.FLOAT64 ? 30_000 : 60_000);
            Chunk ts = random(t, seed++, 70, 6);
            CubedArray tx = Cubed.asarray(ts, small, 8, 6);
            List<CubedArray> qr = LinearAlgebra.qr(tx);
            assertThat(qr.get(0).explain()).contains("combined 3 at a time: 9 -> 3", "combined 3 at a time: 3 -> 1");
            check("qr", "reduced", List.of(ts), qr);
            check("svd", "reduced", List.of(ts), LinearAlgebra.svd(tx, false));
            check("svdvals", "-", ts, LinearAlgebra.svdvals(tx));
        }
        assertThat(manifest).hasSizeGreaterThan(150);
        List<String> failures = runNumpy();
        assertThat(failures).isEmpty();
    }

    private List<String> runNumpy() throws IOException, InterruptedException {
        Files.writeString(dir.resolve("cases.txt"), String.join("\n", manifest) + "\n");
        Path script = dir.resolve("factor.py");
        try (var s = getClass().getResourceAsStream("/linalg/factorizations.py")) {
            Files.write(script, s.readAllBytes());
        }
        Process p = new ProcessBuilder("python3", script.toString(), dir.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("python3 failed: " + out);
        }
        List<String> failures = new ArrayList<>();
        boolean ok = false;
        for (String line : out.split("\n")) {
            if (line.startsWith("FAIL")) {
                failures.add(line);
            }
            ok |= line.startsWith("checked " + manifest.size() + " cases");
        }
        if (!ok) {
            failures.add("the script did not report every case: " + out);
        }
        return failures;
    }

    static void requireNumpy() throws InterruptedException {
        NumpyFiles.require(
                "NumPy cross-check of the linalg factorizations",
                "import numpy; assert int(numpy.__version__.split('.')[0]) >= 2");
    }
}
