package io.cubed.spark.sql;

import static org.apache.spark.sql.functions.col;

import io.cubed.dtype.Scalar;
import io.cubed.error.InvalidArgumentException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;

/**
 * What a DataFrame becomes in Zarr, decided on the driver before anything is written: the dimension columns and their
 * coordinates (the sorted distinct values, found in one pass over the columns needed ({@link ZarrWriteScan}) or, for a
 * DataFrame that is a plain scan of a Zarr table, the source's coordinates ({@link ZarrWriteSource}); or the values
 * of {@code coords.DIM}), the variables (every other column) with their types and fill values, the chunk shape, and
 * the CF time unit of each timestamp column.
 */
final class ZarrWriteLayout {
    final List<ZarrWriteCoordinate> dims;
    final List<ZarrWriteColumn> vars;
    final int[] chunks;

    private ZarrWriteLayout(List<ZarrWriteCoordinate> dims, List<ZarrWriteColumn> vars, int[] chunks) {
        this.dims = dims;
        this.vars = vars;
        this.chunks = chunks;
    }

    long[] shape() {
        long[] s = new long[dims.size()];
        for (int a = 0; a < s.length; a++) {
            s[a] = dims.get(a).size();
        }
        return s;
    }

    /** Checks the columns of {@code data} against {@code o}, finds the coordinates and time units, and picks chunks. */
    static ZarrWriteLayout of(SparkSession spark, Dataset<Row> data, ZarrWriteOptions o) {
        String path = o.path;
        Map<String, StructField> fields = new LinkedHashMap<>();
        for (StructField f : data.schema().fields()) {
            fields.put(f.name(), f);
        }
        List<StructField> dimFields = new ArrayList<>();
        for (String d : o.dims) {
            StructField f = field(data, d);
            if (f == null) {
                throw new InvalidArgumentException("zarr write to " + path + ": dims names " + d
                        + ", which is not a column; the columns are " + fields.keySet());
            }
            ZarrWriteColumn.Kind k = ZarrWriteColumn.kindOf(path, f.name(), f.dataType());
            if (k == ZarrWriteColumn.Kind.BOOL) {
                throw new InvalidArgumentException("zarr write to " + path + ": the dimension column " + f.name()
                        + " is boolean; dimensions are numbers, timestamps or dates");
            }
            dimFields.add(f);
        }
        List<StructField> varFields = new ArrayList<>();
        for (StructField f : data.schema().fields()) {
            if (!dimFields.contains(f)) {
                ZarrWriteColumn.kindOf(path, f.name(), f.dataType());
                varFields.add(f);
            }
        }
        if (varFields.isEmpty()) {
            throw new InvalidArgumentException("zarr write to " + path + ": every column is a dimension (" + o.dims
                    + "); at least one other column is needed to be a variable");
        }
        for (String c : o.fillValues.keySet()) {
            if (varFields.stream().noneMatch(f -> f.name().equalsIgnoreCase(c))) {
                throw new InvalidArgumentException("zarr write to " + path + ": option fillValue." + c
                        + " names no variable column; the variables are "
                        + varFields.stream().map(StructField::name).toList());
            }
        }

        // One pass over the columns it needs (ZarrWriteScan): the distinct values of each dimension without given
        // coordinates, for each timestamp variable whether every value is whole seconds, whole milliseconds, and for
        // each integer variable without a given fill value its non-null values (with the rows: whether it needs a fill
        // value at all). A dimension column of a plain scan of a Zarr table needs no pass: its distinct values are
        // the source's coordinates (ZarrWriteSource).
        Map<String, Object[]> known = ZarrWriteSource.coordinates(data, dimFields);
        List<Column> scanned = new ArrayList<>();
        List<ZarrWriteColumn.Kind> distinctKinds = new ArrayList<>();
        Map<String, Integer> at = new LinkedHashMap<>();
        for (StructField f : dimFields) {
            if (!o.coords.containsKey(f.name()) && !known.containsKey(f.name())) {
                at.put("set:" + f.name(), distinctKinds.size());
                distinctKinds.add(ZarrWriteColumn.kindOf(path, f.name(), f.dataType()));
                scanned.add(col(quote(f.name())));
            }
        }
        int times = 0;
        for (StructField f : varFields) {
            if (isTimestamp(f.dataType())) {
                at.put("t:" + f.name(), times++);
                scanned.add(col(quote(f.name())));
            }
        }
        int counts = 0;
        for (StructField f : varFields) {
            if (ZarrWriteColumn.kindOf(path, f.name(), f.dataType()).isInteger() && fillGiven(o, f.name()) == null) {
                at.put("n:" + f.name(), counts++);
                scanned.add(col(quote(f.name())));
            }
        }
        Scanned agg = null;
        if (!scanned.isEmpty()) {
            agg = scan(spark, data.select(scanned.toArray(new Column[0])), distinctKinds, times, counts, path);
        }

        List<ZarrWriteCoordinate> dims = new ArrayList<>();
        for (StructField f : dimFields) {
            ZarrWriteColumn.Kind kind = ZarrWriteColumn.kindOf(path, f.name(), f.dataType());
            Object[] values;
            boolean sort;
            if (o.coords.containsKey(f.name())) {
                values = given(spark, path, f, o.coords.get(f.name()));
                sort = false;
            } else if (known.containsKey(f.name())) {
                values = known.get(f.name());
                sort = true;
            } else {
                values = values(agg.keys[at.get("set:" + f.name())], kind);
                sort = true;
            }
            long unit = kind.isTime() ? unitOf(values) : 1;
            dims.add(ZarrWriteCoordinate.of(path, new ZarrWriteColumn(f.name(), kind, null, unit), values, sort));
        }
        long cells = 1;
        for (ZarrWriteCoordinate d : dims) {
            cells *= d.size();
        }
        List<ZarrWriteColumn> vars = new ArrayList<>();
        for (StructField f : varFields) {
            ZarrWriteColumn.Kind kind = ZarrWriteColumn.kindOf(path, f.name(), f.dataType());
            String given = fillGiven(o, f.name());
            long unit = 1;
            if (kind.isTime()) {
                int t = at.get("t:" + f.name());
                unit = agg.seconds[t] ? 1_000_000L : agg.millis[t] ? 1_000L : 1;
            }
            Scalar fill = ZarrWriteColumn.fillOf(path, f.name(), kind, given);
            if (at.containsKey("n:" + f.name()) && agg.nonNull[at.get("n:" + f.name())] == cells && agg.rows == cells) {
                // Every cell gets a value: no fill value, so that readers that mask it (xarray, this source) keep the
                // integer type instead of promoting it to floating point to hold NaN.
                fill = null;
            }
            vars.add(new ZarrWriteColumn(f.name(), kind, fill, unit));
        }
        int widest =
                vars.stream().mapToInt(v -> v.dtype().itemSizeBytes()).max().orElse(8);
        return new ZarrWriteLayout(dims, vars, chunks(dims, o, widest));
    }

