package io.cubed.spark.sql;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.RepartitionOperation;
import org.apache.spark.sql.catalyst.plans.logical.ResolvedHint;
import org.apache.spark.sql.catalyst.plans.logical.Sort;
import org.apache.spark.sql.catalyst.plans.logical.SubqueryAlias;
import org.apache.spark.sql.catalyst.plans.logical.UnaryNode;
import org.apache.spark.sql.catalyst.plans.logical.View;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.collection.JavaConverters;

/**
 * The coordinates of a written DataFrame's dimension columns that its plan already knows: when the DataFrame is a
 * plain scan of a Zarr array or group ({@code spark.read.format("zarr")}, with columns selected or renamed, rows
 * repartitioned or sorted, nothing filtered, joined or computed), it has a row for every cell of the source's grid, so
 * the distinct values of a column read from one of the source's dimensions are that dimension's coordinate values,
 * which the source read with its metadata. The write then takes them from there instead of from a pass over every
 * row ({@link ZarrWriteLayout}).
 *
 * <p>Only what is certain: a dimension whose coordinate shows a value as NULL or holds NaN, and any plan with another
 * operator between the scan and the write (a filter keeps some rows only), leave the column to the pass.
 */
final class ZarrWriteSource {
    private ZarrWriteSource() {}

    /**
     * The values of each column of {@code dims} (fields of {@code data}) that the plan of {@code data} gives as a
     * source dimension, by field name: boxed Long (integers, times in microseconds) or Double, as the layout's pass
     * collects them, in the source's order. Empty when the plan is not a plain scan of a Zarr table.
     */
    static Map<String, Object[]> coordinates(Dataset<Row> data, List<StructField> dims) {
        Map<String, Object[]> out = new LinkedHashMap<>();
        LogicalPlan plan = data.queryExecution().analyzed();
        Scan scan = plainScan(plan);
        if (scan == null) {
            return out;
        }
        List<Attribute> output = JavaConverters.seqAsJavaList(plan.output());
        for (StructField f : dims) {
            String source = null;
            int named = 0;
            for (Attribute a : output) {
                if (a.name().equalsIgnoreCase(f.name())) {
                    named++;
                    source = scan.sources().get(a.exprId().id());
                }
            }
            int d = named == 1 && source != null ? scan.dataset().dimIndex(source) : -1;
            if (d < 0) {
                continue; // computed, ambiguous, or a variable of the source rather than one of its dimensions
            }
            Object[] values = values(scan.dataset(), scan.dataset().dims().get(d), f);
            if (values != null) {
                out.put(f.name(), values);
            }
        }
        return out;
    }

    /** A Zarr table under projections: its dataset, and the source column of each output column, by expression id. */
    private record Scan(ZarrDataset dataset, Map<Long, String> sources) {}

    /**
     * The Zarr table {@code plan} scans, with the source column of each output column that is one (kept or renamed);
     * null when {@code plan} is anything but projections, aliases, views, repartitions, sorts and hints over a Zarr
     * table's relation.
     */
    private static Scan plainScan(LogicalPlan plan) {
        if (plan instanceof DataSourceV2Relation r && r.table() instanceof ZarrTable z) {
            Map<Long, String> sources = new HashMap<>();
            for (Attribute a : JavaConverters.seqAsJavaList(r.output())) {
                sources.put(a.exprId().id(), a.name());
            }
            return new Scan(z.dataset(), sources);
        }
        if (plan instanceof SubqueryAlias s) {
            return plainScan(s.child());
        }
        if (plan instanceof View v) {
            return plainScan(v.child()); // a temporary view of the scan (a table of cubed sql)
        }
        if (plan instanceof RepartitionOperation || plan instanceof Sort || plan instanceof ResolvedHint) {
            // The same rows, moved or ordered: the same output attributes as the child's.
            return plainScan(((UnaryNode) plan).child());
        }
        if (plan instanceof Project p) {
            Scan below = plainScan(p.child());
            if (below == null) {
                return null;
            }
            Map<Long, String> sources = new HashMap<>();
            for (NamedExpression e : JavaConverters.seqAsJavaList(p.projectList())) {
                Expression x = e instanceof Alias alias ? alias.child() : (Expression) e;
                if (x instanceof AttributeReference ref
                        && below.sources().containsKey(ref.exprId().id())) {
                    sources.put(
                            e.exprId().id(), below.sources().get(ref.exprId().id()));
                }
            }
            return new Scan(below.dataset(), sources);
        }
        return null;
    }

    /**
     * The values of {@code dim} as the scan shows them in column {@code field}, or null when one of them shows as NULL
     * or is NaN (the pass decides those) or the column's type is not the dimension's.
     */
    private static Object[] values(ZarrDataset dataset, ZarrDataset.Dimension dim, StructField field) {
        if (!field.dataType().equals(dim.sqlType()) || dim.size() > Integer.MAX_VALUE - 8) {
            return null; // another type, or more values than an array holds: the pass says what to do
        }
        int n = (int) dim.size();
        ZarrWriteColumn.Kind kind = ZarrWriteColumn.kindOf(dataset.url(), field.name(), field.dataType());
        Object[] out = new Object[n];
        if (dim.coordinate() == null) {
            for (int i = 0; i < n; i++) {
                out[i] = (long) i; // the index
            }
            return out;
        }
        if (dim.hasNulls(dataset.nanAsNull())) {
            return null;
        }
        // The values exactly as the reader puts them in its column vectors.
        OnHeapColumnVector v = new OnHeapColumnVector(n, dim.sqlType());
        try {
            SqlTypes.copy(dim.coordinate(), 0, v, 0, n, dim.nulls(dataset.nanAsNull()));
            ColumnarBatch batch = new ColumnarBatch(new ColumnVector[] {v}, n);
            for (int i = 0; i < n; i++) {
                InternalRow row = batch.getRow(i);
                Object value = ZarrWriteLayout.value(row, 0, kind);
                if (value instanceof Double d && d.isNaN()) {
                    return null;
                }
                out[i] = value;
            }
        } finally {
            v.close();
        }
        return out;
    }
}
