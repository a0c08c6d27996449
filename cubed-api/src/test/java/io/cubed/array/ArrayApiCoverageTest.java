package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import io.cubed.error.PlanException;
import io.cubed.plan.Spec;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/array-api.md lists every name of the Array API standard 2024.12 with the Java member that provides it or the
 * reason there is none. This test holds the standard's names itself (from the standard's own lists of functions,
 * constants, data types, the array object's attributes and methods, and the {@code linalg} and {@code fft}
 * extensions) and checks that the document covers exactly them, that every Java member it names exists and is
 * public, that every row without one gives a reason, and that the summary's counts are right.
 */
class ArrayApiCoverageTest {
    private static final Path DOC = Path.of("../docs/array-api.md");

    /** Where the document's class names are looked up, in order. */
    private static final List<String> PACKAGES =
            List.of("io.cubed.array", "io.cubed", "io.cubed.dtype", "io.cubed.chunk");

    /** The standard's names, 2024.12, by section of its API reference. */
    static final Map<String, List<String>> STANDARD = new LinkedHashMap<>();

    static {
        STANDARD.put("constants", List.of("e", "inf", "nan", "newaxis", "pi"));
        STANDARD.put(
                "creation",
                List.of(
                        "arange",
                        "asarray",
                        "empty",
                        "empty_like",
                        "eye",
                        "from_dlpack",
                        "full",
                        "full_like",
                        "linspace",
                        "meshgrid",
                        "ones",
                        "ones_like",
                        "tril",
                        "triu",
                        "zeros",
                        "zeros_like"));
        STANDARD.put("data type functions", List.of("astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"));
        STANDARD.put(
                "data types",
                List.of(
                        "bool",
                        "int8",
                        "int16",
                        "int32",
                        "int64",
                        "uint8",
                        "uint16",
                        "uint32",
                        "uint64",
                        "float32",
                        "float64",
                        "complex64",
                        "complex128"));
        STANDARD.put(
                "elementwise",
                List.of(
                        "abs",
                        "acos",
                        "acosh",
                        "add",
                        "asin",
                        "asinh",
                        "atan",
                        "atan2",
                        "atanh",
                        "bitwise_and",
                        "bitwise_left_shift",
                        "bitwise_invert",
                        "bitwise_or",
                        "bitwise_right_shift",
                        "bitwise_xor",
                        "ceil",
                        "clip",
                        "conj",
                        "copysign",
                        "cos",
                        "cosh",
                        "divide",
                        "equal",
                        "exp",
                        "expm1",
                        "floor",
                        "floor_divide",
                        "greater",
                        "greater_equal",
                        "hypot",
                        "imag",
                        "isfinite",
                        "isinf",
                        "isnan",
                        "less",
                        "less_equal",
                        "log",
                        "log1p",
                        "log2",
                        "log10",
                        "logaddexp",
                        "logical_and",
                        "logical_not",
                        "logical_or",
                        "logical_xor",
                        "maximum",
                        "minimum",
                        "multiply",
                        "negative",
                        "nextafter",
                        "not_equal",
                        "positive",
                        "pow",
                        "real",
                        "reciprocal",
                        "remainder",
                        "round",
                        "sign",
                        "signbit",
                        "sin",
                        "sinh",
                        "square",
                        "sqrt",
                        "subtract",
                        "tan",
                        "tanh",
                        "trunc"));
        STANDARD.put("indexing", List.of("take", "take_along_axis"));
        STANDARD.put(
                "inspection",
                List.of(
                        "__array_namespace_info__",
                        "info.capabilities",
                        "info.default_device",
                        "info.default_dtypes",
                        "info.devices",
                        "info.dtypes"));
        STANDARD.put("linear algebra", List.of("matmul", "matrix_transpose", "tensordot", "vecdot"));
        STANDARD.put(
                "manipulation",
                List.of(
                        "broadcast_arrays",
                        "broadcast_to",
                        "concat",
                        "expand_dims",
                        "flip",
                        "moveaxis",
                        "permute_dims",
                        "repeat",
                        "reshape",
                        "roll",
                        "squeeze",
                        "stack",
                        "tile",
                        "unstack"));
        STANDARD.put("searching", List.of("argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"));
        STANDARD.put("set", List.of("unique_all", "unique_counts", "unique_inverse", "unique_values"));
        STANDARD.put("sorting", List.of("argsort", "sort"));
        STANDARD.put(
                "statistical",
                List.of("cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var"));
        STANDARD.put("utility", List.of("all", "any", "diff"));
        List<String> array = new ArrayList<>();
        for (String a : List.of("dtype", "device", "mT", "ndim", "shape", "size", "T")) {
            array.add("array." + a);
        }
        for (String m : List.of(
                "__abs__",
                "__add__",
                "__and__",
                "__array_namespace__",
                "__bool__",
                "__complex__",
                "__dlpack__",
                "__dlpack_device__",
                "__eq__",
                "__float__",
                "__floordiv__",
                "__ge__",
                "__getitem__",
                "__gt__",
                "__index__",
                "__int__",
                "__invert__",
                "__le__",
                "__lshift__",
                "__lt__",
                "__matmul__",
                "__mod__",
                "__mul__",
                "__ne__",
                "__neg__",
                "__or__",
                "__pos__",
                "__pow__",
                "__rshift__",
                "__setitem__",
                "__sub__",
                "__truediv__",
                "__xor__",
                "to_device")) {
            array.add("array." + m);
        }
        STANDARD.put("array object", array);
        List<String> linalg = new ArrayList<>();
        for (String f : List.of(
                "cholesky",
                "cross",
                "det",
                "diagonal",
                "eigh",
                "eigvalsh",
                "inv",
                "matmul",
                "matrix_norm",
                "matrix_power",
                "matrix_rank",
                "matrix_transpose",
                "outer",
                "pinv",
                "qr",
                "slogdet",
                "solve",
                "svd",
                "svdvals",
                "tensordot",
                "trace",
                "vecdot",
                "vector_norm")) {
            linalg.add("linalg." + f);
        }
        STANDARD.put("linalg", linalg);
        List<String> fft = new ArrayList<>();
        for (String f : List.of(
                "fft",
                "ifft",
                "fftn",
                "ifftn",
                "rfft",
                "irfft",
                "rfftn",
                "irfftn",
                "hfft",
                "ihfft",
                "fftfreq",
                "rfftfreq",
                "fftshift",
                "ifftshift")) {
            fft.add("fft." + f);
        }
        STANDARD.put("fft", fft);
    }

