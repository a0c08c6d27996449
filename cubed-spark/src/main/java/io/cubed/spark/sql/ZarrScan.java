package io.cubed.spark.sql;

import io.cubed.chunk.Chunk;
import io.cubed.grid.ChunkGrid;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.OptionalLong;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A planned read: the units (chunks) the dimension filters keep, grouped into Spark partitions of about the target
 * size, each read by a task that fetches only its units and only the variables the query needs. No shuffle.
 */
final class ZarrScan implements Scan, Batch, SupportsReportStatistics {
    private final ZarrDataset dataset;
    private final ZarrReadOptions options;
    private final StructType readSchema;
    private final BitSet[] masks;
    private final Predicate[] pushed;
    private final ReadColumns columns;

    ZarrScan(ZarrDataset dataset, ZarrReadOptions options, StructType readSchema, BitSet[] masks, Predicate[] pushed) {
        this.dataset = dataset;
        this.options = options;
        this.readSchema = readSchema;
        this.masks = masks;
        this.pushed = pushed;
        this.columns = ReadColumns.of(dataset, readSchema);
    }

    @Override
    public StructType readSchema() {
        return readSchema;
    }

    @Override
    public String description() {
        StringBuilder s = new StringBuilder("ZarrScan ").append(dataset.url()).append(" [");
        for (StructField f : readSchema.fields()) {
            s.append(s.charAt(s.length() - 1) == '[' ? "" : ", ").append(f.name());
        }
        s.append("] units ")
                .append(keptUnits())
                .append(" of ")
                .append(dataset.unitGrid().numChunks());
        if (pushed.length > 0) {
            s.append(", pruned by ").append(Arrays.toString(pushed));
        }
        return s.toString();
    }

