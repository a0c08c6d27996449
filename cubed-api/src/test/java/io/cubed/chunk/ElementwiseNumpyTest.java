package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.TestInputs.Range;
import io.cubed.dtype.DType;
import io.cubed.dtype.DTypes;
import io.cubed.dtype.Scalar;
import io.cubed.testing.NumpyFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cross-checks every elementwise function for every data type the standard allows, and every astype conversion,
 * against NumPy 2: inputs are written as little-endian raw files, one Python process computes all cases listed in a
 * JSON manifest, and the results are compared.
 *
 * <p>Tolerances: exact (bit for bit, any NaN equal to any NaN) for integers, bool and the correctly rounded real
 * functions; for the other real functions {@link #REAL_ULPS} ulps of the NumPy result (for float32 inputs, NumPy's
 * result computed in float64 and rounded to float32, as the kernels compute: NumPy's own float32 loops lose up to
 * hundreds of ulps where logaddexp cancels); for complex functions other
 * than the exact ones, each part within {@link #COMPLEX_EPS} machine epsilons of the modulus of NumPy's result
 * (complex64 is computed in double and rounded once, NumPy computes it in float), scaled for pow by its condition
 * number.
 *
 * <p>Skipped (with an assumption) when {@code python3} with NumPy is missing, unless the environment variable
 * {@code CI} is {@code true}, in which case it fails.
 */
class ElementwiseNumpyTest {
    private static final int N = 96;
    /** Largest difference in ulps for real functions that are not correctly rounded (libm vs java.lang.Math). */
    private static final int REAL_ULPS = 4;
    /** Largest difference per part, in epsilons of the result's modulus, for complex functions. */
    private static final int COMPLEX_EPS = 8;

    private static final Set<UnaryFunction> EXACT_UNARY = EnumSet.of(
            UnaryFunction.ABS,
            UnaryFunction.BITWISE_INVERT,
            UnaryFunction.CEIL,
            UnaryFunction.CONJ,
            UnaryFunction.FLOOR,
            UnaryFunction.IMAG,
            UnaryFunction.ISFINITE,
            UnaryFunction.ISINF,
            UnaryFunction.ISNAN,
            UnaryFunction.LOGICAL_NOT,
            UnaryFunction.NEGATIVE,
            UnaryFunction.POSITIVE,
            UnaryFunction.REAL,
            UnaryFunction.RECIPROCAL,
            UnaryFunction.ROUND,
            UnaryFunction.SIGN,
            UnaryFunction.SIGNBIT,
            UnaryFunction.SQUARE,
            UnaryFunction.SQRT,
            UnaryFunction.TRUNC);

    private static final Set<BinaryFunction> INEXACT_BINARY =
            EnumSet.of(BinaryFunction.ATAN2, BinaryFunction.HYPOT, BinaryFunction.LOGADDEXP, BinaryFunction.POW);

    /** Complex functions compared exactly, on inputs including infinities and NaN. */
    private static final Set<String> EXACT_COMPLEX = Set.of(
            "add",
            "subtract",
            "equal",
            "not_equal",
            "negative",
            "positive",
            "conj",
            "real",
            "imag",
            "isnan",
            "isinf",
            "isfinite",
            "round");

    private record Case(int id, String kind, String fn, Chunk[] inputs, Scalar scalar, DType to) {}

    @TempDir
    Path dir;

    @Test
    void matchesNumpy() throws Exception {
        NumpyFiles.require("NumPy cross-check");
        List<Case> cases = new ArrayList<>();
        long seed = 1;
        for (UnaryFunction f : UnaryFunction.values()) {
            for (DType t : DType.values()) {
                if (f.domain().accepts(t)) {
                    Range range =
                            t.isComplex() && !EXACT_COMPLEX.contains(f.pythonName()) ? Range.MODERATE : Range.FULL;
                    cases.add(new Case(
                            cases.size(),
                            "unary",
                            f.pythonName(),
                            new Chunk[] {TestInputs.chunk(t, range, N, seed++)},
                            null,
                            null));
                }
            }
        }
        for (BinaryFunction f : BinaryFunction.values()) {
            for (DType t : DType.values()) {
                if (f.domain().accepts(t)) {
                    Range ra = t.isComplex() && !EXACT_COMPLEX.contains(f.pythonName()) ? Range.MODERATE : Range.FULL;
                    Range rb = ra;
                    if (t.isInteger() && f == BinaryFunction.POW) {
                        rb = Range.EXPONENT;
                    } else if (f == BinaryFunction.BITWISE_LEFT_SHIFT || f == BinaryFunction.BITWISE_RIGHT_SHIFT) {
                        rb = Range.SHIFT;
                    }
                    Chunk a = TestInputs.chunk(t, ra, N, seed++);
                    Chunk b = TestInputs.chunk(t, rb, N, seed++);
                    cases.add(new Case(cases.size(), "binary", f.pythonName(), new Chunk[] {a, b}, null, null));
                }
            }
        }
        // Mixed types that promote.
        DType[][] pairs = {
            {DType.INT8, DType.UINT8}, {DType.INT16, DType.UINT32}, {DType.UINT8, DType.UINT64},
            {DType.FLOAT32, DType.FLOAT64}, {DType.FLOAT32, DType.COMPLEX128}, {DType.FLOAT64, DType.COMPLEX64}
        };
        for (DType[] p : pairs) {
            for (BinaryFunction f : new BinaryFunction[] {BinaryFunction.ADD, BinaryFunction.EQUAL}) {
                Chunk a = TestInputs.chunk(p[0], Range.MODERATE, N, seed++);
                Chunk b = TestInputs.chunk(p[1], Range.MODERATE, N, seed++);
                cases.add(new Case(cases.size(), "binary", f.pythonName(), new Chunk[] {a, b}, null, null));
            }
        }
        // Python scalars (NEP 50 weak scalars in NumPy 2 match the standard's rules).
        Object[][] scalarCases = {
            {DType.INT8, Scalar.ofLong(100), BinaryFunction.ADD},
            {DType.UINT16, Scalar.ofLong(7), BinaryFunction.MULTIPLY},
            {DType.FLOAT32, Scalar.ofLong(3), BinaryFunction.DIVIDE},
            {DType.FLOAT32, Scalar.ofDouble(0.1), BinaryFunction.SUBTRACT},
            {DType.FLOAT32, Scalar.ofComplex(1, 2), BinaryFunction.MULTIPLY},
            {DType.COMPLEX128, Scalar.ofDouble(2.5), BinaryFunction.ADD},
            {DType.BOOL, Scalar.ofBoolean(true), BinaryFunction.LOGICAL_XOR},
            {DType.INT32, Scalar.ofLong(3), BinaryFunction.FLOOR_DIVIDE},
        };
        for (Object[] s : scalarCases) {
            Chunk a = TestInputs.chunk((DType) s[0], Range.MODERATE, N, seed++);
            String fn = ((BinaryFunction) s[2]).pythonName();
            cases.add(new Case(cases.size(), "scalar_right", fn, new Chunk[] {a}, (Scalar) s[1], null));
            cases.add(new Case(cases.size(), "scalar_left", fn, new Chunk[] {a}, (Scalar) s[1], null));
        }
        for (DType from : DType.values()) {
            for (DType to : DType.values()) {
                if (from.isComplex() && !to.isComplex() && to != DType.BOOL) {
                    continue;
                }
                // Float to integer conversions are only defined for values whose truncation fits the target.
                Chunk x = (from.isFloating() || from.isComplex()) && to.isInteger()
                        ? inRangeFloats(from, to, seed++)
                        : TestInputs.chunk(from, Range.FULL, N, seed++);
                cases.add(new Case(cases.size(), "astype", "astype", new Chunk[] {x}, null, to));
            }
        }

        Map<Integer, String> numpyTypes = runNumpy(cases);
        List<String> failures = new ArrayList<>();
        for (Case c : cases) {
            String label = "#" + c.id + " " + c.fn + describe(c);
            String npType = numpyTypes.get(c.id);
            if (npType == null || npType.startsWith("ERROR")) {
                failures.add(label + ": numpy failed: " + npType);
                continue;
            }
            Chunk actual;
            try {
                actual = compute(c);
            } catch (RuntimeException e) {
                failures.add(label + ": Java threw " + e);
                continue;
            }
            if (!actual.dtype().typeName().equals(npType)) {
                failures.add(label + ": result type " + actual.dtype() + " but numpy gives " + npType);
                continue;
            }
            Chunk expected = NumpyFiles.chunk(actual.dtype(), Files.readAllBytes(dir.resolve("out_" + c.id + ".bin")));
            String diff = compare(c, expected, actual);
            if (diff != null) {
                failures.add(label + ": " + diff);
            }
        }
        assertThat(cases.size()).isGreaterThan(500);
        assertThat(failures)
                .as("%d of %d cases differ from numpy", failures.size(), cases.size())
                .isEmpty();
    }

    private static String describe(Case c) {
        StringBuilder s = new StringBuilder("(");
        for (int i = 0; i < c.inputs.length; i++) {
            s.append(i > 0 ? ", " : "").append(c.inputs[i].dtype());
        }
        if (c.scalar != null) {
            s.append(", scalar ").append(c.scalar);
        }
        if (c.to != null) {
            s.append(" -> ").append(c.to);
        }
        return s.append(")").toString();
    }

    private static Chunk inRangeFloats(DType from, DType to, long seed) {
        Chunk x = TestInputs.chunk(from, Range.MODERATE, N, seed);
        double[] d = Casting.toDoubles(x).clone();
        boolean unsigned = to.kind() == DType.Kind.UNSIGNED;
        for (int i = 0; i < d.length; i++) {
            d[i] = unsigned ? Math.abs(d[i]) * 12 : d[i] * 12; // within (-128, 128)
        }
        return Chunk.wrap(from, x.shape(), Casting.fromDoubles(d, from));
    }

    private static Chunk compute(Case c) {
        switch (c.kind) {
            case "unary":
                return Elementwise.unary(UnaryFunction.fromPythonName(c.fn), c.inputs[0]);
            case "binary":
                return Elementwise.binary(BinaryFunction.fromPythonName(c.fn), c.inputs[0], c.inputs[1]);
            case "scalar_right":
                return Elementwise.binary(BinaryFunction.fromPythonName(c.fn), c.inputs[0], c.scalar);
            case "scalar_left":
                return Elementwise.binary(BinaryFunction.fromPythonName(c.fn), c.scalar, c.inputs[0]);
            default:
                return Elementwise.astype(c.inputs[0], c.to);
        }
    }

    private String compare(Case c, Chunk expected, Chunk actual) {
        DType t = actual.dtype();
        if (!t.isFloating() && !t.isComplex()) {
            return expected.contentEquals(actual) ? null : firstDifference(c, expected, actual, "exact");
        }
        boolean exact = isExact(c);
        if (t.isComplex() && !exact) {
            double eps = DTypes.finfo(t).eps();
            for (int i = 0; i < actual.size(); i++) {
                double er = expected.getDouble(i);
                double ei = expected.getImag(i);
                double ar = actual.getDouble(i);
                double ai = actual.getImag(i);
                double tol = COMPLEX_EPS * eps * Math.hypot(er, ei) * powCondition(c, i);
                if (!close(er, ar, tol) || !close(ei, ai, tol)) {
                    return mismatch(c, i, "(" + er + ", " + ei + ")", "(" + ar + ", " + ai + ")");
                }
            }
            return null;
        }
        int slots = t.slotsPerElement();
        double[] e = Casting.toDoubles(expected);
        double[] a = Casting.toDoubles(actual);
        for (int s = 0; s < e.length; s++) {
            boolean ok;
            if (Double.isNaN(e[s]) || Double.isNaN(a[s]) || Double.isInfinite(e[s]) || exact) {
                ok = Double.isNaN(e[s])
                        ? Double.isNaN(a[s])
                        : Double.compare(e[s], a[s]) == 0 || e[s] == a[s] && e[s] != 0;
            } else {
                double ulp = t == DType.FLOAT32 || t == DType.COMPLEX64 ? Math.ulp((float) e[s]) : Math.ulp(e[s]);
                ok = Math.abs(e[s] - a[s]) <= REAL_ULPS * ulp;
            }
            if (!ok) {
                return mismatch(c, s / slots, Double.toString(e[s]), Double.toString(a[s]));
            }
        }
        return null;
    }

    /**
     * For complex pow, the condition number of exp(w log z): an error of one ulp in w log z moves the result by
     * |w log z| ulps, in NumPy's result as in ours. 1 for the other functions.
     */
    private static double powCondition(Case c, int i) {
        if (!c.fn.equals("pow") || c.inputs.length < 2) {
            return 1;
        }
        Chunk a = c.inputs[0];
        Chunk b = c.inputs[1];
        double logAbs = Math.abs(Math.log(Math.hypot(a.getDouble(i), a.getImag(i))));
        return 1 + Math.hypot(b.getDouble(i), b.getImag(i)) * (logAbs + Math.PI);
    }

    private static boolean close(double expected, double actual, double tol) {
        if (Double.isNaN(expected) || Double.isNaN(actual)) {
            return Double.isNaN(expected) && Double.isNaN(actual);
        }
        if (Double.isInfinite(expected) || Double.isInfinite(actual)) {
            return expected == actual;
        }
        return Math.abs(expected - actual) <= tol;
    }

    private static boolean isExact(Case c) {
        if (c.kind.equals("astype")) {
            return true;
        }
        boolean complex = c.inputs[0].dtype().isComplex()
                || (c.inputs.length > 1 && c.inputs[1].dtype().isComplex())
                || (c.scalar != null && c.scalar.form() == Scalar.Form.COMPLEX);
        if (complex) {
            return EXACT_COMPLEX.contains(c.fn);
        }
        if (c.kind.equals("unary")) {
            return EXACT_UNARY.contains(UnaryFunction.fromPythonName(c.fn));
        }
        return !INEXACT_BINARY.contains(BinaryFunction.fromPythonName(c.fn));
    }

    /** True when every input is float32 and any scalar is real: the result is float32 (or bool). */
    private static boolean float32Only(Case c) {
        for (Chunk x : c.inputs) {
            if (x.dtype() != DType.FLOAT32) {
                return false;
            }
        }
        return c.scalar == null || c.scalar.form() != Scalar.Form.COMPLEX;
    }

    private static String firstDifference(Case c, Chunk expected, Chunk actual, String how) {
        for (int i = 0; i < actual.size(); i++) {
            if (!expected.getScalar(i).equals(actual.getScalar(i))) {
                return mismatch(
                        c,
                        i,
                        expected.getScalar(i).toString(),
                        actual.getScalar(i).toString());
            }
        }
        return how + " comparison failed";
    }

    private static String mismatch(Case c, int i, String expected, String actual) {
        StringBuilder in = new StringBuilder();
        for (Chunk x : c.inputs) {
            in.append(x.getScalar(i)).append(' ');
        }
        return "element " + i + " inputs [" + in.toString().trim() + "]: numpy " + expected + ", Java " + actual;
    }

    private Map<Integer, String> runNumpy(List<Case> cases) throws IOException, InterruptedException {
        StringBuilder manifest = new StringBuilder("[");
        for (Case c : cases) {
            manifest.append(c.id == 0 ? "" : ",\n").append("{\"id\":").append(c.id);
            manifest.append(",\"kind\":\"")
                    .append(c.kind)
                    .append("\",\"fn\":\"")
                    .append(c.fn)
                    .append("\",\"dtypes\":[");
            for (int k = 0; k < c.inputs.length; k++) {
                manifest.append(k == 0 ? "" : ",")
                        .append('"')
                        .append(c.inputs[k].dtype())
                        .append('"');
                Files.write(dir.resolve("in_" + c.id + "_" + k + ".bin"), NumpyFiles.bytes(c.inputs[k]));
            }
            manifest.append(']');
            if (c.kind.equals("unary")) {
                // Integer input of reciprocal is computed as float64 (the standard's default floating type), where
                // NumPy would compute an integer reciprocal: NumPy gets the input converted the same way.
                DType in = c.inputs[0].dtype();
                DType working = UnaryFunction.fromPythonName(c.fn).workingType(in);
                if (working != in) {
                    manifest.append(",\"cast\":\"").append(working).append('"');
                }
            }
            if (!isExact(c) && float32Only(c)) {
                manifest.append(",\"ref64\":true");
            }
            if (c.scalar != null) {
                manifest.append(",\"scalar\":{\"form\":\"")
                        .append(c.scalar.form())
                        .append("\",\"re\":")
                        .append(
                                c.scalar.form() == Scalar.Form.INTEGER
                                        ? Long.toString(c.scalar.longValue())
                                        : Double.toString(c.scalar.realPart()))
                        .append(",\"im\":")
                        .append(c.scalar.imagPart())
                        .append('}');
            }
            if (c.to != null) {
                manifest.append(",\"to\":\"").append(c.to).append('"');
            }
            manifest.append('}');
        }
        Files.writeString(dir.resolve("manifest.json"), manifest.append("]").toString());
        NumpyFiles.run(dir, "numpy_cases.py", SCRIPT, 120);
        Map<Integer, String> types = new HashMap<>();
        for (String line : Files.readAllLines(dir.resolve("results.txt"))) {
            int sp = line.indexOf(' ');
            types.put(Integer.parseInt(line.substring(0, sp)), line.substring(sp + 1));
        }
        return types;
    }

    private static final String SCRIPT =
            """
            import json, os, sys, warnings
            import numpy as np

            warnings.simplefilter("ignore")
            d = sys.argv[1]
            with open(os.path.join(d, "manifest.json")) as f:
                cases = json.load(f)
            lines = []
            with np.errstate(all="ignore"):
                for c in cases:
                    cid = c["id"]
                    ins = [np.fromfile(os.path.join(d, "in_%d_%d.bin" % (cid, k)), dtype=np.dtype(t).newbyteorder("<"))
                           for k, t in enumerate(c["dtypes"])]
                    if "cast" in c:
                        ins = [a.astype(c["cast"]) for a in ins]
                    try:
                        kind = c["kind"]
                        if kind == "astype":
                            r = ins[0].astype(c["to"])
                        else:
                            fn = getattr(np, c["fn"])
                            def call(xs):
                                if kind == "unary":
                                    return fn(xs[0])
                                if kind == "binary":
                                    return fn(xs[0], xs[1])
                                s = c["scalar"]
                                v = {"BOOL": lambda: bool(s["re"]), "INTEGER": lambda: int(s["re"]),
                                     "REAL": lambda: float(s["re"]), "COMPLEX": lambda: complex(s["re"], s["im"])}[s["form"]]()
                                return fn(xs[0], v) if kind == "scalar_right" else fn(v, xs[0])
                            r = call(ins)
                            if c.get("ref64"):
                                r = np.asarray(call([a.astype(np.float64) for a in ins])).astype(np.asarray(r).dtype)
                        r = np.asarray(r)
                        r.astype(r.dtype.newbyteorder("<")).tofile(os.path.join(d, "out_%d.bin" % cid))
                        lines.append("%d %s" % (cid, r.dtype.name))
                    except Exception as e:
                        lines.append("%d ERROR %s: %s" % (cid, type(e).__name__, e))
            with open(os.path.join(d, "results.txt"), "w") as f:
                f.write("\\n".join(lines) + "\\n")
            """;
}