    /** One row of the document's tables. */
    record Row(String name, List<String> members, String notes) {}

    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| (.*?) \\| (.*?) \\|$");
    private static final Pattern MEMBER = Pattern.compile("`([A-Za-z][A-Za-z0-9_.]*)`");

    static List<Row> rows() throws IOException {
        List<Row> rows = new ArrayList<>();
        for (String line : Files.readAllLines(DOC)) {
            Matcher m = ROW.matcher(line);
            if (!m.matches()) {
                continue;
            }
            List<String> members = new ArrayList<>();
            String java = m.group(2).trim();
            if (!java.equals("—")) {
                Matcher j = MEMBER.matcher(java);
                while (j.find()) {
                    members.add(j.group(1));
                }
                assertThat(members)
                        .as("Java column of " + m.group(1) + ": " + java)
                        .isNotEmpty();
            }
            rows.add(new Row(m.group(1), members, m.group(3).trim()));
        }
        return rows;
    }

    @Test
    void theDocumentListsExactlyTheStandardsNames() throws IOException {
        Set<String> standard = new LinkedHashSet<>();
        STANDARD.values().forEach(standard::addAll);
        List<String> listed = new ArrayList<>();
        for (Row r : rows()) {
            listed.add(r.name());
        }
        assertThat(listed).as("names listed twice").doesNotHaveDuplicates();
        Set<String> missing = new TreeSet<>(standard);
        missing.removeAll(listed);
        Set<String> extra = new TreeSet<>(listed);
        extra.removeAll(standard);
        assertThat(missing)
                .as("names of the standard missing from docs/array-api.md")
                .isEmpty();
        assertThat(extra)
                .as("names in docs/array-api.md that are not the standard's")
                .isEmpty();
        assertThat(standard).hasSize(235);
    }

