package io.cubed.spark.sql;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The layout's one pass over a DataFrame written as Zarr, over only the columns it needs, in that order: the
 * dimensions without given coordinates (their distinct values, as {@link ZarrWriteIndex} keys, in a primitive hash set
 * tried against the last value first, so that sorted or repeated values cost one compare), the timestamp variables
 * (whether every value is whole seconds, whole milliseconds) and the integer variables without a given fill value
 * (their non-null values). One small {@link Stats} a partition.
 */
final class ZarrWriteScan implements FlatMapFunction<Iterator<InternalRow>, ZarrWriteScan.Stats> {
    private static final long serialVersionUID = 1L;

    private final ZarrWriteColumn.Kind[] distinct;
    private final int times;
    private final int counts;

    ZarrWriteScan(List<ZarrWriteColumn.Kind> distinct, int times, int counts) {
        this.distinct = distinct.toArray(new ZarrWriteColumn.Kind[0]);
        this.times = times;
        this.counts = counts;
    }

    /** What one partition holds. */
    static final class Stats implements Serializable {
        private static final long serialVersionUID = 1L;

        long rows;
        long[][] keys; // distinct keys of each dimension
        boolean[] seconds; // every value of each timestamp variable is whole seconds
        boolean[] millis; // … whole milliseconds
        long[] nonNull; // non-null values of each integer variable
    }

    @Override
    public Iterator<Stats> call(Iterator<InternalRow> rows) {
        int nd = distinct.length;
        KeySet[] sets = new KeySet[nd];
        long[] last = new long[nd];
        boolean[] seen = new boolean[nd];
        for (int a = 0; a < nd; a++) {
            sets[a] = new KeySet();
        }
        Stats s = new Stats();
        s.seconds = new boolean[times];
        s.millis = new boolean[times];
        Arrays.fill(s.seconds, true);
        Arrays.fill(s.millis, true);
        s.nonNull = new long[counts];
        long n = 0;
        while (rows.hasNext()) {
            InternalRow row = rows.next();
            n++;
            for (int a = 0; a < nd; a++) {
                if (row.isNullAt(a)) {
                    continue; // the write names it
                }
                long k = ZarrWriteIndex.key(row, a, distinct[a]);
                if (!seen[a] || k != last[a]) {
                    sets[a].add(k);
                    last[a] = k;
                    seen[a] = true;
                }
            }
            for (int t = 0; t < times; t++) {
                int i = nd + t;
                if (!row.isNullAt(i)) {
                    long micros = row.getLong(i);
                    if (micros % 1_000L != 0) {
                        s.millis[t] = false;
                        s.seconds[t] = false;
                    } else if (micros % 1_000_000L != 0) {
                        s.seconds[t] = false;
                    }
                }
            }
            for (int c = 0; c < counts; c++) {
                if (!row.isNullAt(nd + times + c)) {
                    s.nonNull[c]++;
                }
            }
        }
        s.rows = n;
        s.keys = new long[nd][];
        for (int a = 0; a < nd; a++) {
            s.keys[a] = sets[a].toArray();
        }
        return List.of(s).iterator();
    }

    /** A set of longs: open addressing, linear probing, power-of-two capacity. */
    static final class KeySet {
        private long[] slots = new long[16];
        private boolean[] used = new boolean[16];
        private int size;

        void add(long k) {
            int mask = slots.length - 1;
            int i = mix(k) & mask;
            while (used[i]) {
                if (slots[i] == k) {
                    return;
                }
                i = (i + 1) & mask;
            }
            used[i] = true;
            slots[i] = k;
            if (++size * 2 > slots.length) {
                grow();
            }
        }

        void addAll(long[] ks) {
            for (long k : ks) {
                add(k);
            }
        }

        private void grow() {
            long[] s = slots;
            boolean[] u = used;
            slots = new long[s.length * 2];
            used = new boolean[s.length * 2];
            size = 0;
            for (int i = 0; i < s.length; i++) {
                if (u[i]) {
                    add(s[i]);
                }
            }
        }

        private static int mix(long k) {
            long h = k * 0x9E37_79B9_7F4A_7C15L;
            return (int) (h ^ (h >>> 32));
        }

        long[] toArray() {
            long[] out = new long[size];
            int n = 0;
            for (int i = 0; i < slots.length; i++) {
                if (used[i]) {
                    out[n++] = slots[i];
                }
            }
            return out;
        }
    }
}
