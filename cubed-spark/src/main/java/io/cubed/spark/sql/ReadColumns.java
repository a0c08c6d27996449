package io.cubed.spark.sql;

import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** The columns a scan emits, in order: each a dimension (by index) or a variable. */
record ReadColumns(List<Column> columns) implements Serializable {
    /**
     * One output column: {@code dim >= 0} for a dimension column, else {@code variable}; {@code nulls} says which of
     * its decoded values show as NULL.
     */
    record Column(String name, DataType type, int dim, ZarrDataset.Variable variable, SqlTypes.Nulls nulls)
            implements Serializable {}

    static ReadColumns of(ZarrDataset dataset, StructType schema) {
        List<Column> out = new ArrayList<>();
        for (StructField f : schema.fields()) {
            int d = dataset.dimIndex(f.name());
            if (d >= 0) {
                out.add(new Column(
                        f.name(), f.dataType(), d, null, dataset.dims().get(d).nulls(dataset.nanAsNull())));
                continue;
            }
            ZarrDataset.Variable v = dataset.variable(f.name());
            if (v == null) {
                throw new InvalidArgumentException("zarr data source: no column '" + f.name() + "' in " + dataset.url()
                        + "; its columns are " + List.of(dataset.schema().fieldNames()));
            }
            out.add(new Column(f.name(), f.dataType(), -1, v, SqlTypes.Nulls.of(v.cf(), dataset.nanAsNull())));
        }
        return new ReadColumns(List.copyOf(out));
    }

    /** Bytes of one row's values. */
    long rowBytes() {
        long n = 0;
        for (Column c : columns) {
            n += c.type().defaultSize();
        }
        return n;
    }
}
