package io.cubed.storage.zarr;

import static io.cubed.storage.zarr.ZarrTestValues.assertSameValues;
import static io.cubed.storage.zarr.ZarrTestValues.dtypeOf;
import static io.cubed.storage.zarr.ZarrTestValues.ints;
import static io.cubed.storage.zarr.ZarrTestValues.longs;
import static io.cubed.storage.zarr.ZarrTestValues.region;
import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import io.cubed.storage.StoreOptions;
import io.cubed.testing.ExternalTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live interoperability with zarr-python 2 both ways, over the {@link InteropCases} matrix: zarr-python writes and
 * Cubed reads, Cubed writes and zarr-python reads, plus groups and attributes. One Python process handles each batch.
 * The interpreter is {@code -Dcubed.test.python} (default {@code /usr/bin/python3}); the class is skipped, with a
 * reason, only when that interpreter cannot import zarr.
 */
class ZarrPythonInteropIT {
    private static final String PYTHON = System.getProperty("cubed.test.python", "/usr/bin/python3");

    @TempDir
    static Path tmp;

    private static Path script;

    /** Why zarr-python cannot be used, or null when it can. */
    private static String unavailable;

    @BeforeAll
    static void probeZarrPython() throws Exception {
        try {
            ProcessResult r = run(List.of(PYTHON, "-c", "import zarr, numcodecs; print(zarr.__version__)"), 60);
            unavailable = r.exitCode == 0 ? null : "exit " + r.exitCode + ": " + r.output.strip();
        } catch (IOException e) {
            unavailable = e.getMessage();
        }
        if (unavailable != null) {
            System.err.println("WARNING: ZarrPythonInteropIT skipped: " + unavailable);
        }
        script = Path.of(ZarrPythonInteropIT.class
                .getResource("/zarr-interop/interop.py")
                .toURI());
    }

    /** Skips the calling test (reported as skipped, with the reason) when zarr-python cannot be imported. */
    private static void requireZarrPython() {
        ExternalTool.require(
                unavailable == null,
                "zarr-python interop skipped: " + PYTHON + " cannot import zarr and numcodecs (" + unavailable
                        + "); set -Dcubed.test.python=/path/to/python");
    }

    private record ProcessResult(int exitCode, String output) {}

