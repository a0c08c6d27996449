package io.cubed.spark.sql;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * Takes the filters on dimension columns (to prune chunks and rows before anything is read) and the columns the query
 * needs (to read only those variables). Spark evaluates every filter again on what is read, so pushdown only ever
 * saves reads.
 */
final class ZarrScanBuilder implements ScanBuilder, SupportsPushDownFilters, SupportsPushDownRequiredColumns {
    private final ZarrDataset dataset;
    private final ZarrReadOptions options;
    private StructType required;
    private Filter[] pushed = new Filter[0];
    private final BitSet[] masks;

    ZarrScanBuilder(ZarrDataset dataset, ZarrReadOptions options) {
        this.dataset = dataset;
        this.options = options;
        this.required = dataset.schema();
        this.masks = new BitSet[dataset.dims().size()];
    }

    @Override
    public Filter[] pushFilters(Filter[] filters) {
        List<Filter> used = new ArrayList<>();
        for (Filter f : filters) {
            boolean constrains = false;
            for (int d = 0; d < masks.length; d++) {
                ZarrDataset.Dimension dim = dataset.dims().get(d);
                BitSet m = DimensionFilters.mask(f, dim.name(), dim.size(), dim.coordinate());
                if (m == null) {
                    continue;
                }
                constrains = true;
                if (masks[d] == null) {
                    masks[d] = m;
                } else {
                    masks[d].and(m);
                }
            }
            if (constrains) {
                used.add(f);
            }
        }
        pushed = used.toArray(new Filter[0]);
        // Everything is evaluated again after the scan: pruning is by whole index, and a filter may involve more.
        return filters;
    }

    @Override
    public Filter[] pushedFilters() {
        return pushed.clone();
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        this.required = requiredSchema;
    }

    @Override
    public Scan build() {
        return new ZarrScan(dataset, options, required, masks.clone(), pushed.clone());
    }
}
