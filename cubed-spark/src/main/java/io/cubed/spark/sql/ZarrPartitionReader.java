package io.cubed.spark.sql;

import io.cubed.chunk.Chunk;
import io.cubed.error.StorageException;
import io.cubed.spark.sql.ZarrInputPartition.Span;
import io.cubed.storage.ChunkIo;
import io.cubed.storage.zarr.cf.CfDecoding;
import java.util.List;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads one partition's units in order: for each unit, the box of every needed variable (one region read: the whole
 * chunk on Zarr v2, only the inner chunks touched on a sharded array), then emits the kept rows in C order as columnar
 * batches of up to {@code batchRows} rows, CF-decoding the stored values of each run as it copies it. Memory: one box
 * per variable (stored values), one batch, a batch of decoded values per decoded column, and, on stores that serve many
 * requests at once (object stores), at most {@value #MAX_IO_BYTES} bytes of the next units' chunks read ahead while
 * this unit's rows are emitted ({@link ChunkIo}).
 */
final class ZarrPartitionReader implements PartitionReader<ColumnarBatch> {
    private final ReadColumns columns;
    private final List<Span[]> units;
    private final int batchRows;
    private final WritableColumnVector[] vectors;
    private final ColumnarBatch batch;
    private final String partitionName;
    /** The reads of the next units kept in flight, or null when every variable is read on this thread. */
    private final ChunkIo io;

    /** The most a reader holds in chunks read ahead. */
    static final long MAX_IO_BYTES = 64L << 20;

    private int unit = -1;
    /** The first unit whose reads have not been started ahead. */
    private int aheadUnit;

    private Span[] spans;
    /** The stored values of each variable column's box (shared by columns of the same variable). */
    private Chunk[] boxes;
    /** Per column, a batch of decoded values (null where the column's values need no decoding). */
    private final Chunk[] decoded;
    /** The positions of the missing values of a decoded run. */
    private final int[] missing;

    private int[] strides;
    /**
     * Whether every span of the unit keeps its whole range, so that consecutive rows are consecutive elements of each
     * box and a batch's values of a variable are one run.
     */
    private boolean contiguous;

    private int[] pos;
    private long rowsLeft;
    private long chunksRead;
    private long bytesRead;

    ZarrPartitionReader(ZarrDataset dataset, ReadColumns columns, ZarrInputPartition partition, int batchRows) {
        this.columns = columns;
        this.units = partition.units();
        this.batchRows = batchRows;
        StructField[] fields = new StructField[columns.columns().size()];
        for (int i = 0; i < fields.length; i++) {
            ReadColumns.Column c = columns.columns().get(i);
            fields[i] = new StructField(c.name(), c.type(), false, org.apache.spark.sql.types.Metadata.empty());
        }
        this.vectors = OnHeapColumnVector.allocateColumns(batchRows, new StructType(fields));
        this.decoded = new Chunk[fields.length];
        this.missing = new int[batchRows];
        for (int i = 0; i < fields.length; i++) {
            ReadColumns.Column c = columns.columns().get(i);
            if (c.variable() != null && !c.variable().cf().isIdentity()) {
                decoded[i] = Chunk.allocate(c.variable().cf().dtype(), batchRows);
            }
        }
        this.batch = new ColumnarBatch(vectors);
        this.partitionName = dataset.url() + " partition " + partition.index();
        dataset.requireInputs(partitionName);
        long wanted = 0;
        for (ReadColumns.Column c : columns.columns()) {
            if (c.variable() != null) {
                io.cubed.storage.ChunkStore array = c.variable().array();
                // Units are stored chunks, or inner chunks of shards read with ranged reads.
                wanted = Math.max(wanted, array.regionInFlightBytes(array.readableChunkShape()));
            }
        }
        this.io = wanted > 0 ? new ChunkIo(Math.min(wanted, MAX_IO_BYTES)) : null;
    }

    /** Starts reading ahead the chunks of the current unit and the next ones, while the slot has room. */
    private void readAhead() {
        for (int u = aheadUnit; u < units.size() && io.hasRoom(); u++) {
            Span[] s = units.get(u);
            io.readAheadFor(u, () -> {
                java.util.Set<io.cubed.storage.ChunkStore> named =
                        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
                for (ReadColumns.Column c : columns.columns()) {
                    if (c.variable() != null && named.add(c.variable().array())) {
                        readAhead(c.variable().array(), s);
                    }
                }
            });
            aheadUnit = u + 1;
        }
    }

    /**
     * Starts reading what {@link #open} will read of {@code array} for the box of {@code spans}: the stored chunks it
     * overlaps, or a sharded array's inner chunks in it ({@link io.cubed.storage.ChunkStore#readRegionAhead}).
     */
    private static void readAhead(io.cubed.storage.ChunkStore array, Span[] s) {
        int nd = s.length;
        long[] offset = new long[nd];
        int[] shape = new int[nd];
        for (int d = 0; d < nd; d++) {
            offset[d] = s[d].start();
            shape[d] = s[d].length();
        }
        array.readRegionAhead(offset, shape);
    }

    @Override
    public boolean next() {
        while (rowsLeft == 0) {
            if (unit >= 0 && io != null) {
                io.finishTask(unit);
            }
            if (++unit >= units.size()) {
                return false;
            }
            if (io == null) {
                open(units.get(unit));
            } else {
                try (ChunkIo.Binding bound = io.bind()) {
                    aheadUnit = Math.max(aheadUnit, unit);
                    readAhead();
                    open(units.get(unit));
                }
            }
        }
        for (WritableColumnVector v : vectors) {
            v.reset();
        }
        int n = (int) Math.min(batchRows, rowsLeft);
        fill(n);
        batch.setNumRows(n);
        rowsLeft -= n;
        return true;
    }

    @Override
    public ColumnarBatch get() {
        return batch;
    }

    @Override
    public CustomTaskMetric[] currentMetricsValues() {
        return new CustomTaskMetric[] {
            ZarrMetrics.value(ZarrMetrics.CHUNKS_READ, chunksRead), ZarrMetrics.value(ZarrMetrics.BYTES_READ, bytesRead)
        };
    }

    @Override
    public void close() {
        if (io != null) {
            for (int u = Math.max(0, unit); u < aheadUnit; u++) {
                io.finishTask(u);
            }
        }
        batch.close();
    }

    /** Reads the boxes of the unit and rewinds the row position. */
    private void open(Span[] unitSpans) {
        spans = unitSpans;
        int nd = spans.length;
        long[] offset = new long[nd];
        int[] shape = new int[nd];
        long rows = 1;
        for (int d = 0; d < nd; d++) {
            offset[d] = spans[d].start();
            shape[d] = spans[d].length();
            rows *= spans[d].count();
        }
        strides = Chunk.strides(shape);
        boxes = new Chunk[columns.columns().size()];
        for (int i = 0; i < boxes.length; i++) {
            ReadColumns.Column c = columns.columns().get(i);
            if (c.variable() == null) {
                continue;
            }
            // The same variable asked for twice is read once.
            for (int j = 0; j < i; j++) {
                if (columns.columns().get(j).variable() == c.variable()) {
                    boxes[i] = boxes[j];
                }
            }
            if (boxes[i] == null) {
                try {
                    boxes[i] = c.variable().array().readRegion(offset, shape);
                    chunksRead++;
                    bytesRead += boxes[i].nbytes();
                } catch (RuntimeException e) {
                    throw new StorageException(
                            "zarr data source: reading " + c.variable().array().url() + " at "
                                    + java.util.Arrays.toString(offset) + " (" + partitionName + "): " + e.getMessage(),
                            e);
                }
            }
        }
        pos = new int[nd];
        rowsLeft = rows;
        contiguous = true;
        for (Span sp : spans) {
            contiguous &= sp.picks() == null;
        }
    }

    /**
     * Fills {@code n} rows from the current position, a run along the last dimension at a time: variables copy a run in
     * bulk when the last dimension keeps a contiguous range (the whole batch in one run when every dimension keeps
     * its whole range), dimension columns other than the last are constant along a run.
     */
    private void fill(int n) {
        int nd = spans.length;
        boolean variablesDone = false;
        if (nd > 0 && contiguous) {
            // The batch's values of each variable in one run: one call to copy or decode them, not one per row of
            // the last dimension.
            int flat = 0;
            for (int d = 0; d < nd; d++) {
                flat += pos[d] * strides[d];
            }
            for (int i = 0; i < vectors.length; i++) {
                if (columns.columns().get(i).variable() != null) {
                    copyRun(i, flat, 0, n);
                }
            }
            variablesDone = true;
        }
        int row = 0;
        while (row < n) {
            if (nd == 0) {
                fillScalarRow(row);
                row++;
                continue;
            }
            int last = nd - 1;
            int run = Math.min(n - row, spans[last].count() - pos[last]);
            int base = 0;
            for (int d = 0; d < last; d++) {
                base += spans[d].local(pos[d]) * strides[d];
            }
            for (int i = 0; i < vectors.length; i++) {
                ReadColumns.Column c = columns.columns().get(i);
                WritableColumnVector v = vectors[i];
                if (c.variable() != null) {
                    if (variablesDone) {
                        continue;
                    }
                    Chunk box = boxes[i];
                    Chunk out = decoded[i];
                    if (spans[last].picks() == null) {
                        copyRun(i, base + pos[last], row, run);
                    } else {
                        for (int k = 0; k < run; k++) {
                            int flat = base + spans[last].local(pos[last] + k);
                            if (out == null) {
                                SqlTypes.put(box, flat, v, row + k, c.nulls());
                            } else {
                                c.variable().cf().decodeRun(box, flat, out.data(), k, 1);
                                SqlTypes.put(out, k, v, row + k, c.nulls());
                            }
                        }
                    }
                } else if (c.dim() < last) {
                    Span s = spans[c.dim()];
                    int local = s.local(pos[c.dim()]);
                    if (s.coordinates() == null) {
                        v.putLongs(row, run, s.start() + local);
                    } else {
                        SqlTypes.fill(s.coordinates(), local, v, row, run, c.nulls());
                    }
                } else {
                    Span s = spans[last];
                    for (int k = 0; k < run; k++) {
                        int local = s.local(pos[last] + k);
                        if (s.coordinates() == null) {
                            v.putLong(row + k, s.start() + local);
                        } else {
                            SqlTypes.put(s.coordinates(), local, v, row + k, c.nulls());
                        }
                    }
                }
            }
            row += run;
            pos[last] += run;
            if (pos[last] == spans[last].count()) {
                for (int d = last; d >= 0; d--) {
                    if (pos[d] < spans[d].count()) {
                        break;
                    }
                    pos[d] = 0;
                    if (d > 0) {
                        pos[d - 1]++;
                    }
                }
            }
        }
    }

    /**
     * Copies {@code run} values of variable column {@code i} from element {@code from} of its box into its vector at
     * {@code row}: straight, or decoded into a batch-sized buffer that stays in cache, the decoding saying where the
     * missing values are.
     */
    private void copyRun(int i, int from, int row, int run) {
        ReadColumns.Column c = columns.columns().get(i);
        WritableColumnVector v = vectors[i];
        Chunk out = decoded[i];
        if (out == null) {
            SqlTypes.copy(boxes[i], from, v, row, run);
            if (c.nulls() != SqlTypes.Nulls.NONE) {
                // NaN (or NaT) read as stored, to NULL: found by the decoding's search, vectorized for float32.
                int k = CfDecoding.missing(boxes[i].data(), from, run, missing);
                for (int j = 0; j < k; j++) {
                    v.putNull(row + missing[j] - from);
                }
            }
            return;
        }
        int k = c.variable().cf().decodeRun(boxes[i], from, out.data(), 0, run, missing);
        SqlTypes.copy(out, 0, v, row, run);
        if (c.nulls() != SqlTypes.Nulls.NONE) {
            for (int j = 0; j < k; j++) {
                v.putNull(row + missing[j]);
            }
        }
    }

    /** A 0-d array: one row of its variables. */
    private void fillScalarRow(int row) {
        for (int i = 0; i < vectors.length; i++) {
            Chunk values = boxes[i];
            if (decoded[i] != null) {
                columns.columns().get(i).variable().cf().decodeRun(values, 0, decoded[i].data(), 0, 1);
                values = decoded[i];
            }
            SqlTypes.put(values, 0, vectors[i], row, columns.columns().get(i).nulls());
        }
    }
}
