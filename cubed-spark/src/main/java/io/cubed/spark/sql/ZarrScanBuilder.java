package io.cubed.spark.sql;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;

/**
 * Takes the predicates on dimension columns (to prune chunks and rows before anything is read) and the columns the
 * query needs (to read only those variables). Predicates come in Spark's V2 form, which keeps the casts Spark puts
 * around a column (a {@code timestamp_ntz} column compared with a {@code TIMESTAMP} literal), so that those prune
 * too. Spark evaluates every predicate again on what is read, so pushdown only ever saves reads.
 */
final class ZarrScanBuilder implements ScanBuilder, SupportsPushDownV2Filters, SupportsPushDownRequiredColumns {
    private final ZarrDataset dataset;
    private final ZarrReadOptions options;
    private StructType required;
    private Predicate[] pushed = new Predicate[0];
    private final BitSet[] masks;

    ZarrScanBuilder(ZarrDataset dataset, ZarrReadOptions options) {
        this.dataset = dataset;
        this.options = options;
        this.required = dataset.schema();
        this.masks = new BitSet[dataset.dims().size()];
    }

    @Override
    public Predicate[] pushPredicates(Predicate[] predicates) {
        ZoneId zone = DateTimeUtils.getZoneId(SQLConf.get().sessionLocalTimeZone());
        DimensionFilters.Values[] values = new DimensionFilters.Values[masks.length];
        List<Predicate> used = new ArrayList<>();
        for (Predicate p : predicates) {
            boolean constrains = false;
            for (int d = 0; d < masks.length; d++) {
                if (values[d] == null) {
                    values[d] = DimensionFilters.Values.of(dataset.dims().get(d), dataset.nanAsNull());
                }
                BitSet m = DimensionFilters.mask(p, values[d], zone);
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
                used.add(p);
            }
        }
        pushed = used.toArray(new Predicate[0]);
        // Everything is evaluated again after the scan: pruning is by whole index, and a predicate may involve more.
        return predicates;
    }

    @Override
    public Predicate[] pushedPredicates() {
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
