package io.cubed.spark.sql;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Makes the readers of a scan's partitions on the executors: columnar batches, or rows taken from them. */
final class ZarrReaderFactory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;

    private final ZarrDataset dataset;
    private final ReadColumns columns;
    private final int batchRows;

    ZarrReaderFactory(ZarrDataset dataset, ReadColumns columns, int batchRows) {
        this.dataset = dataset;
        this.columns = columns;
        this.batchRows = batchRows;
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return true;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        return new ZarrPartitionReader(dataset, columns, (ZarrInputPartition) partition, batchRows);
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        ZarrPartitionReader batches =
                new ZarrPartitionReader(dataset, columns, (ZarrInputPartition) partition, batchRows);
        return new PartitionReader<>() {
            private java.util.Iterator<InternalRow> rows = java.util.Collections.emptyIterator();
            private InternalRow current;

            @Override
            public boolean next() {
                while (!rows.hasNext()) {
                    if (!batches.next()) {
                        return false;
                    }
                    rows = batches.get().rowIterator();
                }
                current = rows.next().copy();
                return true;
            }

            @Override
            public InternalRow get() {
                return current;
            }

            @Override
            public org.apache.spark.sql.connector.metric.CustomTaskMetric[] currentMetricsValues() {
                return batches.currentMetricsValues();
            }

            @Override
            public void close() {
                batches.close();
            }
        };
    }
}