    /**
     * The chunk shape: {@code chunks} where it names a dimension; the others, innermost first, as large as keeps a
     * chunk of the widest variable within {@code chunkBytes} (whole while they fit, at least 1).
     */
    static int[] chunks(List<ZarrWriteCoordinate> dims, ZarrWriteOptions o, int itemBytes) {
        int nd = dims.size();
        int[] c = new int[nd];
        long budget = Math.max(1, o.chunkBytes / itemBytes);
        long fixed = 1;
        for (int a = 0; a < nd; a++) {
            Integer given = o.chunks.get(dims.get(a).column.name);
            if (given != null) {
                c[a] = given;
                fixed *= given;
            }
        }
        long left = Math.max(1, budget / fixed);
        for (int a = nd - 1; a >= 0; a--) {
            if (!o.chunks.containsKey(dims.get(a).column.name)) {
                long size = Math.max(1, dims.get(a).size());
                c[a] = (int) Math.max(1, Math.min(Math.min(size, left), Integer.MAX_VALUE));
                left = Math.max(1, left / c[a]);
            }
        }
        long cells = 1;
        for (int v : c) {
            cells *= v;
        }
        if (cells > Integer.MAX_VALUE - 8) {
            throw new InvalidArgumentException("zarr write to " + o.path + ": chunks of " + java.util.Arrays.toString(c)
                    + " hold " + cells + " cells, more than a chunk can (2^31 - 9); give smaller chunks");
        }
        return c;
    }

    private static String fillGiven(ZarrWriteOptions o, String column) {
        String given = null;
        for (Map.Entry<String, String> e : o.fillValues.entrySet()) {
            if (e.getKey().equalsIgnoreCase(column)) {
                given = e.getValue();
            }
        }
        return given;
    }

    /** The coarsest of seconds, milliseconds and microseconds that divides every value (microseconds). */
    private static long unitOf(Object[] values) {
        long unit = 1_000_000L;
        for (Object v : values) {
            long m = ((Number) v).longValue();
            while (unit > 1 && m % unit != 0) {
                unit /= 1000;
            }
        }
        return unit;
    }

