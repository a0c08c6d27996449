package io.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.storage.zarr.ZarrArray;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import scala.tools.nsc.Settings;
import scala.tools.nsc.interpreter.IMain;
import scala.tools.nsc.interpreter.Results;

/**
 * Runs every notebook of {@code notebooks/} as Databricks would: cell after cell, through one Scala 2.12 interpreter
 * with {@code spark} bound to a local[2] session and {@code displayHTML} recording its argument. Markdown cells are
 * skipped, the {@code val baseDir = ...} cell is replaced by a temporary directory; any cell that fails to compile or
 * throws fails the test with the notebook and cell number. Then checks what each notebook wrote against the arrays it
 * read, by plain loops.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NotebooksTest {
    static final String HEADER = "// Databricks notebook source";
    static final String SEPARATOR = "// COMMAND ----------";

    @TempDir
    static Path tmp;

    private static IMain scala;
    private static StringWriter log;

    @BeforeAll
    static void start() {
        SparkTestContext.get();
        NotebookBindings.spark = SparkSession.builder().getOrCreate();
        Settings settings = new Settings();
        settings.processArgumentString("-usejavacp");
        log = new StringWriter();
        scala = new IMain(settings, new PrintWriter(log));
        interpret(
                "bindings",
                0,
                "val spark = io.cubed.spark.NotebookBindings.spark\n"
                        + "def displayHTML(html: String): Unit = io.cubed.spark.NotebookBindings.DISPLAYED.add(html)");
    }

    @AfterAll
    static void stop() {
        if (scala != null) {
            scala.close();
        }
    }

    private static void interpret(String notebook, int cell, String code) {
        int before = log.getBuffer().length();
        Results.Result r = scala.interpret(code);
        assertThat(r)
                .as(
                        "%s cell %d failed:%n%s%n--- interpreter output ---%n%s",
                        notebook, cell, code, log.getBuffer().substring(before))
                .isEqualTo(Results.Success$.MODULE$);
    }

    /** The notebook's cells: code between separators, after the header line. */
    static List<String> cells(Path notebook) throws Exception {
        List<String> lines = Files.readAllLines(notebook);
        assertThat(lines.get(0)).as(notebook + " first line").isEqualTo(HEADER);
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        for (String line : lines.subList(1, lines.size())) {
            if (line.equals(SEPARATOR)) {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(line).append('\n');
            }
        }
        cells.add(cell.toString());
        return cells;
    }

    static boolean isMarkdown(String cell) {
        List<String> code = cell.lines().filter(l -> !l.isBlank()).toList();
        return !code.isEmpty()
                && code.get(0).startsWith("// MAGIC %md")
                && code.stream().allMatch(l -> l.startsWith("// MAGIC"));
    }

    /** Runs the notebook's code cells in order, with baseDir set to {@code baseDir}. */
    private static void runNotebook(String name, Path baseDir) throws Exception {
        List<String> cells = cells(Path.of("../notebooks", name));
        int baseDirCells = 0;
        int codeCells = 0;
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            if (cell.isBlank() || isMarkdown(cell)) {
                continue;
            }
            String code = cell;
            if (cell.strip().startsWith("val baseDir =")) {
                code = "val baseDir = \"" + baseDir.toString().replace("\\", "/") + "\"";
                baseDirCells++;
            }
            codeCells++;
            interpret(name, i + 1, code);
        }
        assertThat(baseDirCells).as(name + ": one `val baseDir = ...` cell").isEqualTo(1);
        assertThat(codeCells).isGreaterThan(2);
    }

    private static Object value(String term) {
        return scala.valueOfTerm(term).get();
    }

    private static double[] readAll(String url) {
        ZarrArray z = ZarrArray.open(url);
        long[] shape = z.metadata().shape();
        int[] ints = new int[shape.length];
        for (int i = 0; i < shape.length; i++) {
            ints[i] = Math.toIntExact(shape[i]);
        }
        return z.readRegion(new long[shape.length], ints).toDoubleArray();
    }

    @Test
    @Order(1)
    void quickstart() throws Exception {
        Path dir = tmp.resolve("01");
        runNotebook("01-quickstart.scala", dir);
        int rows = 1000;
        int cols = 400;
        double[] x = readAll(dir + "/quickstart/x.zarr");
        assertThat(x).hasSize(rows * cols);
        double total = 0;
        double[] colMean = new double[cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                total += x[i * cols + j];
                colMean[j] += x[i * cols + j] / rows;
            }
        }
        assertThat((Double) value("overallMean")).isCloseTo(total / (rows * cols), within(1e-9));
        assertThat((double[]) value("columnMeans")).containsExactly(colMean, within(1e-9));
        double[] y = readAll(dir + "/quickstart/y.zarr");
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                assertThat(y[i * cols + j]).isCloseTo(2 * (x[i * cols + j] - colMean[j]), within(1e-9));
            }
        }
        assertThat((Double) value("largestYColumnMean")).isLessThan(1e-9);
    }

    @Test
    @Order(2)
    void rechunkAndMemory() throws Exception {
        Path dir = tmp.resolve("02");
        int displayedBefore = NotebookBindings.DISPLAYED.size();
        runNotebook("02-rechunk-and-memory.scala", dir);
        ZarrArray rows = ZarrArray.open(dir + "/rechunk/rows.zarr");
        assertThat(rows.metadata().chunks()).containsExactly(100, 1000);
        assertSameValues(readAll(dir + "/rechunk/rows.zarr"), readAll(dir + "/rechunk/x.zarr"), "rows.zarr");
        assertThat((String) value("rechunkPlan")).contains("rechunk");
        Throwable error = (Throwable) value("tooSmallError");
        assertThat(error)
                .isInstanceOf(MemoryBudgetExceededException.class)
                .hasMessageContaining("exceeds allowedMem (102.0 MB), including reservedMem (100.0 MB)");
        assertThat(Files.exists(dir.resolve("rechunk/never-written.zarr"))).isFalse();
        // With Graphviz installed (CI installs it) the plan picture is displayed as SVG.
        List<String> shown = NotebookBindings.DISPLAYED.subList(displayedBefore, NotebookBindings.DISPLAYED.size());
        if (hasDot()) {
            assertThat(shown).hasSize(1);
            assertThat(shown.get(0)).contains("<svg");
        }
    }

    @Test
    @Order(3)
    void history() throws Exception {
        Path dir = tmp.resolve("03");
        int displayedBefore = NotebookBindings.DISPLAYED.size();
        runNotebook("03-history.scala", dir);
        int rows = 2000;
        int cols = 300;
        double[] u = readAll(dir + "/history/u.zarr");
        double[] v = readAll(dir + "/history/v.zarr");
        double[] expected = new double[cols];
        for (int j = 0; j < cols; j++) {
            double mu = 0;
            double mv = 0;
            for (int i = 0; i < rows; i++) {
                mu += u[i * cols + j];
                mv += v[i * cols + j];
            }
            mu /= rows;
            mv /= rows;
            double s = 0;
            for (int i = 0; i < rows; i++) {
                double a = u[i * cols + j] - mu;
                double b = v[i * cols + j] - mv;
                s += a * a + b * b;
            }
            expected[j] = s / rows;
        }
        assertThat(readAll(dir + "/history/quadratic-means.zarr")).containsExactly(expected, within(1e-12));

        io.cubed.runtime.HistoryCallback history = (io.cubed.runtime.HistoryCallback) value("history");
        long recorded = history.operations().stream()
                .mapToLong(io.cubed.runtime.HistoryCallback.OperationSummary::tasksRecorded)
                .sum();
        long planned = history.operations().stream()
                .mapToLong(io.cubed.runtime.HistoryCallback.OperationSummary::numTasks)
                .sum();
        assertThat(value("taskCount")).isEqualTo((int) recorded);
        assertThat(recorded).isEqualTo(planned).isPositive();
        List<String> shown = NotebookBindings.DISPLAYED.subList(displayedBefore, NotebookBindings.DISPLAYED.size());
        assertThat(shown).hasSize(1);
        Matcher bands = Pattern.compile("<g class=\"op-band\"").matcher(shown.get(0));
        int n = 0;
        while (bands.find()) {
            n++;
        }
        assertThat(n).isEqualTo(history.operations().size());
        @SuppressWarnings("unchecked")
        List<Path> files = (List<Path>) value("historyFiles");
        assertThat(Files.readAllLines(files.get(0))).hasSize((int) recorded + 1);
    }

    @Test
    @Order(4)
    void sql() throws Exception {
        Path dir = tmp.resolve("04");
        runNotebook("04-sql.scala", dir);
        String era = dir + "/sql/era.zarr";
        double[] t2m = readAll(era + "/t2m");
        double[] lat = readAll(era + "/lat");
        double[] lon = readAll(era + "/lon");
        int nt = 60;
        int ny = 91;
        int nx = 180;
        assertThat(lat[0]).isEqualTo(90.0);
        assertThat(lat[ny - 1]).isEqualTo(-90.0);
        assertThat(lon[nx - 1]).isEqualTo(358.0);
        // The tropical mean per day, by a loop over the stored values.
        @SuppressWarnings("unchecked")
        scala.Tuple2<Object, Object>[] tropics = (scala.Tuple2<Object, Object>[]) value("tropics");
        assertThat(tropics).hasSize(nt);
        for (int t = 0; t < nt; t++) {
            double s = 0;
            int n = 0;
            for (int y = 0; y < ny; y++) {
                if (lat[y] >= -30 && lat[y] <= 30) {
                    for (int x = 0; x < nx; x++) {
                        s += t2m[(t * ny + y) * nx + x];
                        n++;
                    }
                }
            }
            assertThat(tropics[t]._1())
                    .isEqualTo(java.time.LocalDateTime.of(2020, 1, 1, 0, 0).plusDays(t));
            assertThat((Double) tropics[t]._2()).isCloseTo(s / n, within(1e-9));
        }
        double hottest = Double.NEGATIVE_INFINITY;
        for (int i = 42 * ny * nx; i < 43 * ny * nx; i++) {
            hottest = Math.max(hottest, t2m[i]);
        }
        assertThat((Double) value("hottestOnDay42")).isEqualTo(hottest);
        assertThat(value("chunksReadForOneDay")).isEqualTo(4L);
        // The three largest anomalies north of 60, against the mean over time of each point.
        org.apache.spark.sql.Row[] strongest = (org.apache.spark.sql.Row[]) value("strongest");
        List<Double> anomalies = new ArrayList<>();
        for (int y = 0; y < ny; y++) {
            if (lat[y] < 60) {
                continue;
            }
            for (int x = 0; x < nx; x++) {
                double m = 0;
                for (int t = 0; t < nt; t++) {
                    m += t2m[(t * ny + y) * nx + x];
                }
                m /= nt;
                for (int t = 0; t < nt; t++) {
                    anomalies.add(t2m[(t * ny + y) * nx + x] - m);
                }
            }
        }
        anomalies.sort(java.util.Comparator.reverseOrder());
        assertThat(strongest).hasSize(3);
        for (int k = 0; k < 3; k++) {
            assertThat(strongest[k].getDouble(3)).isCloseTo(anomalies.get(k), within(1e-9));
            assertThat(strongest[k].getDouble(1)).isGreaterThanOrEqualTo(60.0);
            // The join on the decoded time found the table's row: its t2m at that day, latitude and longitude.
            java.time.LocalDateTime day = strongest[k].getAs(0);
            int t = (int) java.time.temporal.ChronoUnit.DAYS.between(java.time.LocalDate.of(2020, 1, 1), day);
            int y = (int) Math.round((90.0 - strongest[k].getDouble(1)) / 2.0);
            int x = (int) Math.round(strongest[k].getDouble(2) / 2.0);
            assertThat(strongest[k].getDouble(4)).isEqualTo(t2m[(t * ny + y) * nx + x]);
        }
        assertThat(
                        Files.exists(dir.resolve("sql/work"))
                                ? Files.list(dir.resolve("sql/work")).count()
                                : 0)
                .as("released: no intermediates left")
                .isZero();
    }

    /** Equal arrays, reporting the first difference (AssertJ's diff of millions of elements takes minutes). */
    private static void assertSameValues(double[] actual, double[] expected, String what) {
        assertThat(actual.length).as(what + " length").isEqualTo(expected.length);
        for (int i = 0; i < actual.length; i++) {
            if (Double.compare(actual[i], expected[i]) != 0) {
                assertThat(actual[i]).as(what + " element " + i).isEqualTo(expected[i]);
            }
        }
    }

    private static boolean hasDot() {
        try {
            Process p =
                    new ProcessBuilder("dot", "-V").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