    @Test
    void everyListedJavaMemberExistsAndEveryOtherRowSaysWhy() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Row r : rows()) {
            if (r.members().isEmpty()) {
                if (!r.notes().startsWith("not provided")) {
                    problems.add(r.name() + ": no Java member and no 'not provided: reason'");
                }
                continue;
            }
            if (r.notes().startsWith("not provided")) {
                problems.add(r.name() + ": says 'not provided' but names " + r.members());
            }
            for (String member : r.members()) {
                String why = resolve(member);
                if (why != null) {
                    problems.add(r.name() + ": " + member + " " + why);
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void theSummaryCountsTheRows() throws IOException {
        int provided = 0;
        int refused = 0;
        int missing = 0;
        int notYet = 0;
        List<Row> rows = rows();
        for (Row r : rows) {
            if (r.members().isEmpty()) {
                missing++;
                notYet += r.notes().startsWith("not provided yet") ? 1 : 0;
            } else if (r.notes().startsWith("refused")) {
                refused++;
            } else {
                provided++;
            }
        }
        Matcher summary = Pattern.compile(
                        "Summary: (\\d+) of (\\d+) names are provided, (\\d+) are refused .*?, (\\d+) "
                                + "are not provided \\((\\d+) of them not built yet")
                .matcher(Files.readString(DOC).replaceAll("\\s+", " "));
        assertThat(summary.find())
                .as("the summary sentence of docs/array-api.md")
                .isTrue();
        assertThat(List.of(summary.group(1), summary.group(2), summary.group(3), summary.group(4), summary.group(5)))
                .as("provided, total, refused, not provided, not built yet")
                .containsExactly("" + provided, "" + rows.size(), "" + refused, "" + missing, "" + notYet);
    }

    @Test
    void refusedFunctionsSayWhyAtTheCall(@TempDir Path tmp) {
        Spec spec = Spec.builder().workDir(tmp.toString()).build();
        CubedArray x = Cubed.asarray(Chunk.allocate(DType.INT32, 4), spec);
        assertThatThrownBy(() -> Searching.nonzero(x))
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("depends on the data");
        assertThatThrownBy(() -> Sets.uniqueValues(x)).isInstanceOf(PlanException.class);
    }

    @Test
    void constantsAndInspection() {
        assertThat(Constants.E).isEqualTo(Math.E);
        assertThat(Constants.PI).isEqualTo(Math.PI);
        assertThat(Constants.INF).isInfinite().isPositive();
        assertThat(Constants.NAN).isNaN();
        assertThat(Constants.NEWAXIS).isInstanceOf(Index.NewAxis.class);
        assertThat(Info.ARRAY_API_VERSION).isEqualTo("2024.12");
        assertThat(Info.capabilities()).isEqualTo(new Info.Capabilities(false, false, null));
        Info.DefaultDtypes d = Info.defaultDtypes();
        assertThat(List.of(d.realFloating(), d.complexFloating(), d.integral(), d.indexing()))
                .containsExactly(DType.FLOAT64, DType.COMPLEX128, DType.INT64, DType.INT64);
        assertThat(Info.dtypes()).hasSize(13).containsEntry("bool", DType.BOOL);
        assertThat(Info.dtypes("real floating", "bool").keySet()).containsExactly("bool", "float32", "float64");
        assertThat(Info.dtypes("unsigned integer").values())
                .containsExactly(DType.UINT8, DType.UINT16, DType.UINT32, DType.UINT64);
        assertThatThrownBy(() -> Info.dtypes("text"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageStartingWith("dtypes: unknown kind 'text'");
    }

    @Test
    void newaxisInsertsAnAxis(@TempDir Path tmp) {
        Spec spec = Spec.builder().workDir(tmp.toString()).build();
        CubedArray x = Cubed.asarray(Chunk.allocate(DType.FLOAT64, 2, 3), spec);
        assertThat(x.get(Constants.NEWAXIS).shape()).containsExactly(1, 2, 3);
    }

    /** Null when {@code member} ("Class", "Class.method" or "Class.FIELD") is public; otherwise what is wrong. */
    private static String resolve(String member) {
        int dot = member.indexOf('.');
        String className = dot < 0 ? member : member.substring(0, dot);
        Class<?> c = null;
        for (String p : PACKAGES) {
            try {
                c = Class.forName(p + "." + className);
                break;
            } catch (ClassNotFoundException e) {
                // try the next package
            }
        }
        if (c == null) {
            return "names no class in " + PACKAGES;
        }
        if (!Modifier.isPublic(c.getModifiers())) {
            return "names a class that is not public";
        }
        if (dot < 0) {
            return null;
        }
        String name = member.substring(dot + 1);
        for (Method m : c.getMethods()) {
            if (m.getName().equals(name)) {
                return null;
            }
        }
        for (Field f : c.getFields()) {
            if (f.getName().equals(name) && Modifier.isStatic(f.getModifiers())) {
                return null;
            }
        }
        return "is not a public method or constant of " + c.getName();
    }
}
