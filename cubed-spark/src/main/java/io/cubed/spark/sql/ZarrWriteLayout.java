package io.cubed.spark.sql;

import static org.apache.spark.sql.functions.bool_and;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_set;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.unix_micros;

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
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;

/**
 * What a DataFrame becomes in Zarr, decided on the driver before anything is written: the dimension columns and their
 * coordinates (the sorted distinct values, found in one aggregation over the DataFrame, or the values of {@code
 * coords.DIM}), the variables (every other column) with their types and fill values, the chunk shape, and the CF time
 * unit of each timestamp column.
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

        // One aggregation: the distinct values of each dimension without given coordinates, for each timestamp
        // variable whether every value is whole seconds, whole milliseconds, and for each integer variable without a
        // given fill value its non-null values (with the rows: whether it needs a fill value at all).
        List<Column> aggs = new ArrayList<>();
        Map<String, Integer> at = new LinkedHashMap<>();
        for (StructField f : varFields) {
            if (ZarrWriteColumn.kindOf(path, f.name(), f.dataType()).isInteger() && fillGiven(o, f.name()) == null) {
                if (!at.containsKey("rows")) {
                    at.put("rows", aggs.size());
                    aggs.add(count(lit(1)));
                }
                at.put("n:" + f.name(), aggs.size());
                aggs.add(count(col(quote(f.name()))));
            }
        }
        for (StructField f : dimFields) {
            if (!o.coords.containsKey(f.name())) {
                at.put("set:" + f.name(), aggs.size());
                aggs.add(collect_set(col(quote(f.name()))));
            }
        }
        for (StructField f : varFields) {
            if (isTimestamp(f.dataType())) {
                Column micros = unix_micros(col(quote(f.name())).cast(DataTypes.TimestampType));
                at.put("s:" + f.name(), aggs.size());
                aggs.add(bool_and(micros.mod(1_000_000L).equalTo(0)));
                at.put("ms:" + f.name(), aggs.size());
                aggs.add(bool_and(micros.mod(1_000L).equalTo(0)));
            }
        }
        InternalRow agg = null;
        if (!aggs.isEmpty()) {
            Dataset<Row> a = data.agg(aggs.get(0), aggs.subList(1, aggs.size()).toArray(new Column[0]));
            agg = ((InternalRow[]) a.queryExecution().executedPlan().executeCollect())[0];
        }

        List<ZarrWriteCoordinate> dims = new ArrayList<>();
        for (StructField f : dimFields) {
            ZarrWriteColumn.Kind kind = ZarrWriteColumn.kindOf(path, f.name(), f.dataType());
            Object[] values;
            boolean sort;
            if (o.coords.containsKey(f.name())) {
                values = given(spark, path, f, o.coords.get(f.name()));
                sort = false;
            } else {
                values = read(agg.getArray(at.get("set:" + f.name())), kind);
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
            long unit = kind.isTime() ? unit(agg, at, f.name()) : 1;
            Scalar fill = ZarrWriteColumn.fillOf(path, f.name(), kind, given);
            if (at.containsKey("n:" + f.name())
                    && agg.getLong(at.get("n:" + f.name())) == cells
                    && agg.getLong(at.get("rows")) == cells) {
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

    /** The unit of a timestamp variable: seconds when every value is whole seconds, else milliseconds, else µs. */
    private static long unit(InternalRow agg, Map<String, Integer> at, String name) {
        if (isTrue(agg, at.get("s:" + name))) {
            return 1_000_000L;
        }
        return isTrue(agg, at.get("ms:" + name)) ? 1_000L : 1;
    }

    private static boolean isTrue(InternalRow agg, int i) {
        return agg.isNullAt(i) || agg.getBoolean(i);
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

    private static Object[] read(ArrayData a, ZarrWriteColumn.Kind kind) {
        Object[] out = new Object[a.numElements()];
        for (int i = 0; i < out.length; i++) {
            out[i] = value(a, i, kind);
        }
        return out;
    }

    private static Object value(
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
