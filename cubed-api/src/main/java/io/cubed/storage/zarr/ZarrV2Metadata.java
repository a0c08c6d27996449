package io.cubed.storage.zarr;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.error.StorageException;
import io.cubed.grid.ChunkGrid;
import java.io.Serializable;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The contents of a Zarr v2 {@code .zarray}: shape, chunks, dtype, compressor, fill value, memory order and dimension
 * separator. Immutable and serializable, so tasks carry it instead of re-reading the file.
 */
public final class ZarrV2Metadata implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Memory order of the elements inside a stored chunk. */
    public enum Order {
        C,
        F
    }

    private final long[] shape;
    private final int[] chunks;
    private transient ZarrDataType dataType;
    private final String dtypeJson;
    private final Compressor compressor;
    private final Scalar fillValue;
    private final Order order;
    private final String dimensionSeparator;
    private transient ChunkGrid grid;

    private ZarrV2Metadata(
            long[] shape,
            int[] chunks,
            ZarrDataType dataType,
            Compressor compressor,
            Scalar fillValue,
            Order order,
            String dimensionSeparator) {
        this.shape = shape.clone();
        this.chunks = chunks.clone();
        this.dataType = dataType;
        this.dtypeJson = dataType.toJson();
        this.compressor = compressor;
        this.fillValue = fillValue;
        this.order = order;
        this.dimensionSeparator = dimensionSeparator;
        this.grid = ChunkGrid.of(this.shape, this.chunks);
    }

    /**
     * Metadata for a new array that Cubed writes: little-endian, C order. {@code compressor} may be null (no
     * compression), {@code fillValue} may be null (zarr's "no fill value", read back as zeros); a fill value the dtype
     * cannot hold (300 for int8, 1.5 for an integer type) is an {@link io.cubed.error.InvalidArgumentException}.
     */
    public static ZarrV2Metadata create(
            long[] shape, int[] chunks, DType dtype, Compressor compressor, Scalar fillValue, String separator) {
        checkSeparator(separator, "new array");
        Scalar fill = FillValues.forNewArray(fillValue, dtype);
        return new ZarrV2Metadata(
                shape, chunks, ZarrDataType.littleEndian(dtype), compressor, fill, Order.C, separator);
    }

    /** Parses {@code .zarray} bytes; {@code where} (its URL) goes into every error message. */
    public static ZarrV2Metadata parse(byte[] json, String where) {
        Map<?, ?> m = MetadataDocuments.parseObject(json, where);
        Object format = m.get("zarr_format");
        if (!Long.valueOf(2).equals(format)) {
            throw new StorageException("unsupported zarr_format " + format + " in " + where + ": expected 2");
        }
        long[] shape = longList(m, "shape", where);
        long[] chunkLongs = longList(m, "chunks", where);
        if (shape.length != chunkLongs.length) {
            throw new StorageException("malformed " + where + ": shape " + Arrays.toString(shape) + " has rank "
                    + shape.length + " but chunks " + Arrays.toString(chunkLongs) + " have rank " + chunkLongs.length);
        }
        int[] chunks = MetadataDocuments.checkedChunks(shape, chunkLongs, "chunks", where);
        long chunkElements = 1;
        for (int c : chunks) {
            // Past 2^31 elements the chunk is refused below; the product stays within a long.
            chunkElements = chunkElements > Integer.MAX_VALUE ? chunkElements : chunkElements * c;
        }
        if (!m.containsKey("dtype")) {
            throw new StorageException("malformed " + where + ": no \"dtype\"");
        }
        ZarrDataType dataType = ZarrDataType.parse(m.get("dtype"), where);
        if (chunkElements * dataType.dtype().itemSizeBytes() > Integer.MAX_VALUE - 8) {
            throw new StorageException("chunks " + Arrays.toString(chunks) + " of " + where + " hold more than 2 GB; "
                    + "a chunk must fit in one Java array");
        }
        Object c = m.get("compressor");
        Compressor compressor = null;
        if (c instanceof Map) {
            compressor = Compressor.fromJson((Map<?, ?>) c, where);
        } else if (c != null) {
            throw new StorageException("malformed " + where + ": \"compressor\" must be an object or null, got " + c);
        }
        Scalar fill = FillValues.parse(m.get("fill_value"), dataType.dtype(), where);
        Object orderJson = m.get("order");
        Order order;
        if ("C".equals(orderJson) || orderJson == null) {
            order = Order.C;
        } else if ("F".equals(orderJson)) {
            order = Order.F;
        } else {
            throw new StorageException("malformed " + where + ": \"order\" must be \"C\" or \"F\", got " + orderJson);
        }
        Object filters = m.get("filters");
        if (filters != null && !(filters instanceof List && ((List<?>) filters).isEmpty())) {
            throw new StorageException("unsupported filters " + filters + " in " + where + ": Cubed reads arrays "
                    + "without numcodecs filters");
        }
        Object sep = m.get("dimension_separator");
        String separator = sep == null ? "." : String.valueOf(sep);
        checkSeparator(separator, where);
        return new ZarrV2Metadata(shape, chunks, dataType, compressor, fill, order, separator);
    }

    private static void checkSeparator(String separator, String where) {
        if (!separator.equals(".") && !separator.equals("/")) {
            throw new StorageException(
                    "unsupported dimension_separator '" + separator + "' in " + where + ": expected \".\" or \"/\"");
        }
    }

    private static long[] longList(Map<?, ?> m, String key, String where) {
        Object v = m.get(key);
        if (!(v instanceof List)) {
            throw new StorageException("malformed " + where + ": \"" + key + "\" must be a list of integers, got " + v);
        }
        List<?> l = (List<?>) v;
        long[] out = new long[l.size()];
        for (int i = 0; i < out.length; i++) {
            Object x = l.get(i);
            if (!(x instanceof Long)) {
                throw new StorageException(
                        "malformed " + where + ": \"" + key + "\" must be a list of integers, got " + v);
            }
            out[i] = (Long) x;
        }
        return out;
    }

    /** The {@code .zarray} JSON text. */
    public String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("zarr_format", 2L);
        m.put("shape", boxed(shape));
        List<Object> c = new ArrayList<>();
        for (int x : chunks) {
            c.add((long) x);
        }
        m.put("chunks", c);
        m.put("dtype", dtypeJson);
        m.put("compressor", compressor == null ? null : compressor.toJson());
        m.put("fill_value", FillValues.toJson(fillValue, dtype()));
        m.put("order", order.name());
        m.put("filters", null);
        m.put("dimension_separator", dimensionSeparator);
        return Json.write(m);
    }

    private static List<Object> boxed(long[] a) {
        List<Object> l = new ArrayList<>();
        for (long x : a) {
            l.add(x < 0 ? BigInteger.valueOf(x) : (Object) x);
        }
        return l;
    }

    public long[] shape() {
        return shape.clone();
    }

    public int[] chunks() {
        return chunks.clone();
    }

    public DType dtype() {
        return dataType().dtype();
    }

    public ZarrDataType dataType() {
        ZarrDataType d = dataType;
        if (d == null) {
            d = ZarrDataType.parse(dtypeJson, "metadata");
            dataType = d;
        }
        return d;
    }

    /** The compressor, or {@code null} for uncompressed chunks. */
    public Compressor compressor() {
        return compressor;
    }

    /** The fill value, or {@code null} when the array has none (missing chunks then read as zeros). */
    public Scalar fillValue() {
        return fillValue;
    }

    public Order order() {
        return order;
    }

    /** {@code "."} or {@code "/"}. */
    public String dimensionSeparator() {
        return dimensionSeparator;
    }

    /** The regular chunk grid of this array. */
    public ChunkGrid grid() {
        ChunkGrid g = grid;
        if (g == null) {
            g = ChunkGrid.of(shape, chunks);
            grid = g;
        }
        return g;
    }

    /** The store key of the chunk at {@code chunkCoords}, e.g. {@code "1.0"}, {@code "1/0"}, or {@code "0"} for 0-d. */
    public String chunkKey(long... chunkCoords) {
        if (chunkCoords.length == 0) {
            return "0";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < chunkCoords.length; i++) {
            if (i > 0) {
                sb.append(dimensionSeparator);
            }
            sb.append(chunkCoords[i]);
        }
        return sb.toString();
    }

    /** Size in bytes of a full stored chunk before compression. */
    public int chunkSizeBytes() {
        return Math.toIntExact(grid().chunkSize() * dtype().itemSizeBytes());
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ZarrV2Metadata)) {
            return false;
        }
        ZarrV2Metadata z = (ZarrV2Metadata) o;
        return Arrays.equals(shape, z.shape)
                && Arrays.equals(chunks, z.chunks)
                && dtypeJson.equals(z.dtypeJson)
                && Objects.equals(compressor, z.compressor)
                && Objects.equals(fillValue, z.fillValue)
                && order == z.order
                && dimensionSeparator.equals(z.dimensionSeparator);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(shape), Arrays.hashCode(chunks), dtypeJson, compressor, fillValue);
    }

    @Override
    public String toString() {
        return "ZarrV2Metadata{shape=" + Arrays.toString(shape) + ", chunks=" + Arrays.toString(chunks) + ", dtype="
                + dtypeJson + ", compressor=" + compressor + ", fill_value=" + fillValue + ", order=" + order + "}";
    }
}
