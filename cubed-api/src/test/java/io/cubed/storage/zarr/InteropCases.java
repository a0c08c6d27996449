package io.cubed.storage.zarr;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The case matrix of {@link ZarrPythonInteropIT} (dtypes x compressors x order x separator x fill values, with missing
 * and edge chunks, 0-d and zero-length arrays) and the value formula shared with {@code zarr-interop/interop.py}.
 */
final class InteropCases {
    private InteropCases() {}

    static final List<String> DTYPES =
            List.of("b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8", "c8", "c16");

    static final List<String> BLOSC_CNAMES = List.of("lz4", "zstd", "zlib", "blosclz", "lz4hc");

    private static final long[][] SHAPES = {{7, 5}, {4, 5, 3}, {9}, {6, 4}};
    private static final int[][] CHUNKS = {{3, 2}, {3, 2, 2}, {4}, {6, 4}};

    /** Every compressor configuration: none, zlib, gzip, zstd, lz4, bz2 and blosc with 5 cnames x 3 shuffles. */
    static List<Map<String, Object>> compressors() {
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(null);
        out.add(config("zlib", "level", 1L));
        out.add(config("gzip", "level", 1L));
        out.add(config("zstd", "level", 1L));
        out.add(config("lz4", "acceleration", 1L));
        out.add(config("bz2", "level", 1L));
        for (String cname : BLOSC_CNAMES) {
            for (long shuffle = 0; shuffle <= 2; shuffle++) {
                Map<String, Object> m = config("blosc", "cname", cname);
                m.put("clevel", 5L);
                m.put("shuffle", shuffle);
                m.put("blocksize", 0L);
                out.add(m);
            }
        }
        return out;
    }

    private static Map<String, Object> config(String id, String key, Object value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put(key, value);
        return m;
    }

