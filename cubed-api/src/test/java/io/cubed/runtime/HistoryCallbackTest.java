package io.cubed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.array.ComputeOptions;
import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.plan.Spec;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import io.cubed.testing.ExternalTool;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The history of a computation whose tasks are known: 3 unfused operations over a 10 x 6 float64 array in chunks of
 * 4 x 6 (3 chunks: 4, 4 and 2 rows).
 */
public class HistoryCallbackTest {
    @TempDir
    Path tmp;

    /** negative (float64 -> float64), astype float32, negative (float32 -> float32), unfused: 3 ops x 3 tasks. */
    private HistoryCallback run(Executor executor) {
        return runKnownComputation(tmp, executor);
    }

    /** Runs the computation with the history callback on {@code executor}, under {@code tmp}. */
    public static HistoryCallback runKnownComputation(Path tmp, Executor executor) {
        String url = tmp.resolve("x.zarr").toString();
        ZarrArray z = ZarrArray.create(
                url,
                ZarrCreateOptions.builder(new long[] {10, 6}, new int[] {4, 6}, DType.FLOAT64)
                        .build());
        for (long i = 0; i < z.grid().numChunks(); i++) {
            long[] c = z.grid().chunkCoordsOf(i);
            z.writeChunk(Chunk.allocate(DType.FLOAT64, z.grid().chunkShapeAt(c)), c);
        }
        Spec spec = Spec.builder()
                .workDir(tmp.resolve("w").toString())
                .executor(executor)
                .build();
        CubedArray x = Cubed.fromZarr(url, spec);
        CubedArray d = Elementwise.negative(Elementwise.astype(Elementwise.negative(x), DType.FLOAT32));
        HistoryCallback history = new HistoryCallback();
        d.toZarr(
                tmp.resolve("out.zarr").toString(),
                ComputeOptions.builder().optimize(false).build(),
                history);
        return history;
    }

