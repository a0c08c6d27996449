package io.cubed.spark.sql;

import io.cubed.chunk.Chunk;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * One chunk of every variable being filled by a write task (or by the merge of its fragments): the variables' buffers,
 * made of the fill value (cells no row gives keep it), and which cells a row gave. A chunk is complete when every
 * cell is given; otherwise its given cells and their values are a <em>fragment</em>, which {@link #fragment} encodes
 * and {@link #merge} adds to another open chunk. Memory: cells × (Σ item sizes + 1/8) bytes.
 */
final class ZarrWriteChunk {
    private static final int MAGIC = 0x5a46_5231; // "ZFR1"

    final long id;
    final long[] coords; // chunk coordinates
    final int[] shape; // cells along each dimension (clipped at the grid's edges)
    final Chunk[] buffers;
    private final long[] given;
    private final int cells;
    private int count;
    long lastUse;

    ZarrWriteChunk(long id, long[] coords, int[] shape, ZarrWriteColumn[] vars) {
        this.id = id;
        this.coords = coords.clone();
        this.shape = shape.clone();
        this.buffers = new Chunk[vars.length];
        for (int v = 0; v < vars.length; v++) {
            buffers[v] = vars[v].fill == null
                    ? Chunk.allocate(vars[v].dtype(), shape)
                    : Chunk.full(vars[v].dtype(), vars[v].fill, shape);
        }
        this.cells = Chunk.elementCount(shape);
        this.given = new long[(cells + 63) >>> 6];
    }

    boolean isComplete() {
        return count == cells;
    }

    int count() {
        return count;
    }

    /** Marks cell {@code offset} given; false when it was given before (two rows for one cell). */
    boolean give(int offset) {
        long bit = 1L << offset;
        int w = offset >>> 6;
        if ((given[w] & bit) != 0) {
            return false;
        }
        given[w] |= bit;
        count++;
        return true;
    }

    /** Sets cell {@code offset} of every variable from columns {@code first}, {@code first + 1}, … of {@code row}. */
    void set(ZarrWriteColumn[] vars, InternalRow row, int first, int offset) {
        for (int v = 0; v < vars.length; v++) {
            if (!row.isNullAt(first + v)) {
                set(buffers[v], vars[v], row, first + v, offset);
            }
        }
    }

    private static void set(Chunk c, ZarrWriteColumn col, InternalRow row, int i, int offset) {
        switch (col.kind) {
            case BOOL:
                c.booleans()[offset] = row.getBoolean(i);
                break;
            case INT8:
                c.bytes()[offset] = row.getByte(i);
                break;
            case INT16:
                c.shorts()[offset] = row.getShort(i);
                break;
            case INT32:
            case DATE:
                c.ints()[offset] = row.getInt(i);
                break;
            case INT64:
                c.longs()[offset] = row.getLong(i);
                break;
            case FLOAT32:
                c.floats()[offset] = row.getFloat(i);
                break;
            case FLOAT64:
                c.doubles()[offset] = row.getDouble(i);
                break;
            default: // timestamps: microseconds, written in the column's unit (which divides every value)
                c.longs()[offset] = row.getLong(i) / col.unitMicros;
                break;
        }
    }

    /**
     * The given cells as a fragment: a header (magic, count), the cells' offsets in the chunk (int32, ascending), then
     * each variable's values of those cells (little-endian, as stored in the chunk).
     */
    byte[] fragment() {
        int itemBytes = 0;
        for (Chunk b : buffers) {
            itemBytes += b.dtype().itemSizeBytes();
        }
        ByteBuffer out = ByteBuffer.allocate(8 + count * (4 + itemBytes)).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(MAGIC).putInt(count);
        int[] offsets = offsets();
        for (int o : offsets) {
            out.putInt(o);
        }
        for (Chunk b : buffers) {
            for (int o : offsets) {
                put(out, b, o);
            }
        }
        return out.array();
    }

    private int[] offsets() {
        int[] out = new int[count];
        int n = 0;
        for (int w = 0; w < given.length; w++) {
            long bits = given[w];
            while (bits != 0) {
                out[n++] = (w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
            }
        }
        return out;
    }

    /**
     * Adds the cells of {@code fragment} (as {@link #fragment} encodes it); returns -1, or the offset of a cell given
     * before (two rows for one cell), leaving the chunk partly merged.
     */
    int merge(byte[] fragment) {
        ByteBuffer in = ByteBuffer.wrap(fragment).order(ByteOrder.LITTLE_ENDIAN);
        if (in.getInt() != MAGIC) {
            throw new IllegalStateException("zarr write: a staged fragment of chunk " + id + " is corrupt");
        }
        int n = in.getInt();
        int[] offsets = new int[n];
        for (int i = 0; i < n; i++) {
            offsets[i] = in.getInt();
            if (!give(offsets[i])) {
                return offsets[i];
            }
        }
        for (Chunk b : buffers) {
            for (int o : offsets) {
                get(in, b, o);
            }
        }
        return -1;
    }

    private static void put(ByteBuffer out, Chunk c, int o) {
        switch (c.dtype()) {
            case BOOL:
                out.put(c.booleans()[o] ? (byte) 1 : 0);
                break;
            case INT8:
                out.put(c.bytes()[o]);
                break;
            case INT16:
                out.putShort(c.shorts()[o]);
                break;
            case INT32:
                out.putInt(c.ints()[o]);
                break;
            case INT64:
                out.putLong(c.longs()[o]);
                break;
            case FLOAT32:
                out.putFloat(c.floats()[o]);
                break;
            default:
                out.putDouble(c.doubles()[o]);
                break;
        }
    }

    private static void get(ByteBuffer in, Chunk c, int o) {
        switch (c.dtype()) {
            case BOOL:
                c.booleans()[o] = in.get() != 0;
                break;
            case INT8:
                c.bytes()[o] = in.get();
                break;
            case INT16:
                c.shorts()[o] = in.getShort();
                break;
            case INT32:
                c.ints()[o] = in.getInt();
                break;
            case INT64:
                c.longs()[o] = in.getLong();
                break;
            case FLOAT32:
                c.floats()[o] = in.getFloat();
                break;
            default:
                c.doubles()[o] = in.getDouble();
                break;
        }
    }
}
