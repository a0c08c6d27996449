package io.cubed.spark.sql;

import io.cubed.chunk.Chunk;
import java.math.BigDecimal;
import java.util.BitSet;
import org.apache.spark.sql.sources.AlwaysFalse;
import org.apache.spark.sql.sources.AlwaysTrue;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.IsNotNull;
import org.apache.spark.sql.sources.IsNull;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Not;
import org.apache.spark.sql.sources.Or;

/**
 * Which indexes along one dimension a pushed filter can keep. The answer is a superset of the rows the filter keeps
 * (Spark evaluates every filter again on the rows read), so any filter this class does not understand, or that involves
 * other columns, keeps every index: pruning never drops a row the query needs. Comparisons follow Spark SQL: values of
 * integer coordinates (and dimension indexes) compare exactly as longs, others as doubles with NaN greater than every
 * number and equal to itself, and -0.0 equal to 0.0.
 */
final class DimensionFilters {
    private DimensionFilters() {}

    /**
     * The indexes of dimension {@code dim} (column {@code column}, length {@code size}, {@code coordinate} values or
     * null for the index itself) that {@code filter} may keep, or null when it constrains nothing along it.
     */
    static BitSet mask(Filter filter, String column, long size, Chunk coordinate) {
        int n = Math.toIntExact(size);
        if (filter instanceof And a) {
            BitSet l = mask(a.left(), column, size, coordinate);
            BitSet r = mask(a.right(), column, size, coordinate);
            if (l == null) {
                return r;
            }
            if (r != null) {
                l.and(r);
            }
            return l;
        }
        if (filter instanceof Or o) {
            BitSet l = mask(o.left(), column, size, coordinate);
            BitSet r = mask(o.right(), column, size, coordinate);
            if (l == null || r == null) {
                return null;
            }
            l.or(r);
            return l;
        }
        if (filter instanceof Not not) {
            if (!onlyOn(not.child(), column)) {
                return null;
            }
            BitSet c = mask(not.child(), column, size, coordinate);
            if (c == null) {
                return null;
            }
            c.flip(0, n);
            return c;
        }
        if (filter instanceof AlwaysFalse) {
            return new BitSet();
        }
        if (filter instanceof AlwaysTrue) {
            return null;
        }
        String[] refs = filter.references();
        if (refs.length != 1 || !refs[0].equals(column)) {
            return null;
        }
        if (filter instanceof IsNull) {
            return new BitSet();
        }
        if (filter instanceof IsNotNull) {
            return all(n);
        }
        if (filter instanceof In in) {
            BitSet out = new BitSet();
            for (Object v : in.values()) {
                BitSet one = compare(n, coordinate, v, 0);
                if (one == null) {
                    return null;
                }
                out.or(one);
            }
            return out;
        }
        if (filter instanceof EqualTo e) {
            return compare(n, coordinate, e.value(), 0);
        }
        if (filter instanceof EqualNullSafe e) {
            return compare(n, coordinate, e.value(), 0);
        }
        if (filter instanceof LessThan f) {
            return compare(n, coordinate, f.value(), -2);
        }
        if (filter instanceof LessThanOrEqual f) {
            return compare(n, coordinate, f.value(), -1);
        }
        if (filter instanceof GreaterThan f) {
            return compare(n, coordinate, f.value(), 2);
        }
        if (filter instanceof GreaterThanOrEqual f) {
            return compare(n, coordinate, f.value(), 1);
        }
        return null;
    }

    /** True when every column {@code filter} reads is {@code column}. */
    private static boolean onlyOn(Filter filter, String column) {
        for (String r : filter.references()) {
            if (!r.equals(column)) {
                return false;
            }
        }
        return true;
    }

    private static BitSet all(int n) {
        BitSet b = new BitSet(n);
        b.set(0, n);
        return b;
    }

    /**
     * The indexes whose value {@code v} relates to {@code literal} as {@code op} asks: 0 equal, -2 less, -1 less or
     * equal, 2 greater, 1 greater or equal; null when the literal is not a number (no pruning).
     */
    private static BitSet compare(int n, Chunk coordinate, Object literal, int op) {
        if (literal == null) {
            // Comparisons with NULL are never true (EqualNullSafe with NULL: dimension values are never null).
            return new BitSet();
        }
        if (coordinate != null && coordinate.dtype() == io.cubed.dtype.DType.UINT64) {
            return null; // values above 2^63 compare neither as longs nor exactly as doubles: no pruning
        }
        boolean integral = coordinate == null || !coordinate.dtype().isFloating();
        BitSet out = new BitSet(n);
        if (integral && isIntegral(literal)) {
            long x = ((Number) literal).longValue();
            for (int i = 0; i < n; i++) {
                long v = coordinate == null ? i : coordinate.getLong(i);
                if (holds(Long.compare(v, x), op)) {
                    out.set(i);
                }
            }
            return out;
        }
        if (!(literal instanceof Number)) {
            return null;
        }
        double x = ((Number) literal).doubleValue();
        if (literal instanceof BigDecimal b && new BigDecimal(x).compareTo(b) != 0) {
            // A decimal literal between two doubles: compare against the bracketing doubles conservatively.
            return null;
        }
        for (int i = 0; i < n; i++) {
            double v = coordinate == null ? i : coordinate.getDouble(i);
            if (holds(sqlCompare(v, x), op)) {
                out.set(i);
            }
        }
        return out;
    }

    private static boolean isIntegral(Object o) {
        if (o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte) {
            return true;
        }
        if (o instanceof BigDecimal b) {
            try {
                b.longValueExact();
                return true;
            } catch (ArithmeticException e) {
                return false;
            }
        }
        return false;
    }

    /** Spark SQL's order of doubles: NaN above everything and equal to itself, -0.0 equal to 0.0. */
    static int sqlCompare(double a, double b) {
        if (a == b) {
            return 0;
        }
        return Double.compare(a, b);
    }

    private static boolean holds(int cmp, int op) {
        switch (op) {
            case 0:
                return cmp == 0;
            case -2:
                return cmp < 0;
            case -1:
                return cmp <= 0;
            case 2:
                return cmp > 0;
            case 1:
                return cmp >= 0;
            default:
                throw new AssertionError(op);
        }
    }
}