    /** A CSV line split on commas (the test's operation names hold none that are quoted: checked below). */
    private static List<Map<String, String>> parse(String csv) {
        String[] lines = csv.split("\n");
        String[] header = lines[0].split(",");
        List<Map<String, String>> rows = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            List<String> fields = splitCsv(lines[i]);
            assertThat(fields).as(lines[i]).hasSize(header.length);
            Map<String, String> row = new HashMap<>();
            for (int k = 0; k < header.length; k++) {
                row.put(header[k], fields.get(k));
            }
            rows.add(row);
        }
        return rows;
    }

    /** An RFC 4180 line reader, written here independently of the writer. */
    private static List<String> splitCsv(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    f.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    f.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                out.add(f.toString());
                f.setLength(0);
            } else {
                f.append(ch);
            }
        }
        out.add(f.toString());
        return out;
    }

    @Test
    void theTaskCsvHasOneRowPerTaskWithTheChunkSizes() throws Exception {
        checkKnownHistory(run(new LocalExecutor(2, 1)), tmp.resolve("history"));
    }

    /** Writes the history of {@link #runKnownComputation} to {@code dir} and checks every file. */
    public static void checkKnownHistory(HistoryCallback history, Path dir) throws Exception {
        List<Path> files = history.write(dir);
        assertThat(files)
                .extracting(p -> p.getFileName().toString())
                .containsExactly("tasks.csv", "operations.csv", "timeline.svg");
        List<Map<String, String>> tasks = parse(Files.readString(files.get(0)));
        assertThat(tasks).hasSize(9);

        // The three operations in the order they ran, each with tasks 0, 1, 2.
        List<Map<String, String>> ops = parse(Files.readString(files.get(1)));
        assertThat(ops).hasSize(3);
        List<String> opIds = ops.stream().map(r -> r.get("operation_id")).toList();
        assertThat(opIds).doesNotHaveDuplicates();
        // Bytes read and written per task (decoded chunks): rows 4, 4, 2 of 6 columns; float64 8 bytes, float32 4.
        long[][] read = {{192, 192, 96}, {192, 192, 96}, {96, 96, 48}};
        long[][] written = {{192, 192, 96}, {96, 96, 48}, {96, 96, 48}};
        for (int o = 0; o < 3; o++) {
            String id = opIds.get(o);
            for (int t = 0; t < 3; t++) {
                int op = o;
                int task = t;
                List<Map<String, String>> match = tasks.stream()
                        .filter(r -> r.get("operation_id").equals(id)
                                && r.get("task_index").equals("" + task))
                        .toList();
                assertThat(match).as(id + " task " + t).hasSize(1);
                Map<String, String> r = match.get(0);
                assertThat(Long.parseLong(r.get("bytes_read"))).as(id + " read").isEqualTo(read[op][task]);
                assertThat(Long.parseLong(r.get("bytes_written")))
                        .as(id + " written")
                        .isEqualTo(written[op][task]);
                assertThat(r.get("attempts")).isEqualTo("1");
                assertThat(Long.parseLong(r.get("allocated_bytes"))).isPositive();
                assertThat(r.get("peak_measured_bytes")).isEqualTo("-1");
                assertThat(Long.parseLong(r.get("projected_bytes")))
                        .isEqualTo(Long.parseLong(ops.get(o).get("projected_bytes")))
                        .isPositive();
            }
            Map<String, String> s = ops.get(o);
            assertThat(s.get("num_tasks")).isEqualTo("3");
            assertThat(s.get("tasks_recorded")).isEqualTo("3");
            assertThat(Long.parseLong(s.get("bytes_read"))).isEqualTo(read[o][0] + read[o][1] + read[o][2]);
            assertThat(Long.parseLong(s.get("bytes_written"))).isEqualTo(written[o][0] + written[o][1] + written[o][2]);
            assertThat(Long.parseLong(s.get("duration_ms")))
                    .isEqualTo(Long.parseLong(s.get("end_ms")) - Long.parseLong(s.get("start_ms")));
        }
        // Times: non-negative, each task ends after it starts, every task of an operation starts after every task
        // of the previous operation has ended (operations depend on each other), and rows are ordered by start.
        long prevStart = -1;
        for (Map<String, String> r : tasks) {
            long start = Long.parseLong(r.get("start_ms"));
            long end = Long.parseLong(r.get("end_ms"));
            assertThat(start).isNotNegative().isGreaterThanOrEqualTo(prevStart);
            assertThat(end).isGreaterThanOrEqualTo(start);
            prevStart = start;
        }
        for (int o = 1; o < 3; o++) {
            String prev = opIds.get(o - 1);
            String cur = opIds.get(o);
            long prevEnd = tasks.stream()
                    .filter(r -> r.get("operation_id").equals(prev))
                    .mapToLong(r -> Long.parseLong(r.get("end_ms")))
                    .max()
                    .orElseThrow();
            long curStart = tasks.stream()
                    .filter(r -> r.get("operation_id").equals(cur))
                    .mapToLong(r -> Long.parseLong(r.get("start_ms")))
                    .min()
                    .orElseThrow();
            assertThat(curStart).as(cur + " after " + prev).isGreaterThanOrEqualTo(prevEnd);
        }
        checkSvg(Files.readString(files.get(2)), opIds, 9);
    }

    @Test
    void measuredPeaksAreRecordedWhenTheExecutorMeasuresMemory() {
        // The executor measures the first task of every operation; the others report -1.
        HistoryCallback history = run(new LocalExecutor(1, 1).withMemoryMeasurement(1));
        assertThat(history.tasks()).hasSize(9);
        assertThat(history.tasks().stream().filter(t -> t.peakMeasuredBytes() >= 0))
                .hasSize(3)
                .allSatisfy(t -> assertThat(t.peakMeasuredBytes()).isNotNegative());
        assertThat(history.operations())
                .allSatisfy(o -> assertThat(o.memoryBytes()).isEqualTo(o.maxPeakMeasuredBytes()));
        assertThat(history.timelineSvg()).contains("class=\"measured\"").doesNotContain("class=\"allocated\"");
    }

    @Test
    void csvFieldsWithCommasAndQuotesAreQuoted() {
        assertThat(HistoryCallback.csv("plain")).isEqualTo("plain");
        assertThat(HistoryCallback.csv("a, b")).isEqualTo("\"a, b\"");
        assertThat(HistoryCallback.csv("say \"x\"")).isEqualTo("\"say \"\"x\"\"\"");
        assertThat(splitCsv("1,\"a, \"\"b\"\"\",2")).containsExactly("1", "a, \"b\"", "2");
    }

    @Test
    void anUnwritableDirectoryIsAClearError() throws Exception {
        Path file = tmp.resolve("a-file");
        Files.writeString(file, "x");
        HistoryCallback history = new HistoryCallback();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> history.write(file.resolve("sub")))
                .isInstanceOf(io.cubed.error.CubedException.class)
                .hasMessageContaining("cannot write the computation history to " + file.resolve("sub"));
    }

    /**
     * Parses the SVG as XML: one band per operation with one task bar per task, one memory bar group per operation
     * with a projected outline and a measured or allocated bar; then renders it to PNG with rsvg-convert.
     */
    static void checkSvg(String svg, List<String> opIds, int numTasks) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document doc = f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
        NodeList groups = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "g");
        List<String> bands = new ArrayList<>();
        List<String> bars = new ArrayList<>();
        int taskRects = 0;
        for (int i = 0; i < groups.getLength(); i++) {
            Element g = (Element) groups.item(i);
            NodeList rects = g.getElementsByTagNameNS("http://www.w3.org/2000/svg", "rect");
            if (g.getAttribute("class").equals("op-band")) {
                bands.add(g.getAttribute("data-op"));
                for (int k = 0; k < rects.getLength(); k++) {
                    Element r = (Element) rects.item(k);
                    if (r.getAttribute("class").equals("task")) {
                        taskRects++;
                        assertThat(Double.parseDouble(r.getAttribute("width"))).isPositive();
                    }
                }
            } else if (g.getAttribute("class").equals("mem-bar")) {
                bars.add(g.getAttribute("data-op"));
                List<String> classes = new ArrayList<>();
                for (int k = 0; k < rects.getLength(); k++) {
                    classes.add(((Element) rects.item(k)).getAttribute("class"));
                }
                assertThat(classes).contains("projected");
                assertThat(classes).containsAnyOf("measured", "allocated");
            }
        }
        assertThat(bands).containsExactlyElementsOf(opIds);
        assertThat(bars).containsExactlyElementsOf(opIds);
        assertThat(taskRects).isEqualTo(numTasks);
        renderToPng(svg);
    }

    private static void renderToPng(String svg) throws Exception {
        boolean available;
        try {
            Process p = new ProcessBuilder("rsvg-convert", "--version")
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            available = p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException e) {
            available = false;
        }
        ExternalTool.require(available, "rsvg-convert (Debian librsvg2-bin) is not installed");
        Path dir = Files.createTempDirectory("timeline");
        Path in = dir.resolve("timeline.svg");
        Path out = dir.resolve("timeline.png");
        Files.writeString(in, svg);
        Process p = new ProcessBuilder("rsvg-convert", "-o", out.toString(), in.toString())
                .redirectErrorStream(true)
                .start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(log).isZero();
        byte[] png = Files.readAllBytes(out);
        assertThat(png).hasSizeGreaterThan(100);
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }
}