    private static ProcessResult run(List<String> command, int timeoutSeconds)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(command + " did not finish within " + timeoutSeconds + " s");
        }
        return new ProcessResult(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /** Runs interop.py on a batch; returns the lines it printed, keyed by the case name after the status word. */
    private static Map<String, String> runBatch(String mode, Map<String, Object> spec, Path specFile)
            throws IOException, InterruptedException {
        Files.writeString(specFile, Json.write(spec));
        ProcessResult r = run(List.of(PYTHON, script.toString(), mode, specFile.toString()), 300);
        assertThat(r.exitCode)
                .as("interop.py %s exit code; output:%n%s", mode, r.output)
                .isZero();
        Map<String, String> lines = new HashMap<>();
        for (String line : r.output.lines().toList()) {
            String[] parts = line.split(" ", 3);
            if (parts.length >= 2) {
                lines.put(parts[0].equals("GROUP") ? "GROUP" : parts[1], line);
            }
        }
        return lines;
    }

    @TestFactory
    Stream<DynamicTest> pythonWritesCubedReads() throws Exception {
        if (unavailable != null) {
            // An aborted factory is not reported; a skipped dynamic test is.
            return Stream.of(
                    DynamicTest.dynamicTest("zarr-python unavailable", ZarrPythonInteropIT::requireZarrPython));
        }
        List<Map<String, Object>> cases = InteropCases.matrix(tmp.resolve("py"), false);
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("cases", cases);
        Map<String, String> lines = runBatch("write", spec, tmp.resolve("python-writes.json"));
        return cases.stream()
                .map(c -> DynamicTest.dynamicTest((String) c.get("name"), () -> {
                    String line = lines.get((String) c.get("name"));
                    assertThat(line).as("zarr-python wrote %s", c.get("name")).startsWith("WROTE ");
                    checkCubedReads(c);
                }));
    }

    private static void checkCubedReads(Map<String, Object> c) {
        ZarrArray a = ZarrArray.open((String) c.get("path"));
        DType dtype = dtypeOf((String) c.get("dtype"));
        ZarrV2Metadata m = a.metadata();
        assertThat(m.dataType().toJson()).isEqualTo(c.get("dtype"));
        assertThat(m.shape()).isEqualTo(longs(c.get("shape")));
        assertThat(m.chunks()).isEqualTo(ints(c.get("chunks")));
        assertThat(m.order().name()).isEqualTo(c.get("order"));
        assertThat(m.dimensionSeparator()).isEqualTo(c.get("separator"));
        assertThat(m.fillValue()).isEqualTo(InteropCases.fillScalar(c.get("fill"), dtype));
        // zarr-python 2 stores 0-d arrays uncompressed whatever compressor it is given.
        Object comp = m.shape().length == 0 ? null : c.get("compressor");
        assertThat(
                        m.compressor() == null
                                ? null
                                : Json.parse(Json.write(m.compressor().toJson())))
                .isEqualTo(comp);
        Chunk expected = InteropCases.expected(c);
        int[] shape = ints(c.get("shape"));
        assertSameValues(a.readRegion(new long[shape.length], shape), expected, "readRegion");
        checkChunks(a, c, expected);
    }

    private static void checkChunks(ZarrArray a, Map<String, Object> c, Chunk expected) {
        Set<List<Long>> missing = new HashSet<>();
        for (Object coords : (List<?>) c.get("missing")) {
            List<Long> l = new ArrayList<>();
            for (long x : longs(coords)) {
                l.add(x);
            }
            missing.add(l);
        }
        ChunkGrid g = a.grid();
        for (long i = 0; i < g.numChunks(); i++) {
            long[] coords = g.chunkCoordsOf(i);
            List<Long> key = new ArrayList<>();
            for (long x : coords) {
                key.add(x);
            }
            assertThat(a.chunkExists(coords)).as("chunk %s exists", key).isEqualTo(!missing.contains(key));
            int[] clipped = g.chunkShapeAt(coords);
            assertSameValues(a.readChunk(coords), region(expected, g.chunkOffset(coords), clipped), "chunk " + key);
        }
    }

    @TestFactory
    Stream<DynamicTest> cubedWritesPythonReads() throws Exception {
        if (unavailable != null) {
            // An aborted factory is not reported; a skipped dynamic test is.
            return Stream.of(
                    DynamicTest.dynamicTest("zarr-python unavailable", ZarrPythonInteropIT::requireZarrPython));
        }
        List<Map<String, Object>> cases = InteropCases.matrix(tmp.resolve("java"), true);
        Map<String, String> writeErrors = new HashMap<>();
        for (Map<String, Object> c : cases) {
            try {
                writeWithCubed(c);
            } catch (RuntimeException | AssertionError e) {
                writeErrors.put((String) c.get("name"), e.toString());
            }
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("cases", cases);
        Map<String, String> lines = runBatch("read", spec, tmp.resolve("java-writes.json"));
        return cases.stream()
                .map(c -> DynamicTest.dynamicTest((String) c.get("name"), () -> {
                    String name = (String) c.get("name");
                    assertThat(writeErrors.get(name))
                            .as("Cubed write of %s", name)
                            .isNull();
                    assertThat(lines.get(name))
                            .as("zarr-python read of %s", name)
                            .isEqualTo("OK " + name);
                }));
    }

    private static void writeWithCubed(Map<String, Object> c) {
        DType dtype = dtypeOf((String) c.get("dtype"));
        long[] shape = longs(c.get("shape"));
        Scalar fill = InteropCases.fillScalar(c.get("fill"), dtype);
        @SuppressWarnings("unchecked")
        Map<String, Object> comp = (Map<String, Object>) c.get("compressor");
        ZarrArray a = ZarrArray.create(
                (String) c.get("path"),
                ZarrCreateOptions.builder(shape, ints(c.get("chunks")), dtype)
                        .compressor(comp == null ? null : Compressor.fromJson(comp, "case " + c.get("name")))
                        .fillValue(fill)
                        .dimensionSeparator((String) c.get("separator"))
                        .build());
        Set<String> missing = new HashSet<>();
        for (Object coords : (List<?>) c.get("missing")) {
            missing.add(a.metadata().chunkKey(longs(coords)));
        }
        ChunkGrid g = a.grid();
        for (long i = 0; i < g.numChunks(); i++) {
            long[] coords = g.chunkCoordsOf(i);
            if (!missing.contains(a.metadata().chunkKey(coords))) {
                a.writeChunk(InteropCases.formula(dtype, shape, g.chunkOffset(coords), g.chunkShapeAt(coords)), coords);
            }
        }
    }

    @Test
    void skippedEmptyChunksReadBackInZarrPython() throws Exception {
        requireZarrPython();
        // With a fill value, an all-fill chunk is not stored and zarr-python reads the fill; without one (null),
        // zarr-python would read a missing chunk as uninitialised memory, so the all-zero chunk must be stored.
        List<String> values = new ArrayList<>();
        for (Scalar fill : java.util.Arrays.asList(Scalar.ofLong(7), null)) {
            String url = tmp.resolve("empty-" + fill).toString();
            ZarrArray a = ZarrArray.create(
                            url,
                            ZarrCreateOptions.builder(new long[] {6}, new int[] {2}, DType.INT32)
                                    .compressor(new Compressor.Zlib(1))
                                    .fillValue(fill)
                                    .build())
                    .writeEmptyChunks(false);
            a.writeChunk(Chunk.wrap(DType.INT32, new int[] {2}, new int[] {7, 7}), 0);
            a.writeChunk(Chunk.wrap(DType.INT32, new int[] {2}, new int[] {0, 0}), 1);
            a.writeChunk(Chunk.wrap(DType.INT32, new int[] {2}, new int[] {5, 6}), 2);
            assertThat(a.chunkExists(0))
                    .as("all-7 chunk stored with fill %s", fill)
                    .isEqualTo(fill == null);
            assertThat(a.chunkExists(1))
                    .as("all-0 chunk stored with fill %s", fill)
                    .isTrue();
            assertThat(a.chunkExists(2)).isTrue();
            ProcessResult r = run(
                    List.of(
                            PYTHON,
                            "-c",
                            "import sys, zarr; print(zarr.open(sys.argv[1], mode='r')[...].tolist())",
                            url),
                    60);
            assertThat(r.exitCode).as(r.output).isZero();
            values.add(r.output.strip());
        }
        assertThat(values).containsExactly("[7, 7, 0, 0, 5, 6]", "[7, 7, 0, 0, 5, 6]");
    }

    @Test
    void groupsAndAttributesBothWays() throws Exception {
        requireZarrPython();
        // zarr-python writes a group; Cubed reads it.
        Path pyGroup = tmp.resolve("py-group");
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("cases", List.of());
        spec.put("python_group", pyGroup.toString());
        assertThat(runBatch("write", spec, tmp.resolve("group-write.json"))).containsKey("GROUP");
        ZarrGroup g = ZarrGroup.open(pyGroup.toString(), StoreOptions.empty());
        Map<String, Object> attrs = g.attributes();
        assertThat(attrs)
                .containsEntry("title", "written by zarr-python")
                .containsEntry("n", 7L)
                .containsEntry("pi", 3.25)
                .containsEntry("nested", Map.of("k", true))
                .containsEntry("nan", Double.NaN)
                .containsEntry("text", "\u00e9t\u00e9");
        assertThat(attrs.get("list")).isEqualTo(java.util.Arrays.asList(1L, "a", null));
        assertThat(g.arrayNames()).containsExactly("data");
        assertThat(g.groupNames()).containsExactly("child");
        assertThat(ZarrGroup.open(g.memberUrl("child"), StoreOptions.empty()).attributes())
                .isEqualTo(Map.of("depth", 1L));
        ZarrArray data = g.openArray("data");
        assertThat(data.attributes()).isEqualTo(Map.of("units", "m"));
        assertThat(data.readRegion(new long[] {0}, new int[] {5}).ints()).containsExactly(0, 3, 6, 9, 12);

        // Cubed writes a group; zarr-python reads it.
        Path javaGroup = tmp.resolve("java-group");
        ZarrGroup jg = ZarrGroup.create(javaGroup.toString(), StoreOptions.empty());
        Map<String, Object> jattrs = new LinkedHashMap<>();
        jattrs.put("title", "written by Cubed");
        jattrs.put("count", 3L);
        jattrs.put("ratio", 0.125);
        jattrs.put("nan", Double.NaN);
        jattrs.put("list", java.util.Arrays.asList(1L, "b", null, true));
        jattrs.put("nested", Map.of("deep", Map.of("x", -1L)));
        jattrs.put("unicode", "\u00b5 \ud83d\ude00");
        jg.writeAttributes(jattrs);
        jg.createGroup("child").writeAttributes(Map.of("depth", 1L));
        ZarrArray ja = jg.createArray(
                "data",
                ZarrCreateOptions.builder(new long[] {5}, new int[] {2}, DType.INT32)
                        .compressor(new Compressor.Zlib(1))
                        .build());
        for (long i = 0; i < 3; i++) {
            int[] box = ja.grid().chunkShapeAt(i);
            Chunk ch = Chunk.allocate(DType.INT32, box);
            for (int j = 0; j < box[0]; j++) {
                ch.ints()[j] = (int) (i * 2 + j) * 3;
            }
            ja.writeChunk(ch, i);
        }
        ja.writeAttributes(Map.of("units", "m"));
        Map<String, Object> readSpec = new LinkedHashMap<>();
        readSpec.put("cases", List.of());
        readSpec.put("java_group", javaGroup.toString());
        String line = runBatch("read", readSpec, tmp.resolve("group-read.json")).get("GROUP");
        assertThat(line).as("zarr-python read the group").isNotNull();
        Map<?, ?> seen = (Map<?, ?>) Json.parse(line.substring("GROUP ".length()));
        Map<?, ?> seenAttrs = (Map<?, ?>) seen.get("attrs");
        assertThat(seenAttrs.get("title")).isEqualTo("written by Cubed");
        assertThat(seenAttrs.get("count")).isEqualTo(3L);
        assertThat(seenAttrs.get("ratio")).isEqualTo(0.125);
        assertThat(seenAttrs.get("nan")).isEqualTo(Double.NaN);
        assertThat(seenAttrs.get("list")).isEqualTo(java.util.Arrays.asList(1L, "b", null, true));
        assertThat(seenAttrs.get("nested")).isEqualTo(Map.of("deep", Map.of("x", -1L)));
        assertThat(seenAttrs.get("unicode")).isEqualTo("\u00b5 \ud83d\ude00");
        assertThat(seen.get("arrays")).isEqualTo(List.of("data"));
        assertThat(seen.get("groups")).isEqualTo(List.of("child"));
        assertThat(seen.get("child_attrs")).isEqualTo(Map.of("depth", 1L));
        assertThat(seen.get("array_attrs")).isEqualTo(Map.of("units", "m"));
        assertThat(seen.get("data")).isEqualTo(List.of(0L, 3L, 6L, 9L, 12L));
        assertThat(seen.get("zgroup")).isEqualTo(Map.of("zarr_format", 2L));
    }
}