    /** The merged statistics of the layout's pass. */
    private static final class Scanned {
        long rows;
        long[][] keys;
        boolean[] seconds;
        boolean[] millis;
        long[] nonNull;
    }

    private static Scanned scan(
            SparkSession spark,
            Dataset<Row> columns,
            List<ZarrWriteColumn.Kind> distinct,
            int times,
            int counts,
            String path) {
        String before = spark.sparkContext().getLocalProperty("spark.job.description");
        spark.sparkContext().setJobDescription("zarr write " + path + ": coordinates");
        List<ZarrWriteScan.Stats> parts;
        try {
            parts = columns.queryExecution()
                    .toRdd()
                    .toJavaRDD()
                    .mapPartitions(new ZarrWriteScan(distinct, times, counts))
                    .collect();
        } finally {
            spark.sparkContext().setJobDescription(before);
        }
        Scanned s = new Scanned();
        int nd = distinct.size();
        ZarrWriteScan.KeySet[] sets = new ZarrWriteScan.KeySet[nd];
        for (int a = 0; a < nd; a++) {
            sets[a] = new ZarrWriteScan.KeySet();
        }
        s.seconds = new boolean[times];
        s.millis = new boolean[times];
        java.util.Arrays.fill(s.seconds, true);
        java.util.Arrays.fill(s.millis, true);
        s.nonNull = new long[counts];
        for (ZarrWriteScan.Stats p : parts) {
            s.rows += p.rows;
            for (int a = 0; a < nd; a++) {
                sets[a].addAll(p.keys[a]);
            }
            for (int t = 0; t < times; t++) {
                s.seconds[t] &= p.seconds[t];
                s.millis[t] &= p.millis[t];
            }
            for (int c = 0; c < counts; c++) {
                s.nonNull[c] += p.nonNull[c];
            }
        }
        s.keys = new long[nd][];
        for (int a = 0; a < nd; a++) {
            s.keys[a] = sets[a].toArray();
        }
        return s;
    }

    /** The values of distinct keys ({@link ZarrWriteIndex} keys) as {@link ZarrWriteCoordinate#of} takes them. */
    private static Object[] values(long[] keys, ZarrWriteColumn.Kind kind) {
        Object[] out = new Object[keys.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = kind.isFloating() ? (Object) ZarrWriteIndex.fromOrderedBits(keys[i]) : (Object) keys[i];
        }
        return out;
    }

    private static boolean isTimestamp(DataType t) {
        return t.equals(DataTypes.TimestampType) || t.equals(DataTypes.TimestampNTZType);
    }

    /** The values of {@code coords.DIM}, cast to the column's type as Spark SQL casts strings. */
    private static Object[] given(SparkSession spark, String path, StructField f, String text) {
        List<String> parts = new ArrayList<>();
        for (String s : text.split(",")) {
            parts.add(s.trim());
        }
        Dataset<Row> cast = spark.createDataset(parts, Encoders.STRING())
                .select(col("value").cast(f.dataType()));
        InternalRow[] rows =
                (InternalRow[]) cast.queryExecution().executedPlan().executeCollect();
        ZarrWriteColumn.Kind kind = ZarrWriteColumn.kindOf(path, f.name(), f.dataType());
        Object[] out = new Object[rows.length];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].isNullAt(0) || parts.get(i).isEmpty()) {
                throw new InvalidArgumentException("zarr write to " + path + ": coords." + f.name() + " gives '"
                        + parts.get(i) + "', which is not a " + f.dataType().simpleString());
            }
            out[i] = value(rows[i], 0, kind);
        }
        return out;
    }

    /** Value {@code i} of {@code g} as the layout collects values of {@code kind}: boxed Long or Double. */
    static Object value(
            org.apache.spark.sql.catalyst.expressions.SpecializedGetters g, int i, ZarrWriteColumn.Kind kind) {
        switch (kind) {
            case INT8:
                return (long) g.getByte(i);
            case INT16:
                return (long) g.getShort(i);
            case INT32:
            case DATE:
                return (long) g.getInt(i);
            case FLOAT32:
                return (double) g.getFloat(i);
            case FLOAT64:
                return g.getDouble(i);
            default:
                return g.getLong(i);
        }
    }

    private static StructField field(Dataset<Row> data, String name) {
        for (StructField f : data.schema().fields()) {
            if (f.name().equalsIgnoreCase(name)) {
                return f;
            }
        }
        return null;
    }

    static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
