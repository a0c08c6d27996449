package io.cubed.spark.sql;

import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * The scan's SQL metrics, shown on the scan node in Spark's UI and summed over tasks: chunk reads (one per unit and
 * variable read; pruned units and unused variables are never read) and the bytes of the values taken from them (the
 * bounding box of the kept rows of each chunk).
 */
final class ZarrMetrics {
    static final String CHUNKS_READ = "chunksRead";
    static final String BYTES_READ = "valueBytesRead";

    private ZarrMetrics() {}

    static CustomMetric[] supported() {
        return new CustomMetric[] {new ChunksRead(), new BytesRead()};
    }

    static CustomTaskMetric value(String name, long value) {
        return new CustomTaskMetric() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public long value() {
                return value;
            }
        };
    }

    /** Units (chunks, or inner chunks of shards) read, one per variable. */
    public static final class ChunksRead extends CustomSumMetric {
        @Override
        public String name() {
            return CHUNKS_READ;
        }

        @Override
        public String description() {
            return "zarr chunks read";
        }
    }

    /** Bytes of the decoded values taken from the chunks read: the bounding box of each chunk's kept rows. */
    public static final class BytesRead extends CustomSumMetric {
        @Override
        public String name() {
            return BYTES_READ;
        }

        @Override
        public String description() {
            return "zarr value bytes read";
        }
    }
}
