package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.ReduceFunction;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cross-checks reductions against NumPy on random data with NaN: var and std (ddof 0 and 1), the nan* functions, mean,
 * sum and the arg forms, over several axis choices, on a chunking with uneven edges that needs several rounds.
 * Tolerance: 1e-12 relative for float64 (summation orders differ), exact for indexes. Skipped without python3 and
 * NumPy, except under CI=true, where it fails.
 */
class ReductionNumpyTest {
    private static final int[] SHAPE = {9, 7, 5};

    @TempDir
    Path dir;

    private record Case(String fn, int[] axes, double ddof, CubedArray result) {}

    @Test
    void matchesNumpy() throws Exception {
        NumpyFiles.require("NumPy cross-check of reductions");
        Random r = new Random(42);
        double[] d = new double[9 * 7 * 5];
        for (int i = 0; i < d.length; i++) {
            d[i] = r.nextDouble() < 0.2 ? Double.NaN : 1000 + r.nextGaussian() * 3;
        }
        for (int k = 0; k < 9; k++) {
            d[k * 35] = 1000; // no slice along axis 0 is all NaN
        }
        Chunk data = Chunk.wrap(DType.FLOAT64, SHAPE, d);
        Spec spec = Spec.builder()
                .workDir(dir.resolve("work").toString())
                .allowedMem(50_000_000)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
        CubedArray x = Cubed.asarray(data, spec, 2, 3, 2);
        int[][] axesList = {null, {0}, {1}, {2}, {0, 2}};
        String[] fns = {"var", "std", "nansum", "nanmean", "nanmin", "nanmax", "nanvar", "nanstd", "mean", "sum"};
        List<Case> cases = new ArrayList<>();
        for (String fn : fns) {
            for (int[] axes : axesList) {
                for (double ddof : fn.endsWith("var") || fn.endsWith("std") ? new double[] {0, 1} : new double[] {0}) {
                    ReductionOptions o =
                            (axes == null ? ReductionOptions.all() : ReductionOptions.axis(axes)).correction(ddof);
                    cases.add(new Case(fn, axes, ddof, Reduction.reduce(x, ReduceFunction.fromPythonName(fn), o)));
                }
            }
        }
        for (String fn : new String[] {"nanargmax", "nanargmin", "argmax"}) {
            for (int[] axes : new int[][] {null, {0}}) {
                ReductionOptions o = axes == null ? ReductionOptions.all() : ReductionOptions.axis(axes);
                cases.add(new Case(fn, axes, 0, Reduction.reduce(x, ReduceFunction.fromPythonName(fn), o)));
            }
        }
        List<Chunk> actual = Cubed.compute(cases.stream().map(Case::result).toList());
        runNumpy(data, cases);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Case c = cases.get(i);
            String label = c.fn + " axis " + (c.axes == null ? "None" : Arrays.toString(c.axes)) + " ddof " + c.ddof;
            ByteBuffer bb = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("out_" + i + ".bin")))
                    .order(ByteOrder.LITTLE_ENDIAN);
            Chunk a = actual.get(i);
            if (a.size() * 8 != bb.remaining()) {
                failures.add(label + ": " + a.size() + " elements, numpy gives " + bb.remaining() / 8);
                continue;
            }
            for (int k = 0; k < a.size(); k++) {
                if (a.dtype() == DType.INT64) {
                    long e = bb.getLong();
                    if (e != a.longs()[k]) {
                        failures.add(label + " element " + k + ": " + a.longs()[k] + ", numpy " + e);
                    }
                } else {
                    double e = bb.getDouble();
                    double v = a.doubles()[k];
                    boolean ok =
                            Double.isNaN(e) ? Double.isNaN(v) : Math.abs(e - v) <= 1e-12 * Math.max(1, Math.abs(e));
                    if (!ok) {
                        failures.add(label + " element " + k + ": " + v + ", numpy " + e);
                    }
                }
            }
        }
        assertThat(cases).hasSizeGreaterThan(70);
        assertThat(failures).isEmpty();
    }

    private void runNumpy(Chunk data, List<Case> cases) throws IOException, InterruptedException {
        ByteBuffer bb = ByteBuffer.allocate(data.size() * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (double v : data.doubles()) {
            bb.putDouble(v);
        }
        Files.write(dir.resolve("data.bin"), bb.array());
        StringBuilder manifest = new StringBuilder();
        for (Case c : cases) {
            manifest.append(c.fn)
                    .append(' ')
                    .append(c.axes == null ? "None" : Arrays.toString(c.axes).replaceAll("[\\[\\] ]", ""))
                    .append(' ')
                    .append(c.ddof)
                    .append('\n');
        }
        Files.writeString(dir.resolve("cases.txt"), manifest);
        Path script = dir.resolve("reductions.py");
        Files.writeString(script, SCRIPT);
        Process p = new ProcessBuilder("python3", script.toString(), dir.toString(), "9,7,5")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("python3 failed: " + out);
        }
    }

    private static final String SCRIPT =
            """
            import os, sys, warnings
            import numpy as np

            warnings.simplefilter("ignore")
            d = sys.argv[1]
            shape = tuple(int(s) for s in sys.argv[2].split(","))
            x = np.fromfile(os.path.join(d, "data.bin"), dtype="<f8").reshape(shape)
            with open(os.path.join(d, "cases.txt")) as f:
                lines = [l.split() for l in f.read().splitlines() if l]
            for i, (fn, axes, ddof) in enumerate(lines):
                axis = None if axes == "None" else tuple(int(a) for a in axes.split(","))
                if fn.startswith("arg") or fn.startswith("nanarg"):
                    axis = None if axis is None else axis[0]
                    r = np.asarray(getattr(np, fn)(x, axis=axis), dtype="<i8")
                elif fn.endswith("var") or fn.endswith("std"):
                    r = np.asarray(getattr(np, fn)(x, axis=axis, ddof=float(ddof)), dtype="<f8")
                else:
                    r = np.asarray(getattr(np, fn)(x, axis=axis), dtype="<f8")
                r.tofile(os.path.join(d, "out_%d.bin" % i))
            """;
}