    /** The fill values tried for a dtype, in {@code .zarray} JSON form; the last is null (no fill value). */
    static List<Object> fills(String kindSize) {
        DType d = ZarrTestValues.dtypeOf("|" + kindSize);
        int bits = 8 * d.itemSizeBytes();
        List<Object> out = new ArrayList<>();
        switch (d.kind()) {
            case BOOL -> out.addAll(List.of(false, true));
            case SIGNED -> out.addAll(List.of(0L, -7L, 42L, bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1))));
            case UNSIGNED -> out.addAll(
                    List.of(0L, 200L, BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)));
            case FLOAT -> out.addAll(List.of(0.0, "NaN", "Infinity", "-Infinity", -1.5));
            case COMPLEX -> out.addAll(List.of(List.of(0.0, 0.0), List.of(1.5, -2.25), List.of("NaN", "Infinity")));
        }
        out.add(null);
        return out;
    }

    /**
     * The matrix; {@code javaWrites} restricts it to what Cubed writes (C order, little-endian). Names are unique and
     * say what varies, e.g. {@code m017_i4_blosc-lz4-s1_F_slash_fill42}.
     */
    static List<Map<String, Object>> matrix(Path dir, boolean javaWrites) {
        List<Map<String, Object>> cases = new ArrayList<>();
        List<Map<String, Object>> compressors = compressors();
        int k = 0;
        // Every dtype with every compressor; order, separator, byte order, shape and fill rotate.
        for (String dt : DTYPES) {
            List<Object> fills = fills(dt);
            for (Map<String, Object> comp : compressors) {
                int s = k % SHAPES.length;
                cases.add(make(
                        dir,
                        "m" + k,
                        dt,
                        k % 4 == 3,
                        SHAPES[s],
                        CHUNKS[s],
                        comp,
                        fills.get(k % fills.size()),
                        k % 2 == 1 ? "F" : "C",
                        k % 3 == 1 ? "/" : ".",
                        k,
                        javaWrites));
                k++;
            }
        }
        // Every fill value of every dtype, with missing and edge chunks, both separators.
        for (String dt : DTYPES) {
            for (Object fill : fills(dt)) {
                Map<String, Object> comp = compressors.get(1 + k % 5);
                cases.add(make(
                        dir,
                        "f" + k,
                        dt,
                        false,
                        new long[] {5, 7},
                        new int[] {2, 3},
                        comp,
                        fill,
                        k % 2 == 0 ? "F" : "C",
                        k % 3 == 0 ? "/" : ".",
                        k,
                        javaWrites));
                k++;
            }
        }
        // 0-d (sometimes with its only chunk missing) and zero-length arrays.
        for (String dt : DTYPES) {
            List<Object> fills = fills(dt);
            cases.add(make(
                    dir,
                    "z" + k,
                    dt,
                    k % 2 == 0,
                    new long[0],
                    new int[0],
                    compressors.get(k % compressors.size()),
                    fills.get(k % fills.size()),
                    "C",
                    ".",
                    k % 3 == 0 ? 0 : -1,
                    javaWrites));
            k++;
        }
        long[][] zeroShapes = {{0}, {3, 0}, {0, 0, 2}};
        int[][] zeroChunks = {{4}, {2, 2}, {1, 3, 2}};
        for (int i = 0; i < zeroShapes.length; i++) {
            for (String dt : List.of("f8", "i2", "c8")) {
                cases.add(make(
                        dir,
                        "e" + k,
                        dt,
                        false,
                        zeroShapes[i],
                        zeroChunks[i],
                        compressors.get(1 + k % 5),
                        fills(dt).get(0),
                        "C",
                        "/",
                        -1,
                        javaWrites));
                k++;
            }
        }
        return cases;
    }

    private static Map<String, Object> make(
            Path dir,
            String id,
            String kindSize,
            boolean bigEndian,
            long[] shape,
            int[] chunks,
            Map<String, Object> compressor,
            Object fill,
            String order,
            String separator,
            int missingSeed,
            boolean javaWrites) {
        boolean oneByte = kindSize.endsWith("1");
        String endian = oneByte ? "|" : bigEndian && !javaWrites ? ">" : "<";
        String ord = javaWrites ? "C" : order;
        String compName = compressor == null
                ? "raw"
                : compressor.get("id")
                        + (compressor.containsKey("cname")
                                ? "-" + compressor.get("cname") + "-s" + compressor.get("shuffle")
                                : "");
        String name = id + "_" + endian.replace("|", "").replace("<", "").replace(">", "be") + kindSize + "_"
                + compName + "_" + ord + "_" + (separator.equals("/") ? "slash" : "dot") + "_fill"
                + String.valueOf(fill).replace(" ", "");
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("name", name);
        c.put("path", dir.resolve(id).toString());
        c.put("dtype", endian + kindSize);
        c.put("shape", boxed(shape));
        c.put("chunks", boxed(Arrays.stream(chunks).asLongStream().toArray()));
        c.put("compressor", compressor);
        c.put("fill", fill);
        c.put("order", ord);
        c.put("separator", separator);
        List<Object> missing = new ArrayList<>();
        ChunkGrid g = ChunkGrid.of(shape, chunks);
        if (missingSeed >= 0 && g.numChunks() > 1) {
            // One interior-or-first chunk and the last (edge) chunk go missing.
            missing.add(boxed(g.chunkCoordsOf(missingSeed % (g.numChunks() - 1))));
            missing.add(boxed(g.chunkCoordsOf(g.numChunks() - 1)));
        } else if (missingSeed >= 0 && shape.length == 0) {
            missing.add(List.of());
        }
        c.put("missing", missing);
        return c;
    }

    private static List<Object> boxed(long[] a) {
        List<Object> l = new ArrayList<>();
        for (long x : a) {
            l.add(x);
        }
        return l;
    }

    /** The fill value of a case as a scalar, or null; independent of {@code FillValues}. */
    static Scalar fillScalar(Object fill, DType dtype) {
        if (fill == null) {
            return null;
        }
        return switch (dtype.kind()) {
            case BOOL -> Scalar.ofBoolean((Boolean) fill);
            case SIGNED -> Scalar.ofLong(((Number) fill).longValue());
                // 2^63 and above are uint64 values (zarr-python writes 2^64 - 1 as such), not negative longs.
            case UNSIGNED -> dtype == DType.UINT64
                    ? Scalar.ofUnsignedLong(((Number) fill).longValue())
                    : Scalar.ofLong(((Number) fill).longValue());
            case FLOAT -> Scalar.ofDouble(real(fill));
            case COMPLEX -> Scalar.ofComplex(real(((List<?>) fill).get(0)), real(((List<?>) fill).get(1)));
        };
    }

    private static double real(Object x) {
        if (x instanceof String s) {
            return Double.parseDouble(s);
        }
        return ((Number) x).doubleValue();
    }

    /** The formula value of element {@code i} (C order) written into slot {@code dst} of {@code c}. */
    static void set(Chunk c, int dst, long i) {
        long v = i * 7919 - 1000;
        switch (c.dtype()) {
            case BOOL -> c.booleans()[dst] = i % 3 == 0;
            case INT8, UINT8 -> c.bytes()[dst] = (byte) v;
            case INT16, UINT16 -> c.shorts()[dst] = (short) v;
            case INT32, UINT32 -> c.ints()[dst] = (int) v;
            case INT64, UINT64 -> c.longs()[dst] = v;
            case FLOAT32 -> c.floats()[dst] = (float) realAt(i);
            case FLOAT64 -> c.doubles()[dst] = realAt(i);
            case COMPLEX64 -> {
                c.floats()[2 * dst] = (float) complexRe(i);
                c.floats()[2 * dst + 1] = (float) (2.0 - i * 0.25);
            }
            case COMPLEX128 -> {
                c.doubles()[2 * dst] = complexRe(i);
                c.doubles()[2 * dst + 1] = 2.0 - i * 0.25;
            }
        }
    }

    private static double realAt(long i) {
        return switch ((int) (i % 11)) {
            case 5 -> Double.NaN;
            case 7 -> Double.POSITIVE_INFINITY;
            case 9 -> Double.NEGATIVE_INFINITY;
            default -> i * 0.25 - 3.0;
        };
    }

    private static double complexRe(long i) {
        return i % 13 == 4 ? Double.NaN : i * 0.5 - 1.0;
    }

    /** The box at {@code offset} of {@code box} elements of the formula array of {@code shape}. */
    static Chunk formula(DType dtype, long[] shape, long[] offset, int[] box) {
        Chunk c = Chunk.allocate(dtype, box);
        int[] idx = new int[box.length];
        for (int n = 0; n < c.size(); n++) {
            long flat = 0;
            for (int a = 0; a < box.length; a++) {
                flat = flat * shape[a] + offset[a] + idx[a];
            }
            set(c, n, flat);
            for (int a = box.length - 1; a >= 0; a--) {
                if (++idx[a] < box[a]) {
                    break;
                }
                idx[a] = 0;
            }
        }
        return c;
    }

    /** The whole array a reader must see: the formula, with missing chunks holding the fill (zero when null). */
    static Chunk expected(Map<String, Object> c) {
        DType dtype = ZarrTestValues.dtypeOf((String) c.get("dtype"));
        long[] shape = ZarrTestValues.longs(c.get("shape"));
        int[] ishape = ZarrTestValues.toInts(shape);
        Chunk whole = formula(dtype, shape, new long[shape.length], ishape);
        Scalar fill = fillScalar(c.get("fill"), dtype);
        ChunkGrid g = ChunkGrid.of(shape, ZarrTestValues.ints(c.get("chunks")));
        for (Object coords : (List<?>) c.get("missing")) {
            long[] cc = ZarrTestValues.longs(coords);
            int[] clipped = g.chunkShapeAt(cc);
            Chunk f = Chunk.full(dtype, fill == null ? Scalar.zero() : fill, clipped);
            Chunk.copyRegion(f, new int[clipped.length], whole, ZarrTestValues.toInts(g.chunkOffset(cc)), clipped);
        }
        return whole;
    }
}
