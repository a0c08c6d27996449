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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cross-checks every function of the {@code fft} extension against {@code numpy.fft}: transform lengths that are
 * powers of two (64, 128, 1024), primes (7, 13, 97), composites (6, 12, 15, 22, 1000), padding and truncation by
 * {@code n} and {@code s}, the three norms, batch axes before and after the transformed one, inputs chunked along the
 * transformed axis with an uneven last chunk (rechunked first) and single-chunk inputs, the four floating-point types;
 * and the frequencies and shifts. The result type must be NumPy's. Tolerance, relative to the largest magnitude of
 * NumPy's result: 1e-12 for double precision, 1e-6 for single precision (NumPy computes in float32, we in double
 * rounded once). Skipped without python3 and NumPy, except under CI=true, where it fails.
 */
class FftNumpyTest {
    @TempDir
    Path dir;

    private record Case(String fn, String input, String kwargs, CubedArray result) {}

    @Test
    void matchesNumpy() throws Exception {
        NumpyFiles.require("NumPy cross-check of fft");
        Spec spec = Spec.builder()
                .workDir(dir.resolve("work").toString())
                .allowedMem(50_000_000)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
        Random r = new Random(11);
        Map<String, Chunk> data = new LinkedHashMap<>();
        data.put("a", random(r, DType.FLOAT64, 6, 97));
        data.put("b", random(r, DType.COMPLEX128, 5, 7, 12));
        data.put("c", random(r, DType.FLOAT32, 8, 64));
        data.put("d", random(r, DType.COMPLEX64, 10, 15));
        data.put("e", random(r, DType.FLOAT64, 1000));
        CubedArray a = Cubed.asarray(data.get("a"), spec, 4, 30);
        CubedArray b = Cubed.asarray(data.get("b"), spec, 2, 3, 5);
        CubedArray c = Cubed.asarray(data.get("c"), spec, 3, 16);
        CubedArray d = Cubed.asarray(data.get("d"), spec, 10, 15);
        CubedArray e = Cubed.asarray(data.get("e"), spec, 300);
        FftOptions o = FftOptions.defaults();
        List<Case> cases = new ArrayList<>();
        // One axis.
        cases.add(new Case("fft", "a", "{}", Fft.fft(a)));
        cases.add(new Case("fft", "a", "{'axis': 0}", Fft.fft(a, o.axis(0))));
        cases.add(new Case("fft", "a", "{'n': 128}", Fft.fft(a, o.n(128))));
        cases.add(new Case(
                "fft", "a", "{'n': 50, 'norm': 'ortho'}", Fft.fft(a, o.n(50).norm(FftNorm.ORTHO))));
        cases.add(new Case(
                "fft",
                "b",
                "{'axis': 1, 'norm': 'forward'}",
                Fft.fft(b, o.axis(1).norm(FftNorm.FORWARD))));
        cases.add(new Case("fft", "c", "{'axis': 0}", Fft.fft(c, o.axis(0))));
        cases.add(new Case("fft", "d", "{'n': 13}", Fft.fft(d, o.n(13))));
        cases.add(new Case("fft", "e", "{}", Fft.fft(e)));
        cases.add(new Case("ifft", "b", "{'axis': 1}", Fft.ifft(b, o.axis(1))));
        cases.add(new Case(
                "ifft",
                "b",
                "{'n': 16, 'axis': 2, 'norm': 'ortho'}",
                Fft.ifft(b, o.n(16).axis(2).norm(FftNorm.ORTHO))));
        cases.add(new Case(
                "ifft",
                "e",
                "{'n': 1024, 'norm': 'forward'}",
                Fft.ifft(e, o.n(1024).norm(FftNorm.FORWARD))));
        cases.add(new Case("ifft", "d", "{'axis': -2}", Fft.ifft(d, o.axis(-2))));
        cases.add(new Case("rfft", "a", "{}", Fft.rfft(a)));
        cases.add(new Case(
                "rfft", "a", "{'n': 64, 'norm': 'ortho'}", Fft.rfft(a, o.n(64).norm(FftNorm.ORTHO))));
        cases.add(new Case("rfft", "c", "{}", Fft.rfft(c)));
        cases.add(new Case(
                "rfft",
                "c",
                "{'axis': 0, 'norm': 'forward'}",
                Fft.rfft(c, o.axis(0).norm(FftNorm.FORWARD))));
        cases.add(new Case("irfft", "b", "{}", Fft.irfft(b)));
        cases.add(new Case(
                "irfft", "b", "{'n': 13, 'axis': 1}", Fft.irfft(b, o.n(13).axis(1))));
        cases.add(new Case(
                "irfft", "b", "{'n': 30, 'norm': 'ortho'}", Fft.irfft(b, o.n(30).norm(FftNorm.ORTHO))));
        cases.add(new Case("irfft", "d", "{'n': 9, 'axis': 0}", Fft.irfft(d, o.n(9).axis(0))));
        cases.add(new Case("hfft", "b", "{'axis': 1}", Fft.hfft(b, o.axis(1))));
        cases.add(new Case(
                "hfft", "d", "{'n': 15, 'norm': 'ortho'}", Fft.hfft(d, o.n(15).norm(FftNorm.ORTHO))));
        cases.add(new Case("hfft", "b", "{'n': 8, 'norm': 'forward'}", Fft.hfft(b, o.n(8).norm(FftNorm.FORWARD))));
        cases.add(new Case("ihfft", "a", "{}", Fft.ihfft(a)));
        cases.add(new Case(
                "ihfft",
                "c",
                "{'n': 10, 'axis': 0, 'norm': 'forward'}",
                Fft.ihfft(c, o.n(10).axis(0).norm(FftNorm.FORWARD))));
        cases.add(new Case("ihfft", "e", "{'norm': 'ortho'}", Fft.ihfft(e, o.norm(FftNorm.ORTHO))));
        // n axes.
        cases.add(new Case("fftn", "b", "{}", Fft.fftn(b)));
        cases.add(new Case(
                "fftn",
                "b",
                "{'s': (4, 8), 'axes': (0, 2)}",
                Fft.fftn(b, o.s(4, 8).axes(0, 2))));
        cases.add(new Case(
                "fftn",
                "a",
                "{'s': (-1, 100), 'norm': 'ortho'}",
                Fft.fftn(a, o.s(-1, 100).norm(FftNorm.ORTHO))));
        cases.add(new Case("fftn", "c", "{'axes': (1, 0)}", Fft.fftn(c, o.axes(1, 0))));
        cases.add(new Case(
                "ifftn",
                "b",
                "{'axes': (1,), 'norm': 'forward'}",
                Fft.ifftn(b, o.axes(1).norm(FftNorm.FORWARD))));
        cases.add(new Case("ifftn", "d", "{}", Fft.ifftn(d)));
        cases.add(new Case("rfftn", "a", "{}", Fft.rfftn(a)));
        cases.add(new Case("rfftn", "c", "{'s': (5, 20)}", Fft.rfftn(c, o.s(5, 20))));
        cases.add(new Case(
                "rfftn",
                "a",
                "{'axes': (1, 0), 'norm': 'ortho'}",
                Fft.rfftn(a, o.axes(1, 0).norm(FftNorm.ORTHO))));
        cases.add(new Case("irfftn", "b", "{}", Fft.irfftn(b)));
        cases.add(new Case("irfftn", "b", "{'s': (5, 7, 9)}", Fft.irfftn(b, o.s(5, 7, 9))));
        cases.add(new Case(
                "irfftn",
                "d",
                "{'axes': (0,), 'norm': 'forward'}",
                Fft.irfftn(d, o.axes(0).norm(FftNorm.FORWARD))));
        // Frequencies and shifts.
        cases.add(new Case("fftfreq", "-", "{'n': 10, 'd': 0.1}", Fft.fftfreq(10, 0.1, 4, spec)));
        cases.add(new Case(
                "fftfreq", "-", "{'n': 7, 'd': 2.5, 'dtype': 'float32'}", Fft.fftfreq(7, 2.5, 3, DType.FLOAT32, spec)));
        cases.add(new Case("fftfreq", "-", "{'n': 1}", Fft.fftfreq(1, 1, 1, spec)));
        cases.add(new Case("rfftfreq", "-", "{'n': 10, 'd': 0.1}", Fft.rfftfreq(10, 0.1, 4, spec)));
        cases.add(new Case("rfftfreq", "-", "{'n': 7}", Fft.rfftfreq(7, 1, 2, spec)));
        cases.add(new Case("fftshift", "b", "{}", Fft.fftshift(b)));
        cases.add(new Case("fftshift", "a", "{'axes': (1,)}", Fft.fftshift(a, 1)));
        cases.add(new Case("ifftshift", "b", "{}", Fft.ifftshift(b)));
        cases.add(new Case("ifftshift", "b", "{'axes': (0, -1)}", Fft.ifftshift(b, 0, -1)));
        cases.add(new Case("fftshift", "e", "{}", Fft.fftshift(e)));

        List<Chunk> actual = Cubed.compute(cases.stream().map(Case::result).toList());
        runNumpy(data, cases);
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Case k = cases.get(i);
            String label = k.fn + "(" + k.input + ", " + k.kwargs + ")";
            String expectedType =
                    Files.readString(dir.resolve("out_" + i + ".txt")).trim();
            String[] parts = expectedType.split(" ", 2);
            Chunk got = actual.get(i);
            if (!got.dtype().typeName().equals(parts[0])) {
                failures.add(label + ": dtype " + got.dtype().typeName() + ", numpy " + parts[0]);
                continue;
            }
            String shape = java.util.Arrays.toString(got.shape()).replace(" ", "");
            if (!shape.equals(parts[1])) {
                failures.add(label + ": shape " + shape + ", numpy " + parts[1]);
                continue;
            }
            ByteBuffer bb = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("out_" + i + ".bin")))
                    .order(ByteOrder.LITTLE_ENDIAN);
            boolean complex = got.dtype().isComplex();
            int slots = got.size() * (complex ? 2 : 1);
            double[] expected = new double[slots];
            for (int s = 0; s < slots; s++) {
                expected[s] = bb.getDouble();
            }
            double max = 0;
            for (double v : expected) {
                max = Math.max(max, Math.abs(v));
            }
            boolean single = got.dtype() == DType.FLOAT32 || got.dtype() == DType.COMPLEX64;
            double tol = (single ? 1e-6 : 1e-12) * Math.max(1, max);
            int bad = 0;
            for (int s = 0; s < slots; s++) {
                double v = complex ? (s % 2 == 0 ? got.getDouble(s / 2) : got.getImag(s / 2)) : got.getDouble(s);
                if (!(Math.abs(v - expected[s]) <= tol)) {
                    if (bad++ < 3) {
                        failures.add(label + " slot " + s + ": " + v + ", numpy " + expected[s] + " (tolerance " + tol
                                + ")");
                    }
                }
            }
        }
        assertThat(cases).hasSizeGreaterThan(45);
        assertThat(failures).isEmpty();
    }

    static Chunk random(Random r, DType type, int... shape) {
        Chunk c = Chunk.allocate(type, shape);
        int slots = c.size() * type.slotsPerElement();
        for (int i = 0; i < slots; i++) {
            double v = r.nextGaussian();
            if (type == DType.FLOAT32 || type == DType.COMPLEX64) {
                c.floats()[i] = (float) v;
            } else {
                c.doubles()[i] = v;
            }
        }
        return c;
    }

    private void runNumpy(Map<String, Chunk> data, List<Case> cases) throws IOException, InterruptedException {
        StringBuilder inputs = new StringBuilder();
        for (Map.Entry<String, Chunk> en : data.entrySet()) {
            Chunk c = en.getValue();
            ByteBuffer bb = ByteBuffer.allocate((int) c.nbytes()).order(ByteOrder.LITTLE_ENDIAN);
            if (c.dtype() == DType.FLOAT32 || c.dtype() == DType.COMPLEX64) {
                for (float v : c.floats()) {
                    bb.putFloat(v);
                }
            } else {
                for (double v : c.doubles()) {
                    bb.putDouble(v);
                }
            }
            Files.write(dir.resolve(en.getKey() + ".bin"), bb.array());
            inputs.append(en.getKey())
                    .append(' ')
                    .append(c.dtype().typeName())
                    .append(' ')
                    .append(java.util.Arrays.toString(c.shape()).replaceAll("[\\[\\] ]", ""))
                    .append('\n');
        }
        Files.writeString(dir.resolve("inputs.txt"), inputs);
        StringBuilder manifest = new StringBuilder();
        for (Case k : cases) {
            manifest.append(k.fn)
                    .append('\t')
                    .append(k.input)
                    .append('\t')
                    .append(k.kwargs)
                    .append('\n');
        }
        Files.writeString(dir.resolve("cases.txt"), manifest);
        Path script = dir.resolve("fft.py");
        Files.writeString(script, SCRIPT);
        Process p = new ProcessBuilder("python3", script.toString(), dir.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("python3 failed: " + out);
        }
    }

    private static final String SCRIPT =
            """
            import ast, os, sys
            import numpy as np

            d = sys.argv[1]
            data = {}
            with open(os.path.join(d, "inputs.txt")) as f:
                for line in f.read().splitlines():
                    name, dtype, shape = line.split()
                    shape = tuple(int(s) for s in shape.split(","))
                    data[name] = np.fromfile(os.path.join(d, name + ".bin"), dtype=np.dtype(dtype).newbyteorder("<")).reshape(shape)
            with open(os.path.join(d, "cases.txt")) as f:
                lines = [l.split("\\t") for l in f.read().splitlines() if l]
            for i, (fn, name, kwargs) in enumerate(lines):
                kw = ast.literal_eval(kwargs)
                f = getattr(np.fft, fn)
                if fn.endswith("freq"):
                    dtype = kw.pop("dtype", "float64")
                    r = f(kw.pop("n"), **kw).astype(dtype)
                else:
                    r = f(data[name], **kw)
                with open(os.path.join(d, "out_%d.txt" % i), "w") as out:
                    out.write("%s %s\\n" % (r.dtype.name, "[" + ",".join(str(s) for s in r.shape) + "]"))
                if np.iscomplexobj(r):
                    r = r.astype("<c16")
                else:
                    r = r.astype("<f8")
                r.tofile(os.path.join(d, "out_%d.bin" % i))
            """;
}