    @Override
    public CustomMetric[] supportedCustomMetrics() {
        return ZarrMetrics.supported();
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public Statistics estimateStatistics() {
        long rows = selectedRows();
        long bytes = Math.max(1, rows) * Math.max(1, columns.rowBytes());
        return new Statistics() {
            @Override
            public OptionalLong sizeInBytes() {
                return OptionalLong.of(bytes);
            }

            @Override
            public OptionalLong numRows() {
                return OptionalLong.of(rows);
            }
        };
    }

    /** Rows the dimension filters keep: the product over dimensions of the kept indexes. */
    long selectedRows() {
        long rows = 1;
        for (int d = 0; d < masks.length; d++) {
            long n = masks[d] == null ? dataset.dims().get(d).size() : masks[d].cardinality();
            rows = multiplySaturated(rows, n);
        }
        return rows;
    }

    /** Units (chunks) with at least one kept row. */
    long keptUnits() {
        long n = 1;
        for (List<ZarrInputPartition.Span> s : spans()) {
            n = multiplySaturated(n, s.size());
        }
        return n;
    }

    private static long multiplySaturated(long a, long b) {
        long r = a * b;
        return (a != 0 && (r / a != b || r < 0)) ? Long.MAX_VALUE : r;
    }

    private List<List<ZarrInputPartition.Span>> spans;

    /** Per dimension, the spans of the units that keep at least one index, in order (computed once). */
    private List<List<ZarrInputPartition.Span>> spans() {
        if (spans == null) {
            spans = computeSpans();
        }
        return spans;
    }

    private List<List<ZarrInputPartition.Span>> computeSpans() {
        ChunkGrid grid = dataset.unitGrid();
        int[] cs = grid.chunkShape();
        List<List<ZarrInputPartition.Span>> out = new ArrayList<>();
        for (int d = 0; d < masks.length; d++) {
            ZarrDataset.Dimension dim = dataset.dims().get(d);
            long size = dim.size();
            List<ZarrInputPartition.Span> list = new ArrayList<>();
            for (long lo = 0; lo < size; lo += cs[d]) {
                long hi = Math.min(size, lo + cs[d]);
                long first = lo;
                long last = hi - 1;
                int[] picks = null;
                if (masks[d] != null) {
                    int f = masks[d].nextSetBit((int) lo);
                    if (f < 0 || f >= hi) {
                        continue;
                    }
                    int l = masks[d].previousSetBit((int) hi - 1);
                    first = f;
                    last = l;
                    int count = masks[d].get(f, l + 1).cardinality();
                    if (count != l - f + 1) {
                        picks = new int[count];
                        int k = 0;
                        for (int i = f; i >= 0 && i <= l; i = masks[d].nextSetBit(i + 1)) {
                            picks[k++] = i - f;
                        }
                    }
                }
                int length = (int) (last - first + 1);
                Chunk coords = null;
                if (dim.coordinate() != null) {
                    coords = Chunk.allocate(dim.coordinate().dtype(), length);
                    Chunk.copyRegion(
                            dim.coordinate(), new int[] {(int) first}, coords, new int[] {0}, new int[] {length});
                }
                list.add(new ZarrInputPartition.Span(first, length, picks, coords));
            }
            out.add(list);
        }
        return out;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        List<List<ZarrInputPartition.Span>> spans = spans();
        int nd = spans.size();
        long units = 1;
        for (List<ZarrInputPartition.Span> s : spans) {
            units *= s.size();
        }
        if (units == 0) {
            return new InputPartition[0];
        }
        long rowBytes = Math.max(1, columns.rowBytes());
        long totalBytes = multiplySaturated(selectedRows(), rowBytes);
        long count = Math.min(units, partitionCount(totalBytes));
        List<InputPartition> partitions = new ArrayList<>();
        List<ZarrInputPartition.Span[]> current = new ArrayList<>();
        long doneBytes = 0;
        int[] pos = new int[nd];
        for (long u = 0; u < units; u++) {
            ZarrInputPartition.Span[] unit = new ZarrInputPartition.Span[nd];
            long rows = 1;
            for (int d = 0; d < nd; d++) {
                unit[d] = spans.get(d).get(pos[d]);
                rows *= unit[d].count();
            }
            current.add(unit);
            doneBytes += rows * rowBytes;
            // By size, partition k ends where the units read so far reach (k + 1) / count of the bytes: partitions
            // of equal size, to within one unit.
            boolean full = options.chunksPerPartition() > 0
                    ? current.size() >= options.chunksPerPartition()
                    : doneBytes >= (double) (partitions.size() + 1) * totalBytes / count;
            if (full) {
                partitions.add(new ZarrInputPartition(partitions.size(), current));
                current = new ArrayList<>();
            }
            for (int d = nd - 1; d >= 0; d--) {
                if (++pos[d] < spans.get(d).size()) {
                    break;
                }
                pos[d] = 0;
            }
        }
        if (!current.isEmpty()) {
            partitions.add(new ZarrInputPartition(partitions.size(), current));
        }
        return partitions.toArray(new InputPartition[0]);
    }

    /**
     * How many partitions of equal size {@code totalBytes} of rows make: partitions of at most {@code
     * maxPartitionBytes}, but small enough to give every core of the session a partition when the data is small (never
     * below 4 MB of rows), as Spark's file sources choose them; when there are more partitions than cores, a whole
     * number of waves of them (a multiple of the cores), so that no core reads a last partition alone.
     */
    private long partitionCount(long totalBytes) {
        int parallelism = 1;
        SparkSession session = SparkSession.getActiveSession().getOrElse(() -> null);
        if (session != null) {
            parallelism = Math.max(1, session.sparkContext().defaultParallelism());
        }
        long open = 4L << 20;
        long target = Math.min(options.maxPartitionBytes(), Math.max(open, totalBytes / parallelism));
        long count = Math.max(1, (totalBytes + target - 1) / target);
        if (count > parallelism) {
            count = (count + parallelism - 1) / parallelism * parallelism;
        }
        return count;
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new ZarrReaderFactory(dataset, columns, options.batchRows());
    }
}
