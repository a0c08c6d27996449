package io.cubed.spark.sql;

import io.cubed.chunk.Chunk;
import java.math.BigDecimal;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.BitSet;
import org.apache.spark.sql.catalyst.util.DateTimeUtils;
import org.apache.spark.sql.connector.expressions.Cast;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;

/**
 * Which indexes along one dimension a pushed predicate can keep, evaluated on the dimension's values as Spark would
 * evaluate it on the rows. The answer is a superset of the rows the predicate keeps (Spark evaluates every predicate
 * again on the rows read), so a predicate this class does not understand, or that involves other columns, keeps every
 * index: pruning never drops a row the query needs. It understands comparisons ({@code =}, {@code <>}, {@code <},
 * {@code <=}, {@code >}, {@code >=}, {@code <=>}, {@code IN}), {@code IS [NOT] NULL}, {@code AND}, {@code OR} and
 * {@code NOT} of the column, or of the column cast as Spark casts it to compare it with a literal of another type:
 * a {@code timestamp_ntz} column cast to {@code timestamp} in the session time zone ({@code time BETWEEN TIMESTAMP
 * '…' AND TIMESTAMP '…'}), an integer or float column widened. Values compare as Spark SQL compares them: integers,
 * timestamps and dimension indexes exactly as longs, floating values as doubles with NaN above every number and
 * {@code -0.0 = 0.0}; a NULL value (NaN read as NULL, a missing time) satisfies no comparison.
 */
final class DimensionFilters {
    private DimensionFilters() {}

    /** The values of one dimension column as predicates see them: longs or doubles, and which are NULL. */
    record Values(String column, int size, DataType type, long[] longs, double[] doubles, BitSet nulls) {
        /** The values of {@code dim} as the scan emits them (NaN as NULL when {@code nanAsNull}). */
        static Values of(ZarrDataset.Dimension dim, boolean nanAsNull) {
            int n = Math.toIntExact(dim.size());
            Chunk c = dim.coordinate();
            DataType type = dim.sqlType();
            BitSet nulls = new BitSet(n);
            if (c == null) {
                long[] index = new long[n];
                for (int i = 0; i < n; i++) {
                    index[i] = i;
                }
                return new Values(dim.name(), n, type, index, null, nulls);
            }
            SqlTypes.Nulls rule = dim.nulls(nanAsNull);
            for (int i = 0; i < n; i++) {
                if (rule.isNull(c, i)) {
                    nulls.set(i);
                }
            }
            if (type instanceof FloatType || type instanceof DoubleType) {
                double[] d = new double[n];
                for (int i = 0; i < n; i++) {
                    d[i] = c.getDouble(i);
                }
                return new Values(dim.name(), n, type, null, d, nulls);
            }
            if (isIntegral(type) || isTimestamp(type)) {
                long[] l = new long[n];
                for (int i = 0; i < n; i++) {
                    l[i] = c.getLong(i);
                }
                return new Values(dim.name(), n, type, l, null, nulls);
            }
            // uint64 (decimal) and bool coordinates: no pruning.
            return new Values(dim.name(), n, type, null, null, nulls);
        }
    }

    /**
     * The indexes of the dimension with {@code values} that {@code predicate} may keep, or null when it constrains
     * nothing along it; {@code zone} is the session time zone (for casts of {@code timestamp_ntz} to {@code
     * timestamp}).
     */
    static BitSet mask(Predicate predicate, Values values, ZoneId zone) {
        int n = values.size();
        Expression[] args = predicate.children();
        switch (predicate.name()) {
            case "AND": {
                BitSet l = mask((Predicate) args[0], values, zone);
                BitSet r = mask((Predicate) args[1], values, zone);
                if (l == null) {
                    return r;
                }
                if (r != null) {
                    l.and(r);
                }
                return l;
            }
            case "OR": {
                BitSet l = mask((Predicate) args[0], values, zone);
                BitSet r = mask((Predicate) args[1], values, zone);
                if (l == null || r == null) {
                    return null;
                }
                l.or(r);
                return l;
            }
            case "NOT": {
                // The complement is exact only when the child's mask is: a predicate of this column alone. Where the
                // child is NULL, so is NOT: keeping those indexes only costs reads.
                if (!onlyOn(args[0], values.column())) {
                    return null;
                }
                BitSet c = mask((Predicate) args[0], values, zone);
                if (c == null) {
                    return null;
                }
                c.flip(0, n);
                return c;
            }
            case "ALWAYS_FALSE":
                return new BitSet();
            case "ALWAYS_TRUE":
                return null;
            case "IS_NULL":
            case "IS_NOT_NULL": {
                Values v = evaluate(args[0], values, zone);
                if (v == null) {
                    return null;
                }
                BitSet out = (BitSet) v.nulls().clone();
                if (predicate.name().equals("IS_NOT_NULL")) {
                    out.flip(0, n);
                }
                return out;
            }
            case "IN": {
                Values v = evaluate(args[0], values, zone);
                if (v == null) {
                    return null;
                }
                BitSet out = new BitSet();
                for (int i = 1; i < args.length; i++) {
                    if (!(args[i] instanceof Literal<?> lit)) {
                        return null;
                    }
                    if (lit.value() == null) {
                        continue; // x IN (…, NULL) is never true because of the NULL
                    }
                    BitSet one = compare(v, lit, "=");
                    if (one == null) {
                        return null;
                    }
                    out.or(one);
                }
                return out;
            }
            case "=":
            case "<>":
            case "<=>":
            case "<":
            case "<=":
            case ">":
            case ">=": {
                if (args.length != 2) {
                    return null;
                }
                String op = predicate.name();
                Expression column = args[0];
                Expression other = args[1];
                if (args[0] instanceof Literal<?>) {
                    column = args[1];
                    other = args[0];
                    op = flip(op);
                }
                if (!(other instanceof Literal<?> lit)) {
                    return null;
                }
                Values v = evaluate(column, values, zone);
                if (v == null) {
                    return null;
                }
                if (lit.value() == null) {
                    // Comparisons with NULL are never true; NULL <=> NULL is.
                    return op.equals("<=>") ? (BitSet) v.nulls().clone() : new BitSet();
                }
                return compare(v, lit, op);
            }
            default:
                return null;
        }
    }

    /** The operator with its operands swapped: {@code 3 < x} is {@code x > 3}. */
    private static String flip(String op) {
        switch (op) {
            case "<":
                return ">";
            case "<=":
                return ">=";
            case ">":
                return "<";
            case ">=":
                return "<=";
            default:
                return op;
        }
    }

    /** True when every column {@code e} reads is {@code column}. */
    private static boolean onlyOn(Expression e, String column) {
        for (NamedReference r : e.references()) {
            String[] names = r.fieldNames();
            if (names.length != 1 || !names[0].equals(column)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The values of {@code e} at every index, when {@code e} is the dimension's column or a cast of it this class
     * evaluates as Spark does; else null.
     */
    private static Values evaluate(Expression e, Values base, ZoneId zone) {
        if (e instanceof NamedReference r) {
            String[] names = r.fieldNames();
            return names.length == 1 && names[0].equals(base.column()) ? base : null;
        }
        if (!(e instanceof Cast cast)) {
            return null;
        }
        Values in = evaluate(cast.expression(), base, zone);
        if (in == null) {
            return null;
        }
        DataType from = in.type();
        DataType to = cast.dataType();
        if (from.equals(to)) {
            return in;
        }
        int n = in.size();
        if (from instanceof TimestampNTZType && to instanceof TimestampType) {
            // Spark's cast: the wall-clock time in the session time zone.
            long[] out = new long[n];
            for (int i = 0; i < n; i++) {
                out[i] = in.nulls().get(i) ? 0 : DateTimeUtils.convertTz(in.longs()[i], zone, ZoneOffset.UTC);
            }
            return new Values(in.column(), n, to, out, null, in.nulls());
        }
        if (isIntegral(from) && in.longs() != null) {
            if (to instanceof LongType || (to instanceof IntegerType && !(from instanceof LongType))) {
                return new Values(in.column(), n, to, in.longs(), null, in.nulls());
            }
            if (to instanceof DoubleType || to instanceof FloatType) {
                double[] out = new double[n];
                for (int i = 0; i < n; i++) {
                    long l = in.longs()[i];
                    out[i] = to instanceof FloatType ? (double) (float) l : (double) l;
                }
                return new Values(in.column(), n, to, null, out, in.nulls());
            }
        }
        if (from instanceof FloatType && to instanceof DoubleType) {
            return new Values(in.column(), n, to, null, in.doubles(), in.nulls());
        }
        return null;
    }

    /**
     * The non-NULL indexes whose value relates to {@code literal} as {@code op} asks; null when the literal does not
     * compare exactly with the values (no pruning).
     */
    private static BitSet compare(Values v, Literal<?> literal, String op) {
        Object x = literal.value();
        DataType lt = literal.dataType();
        int n = v.size();
        BitSet out = new BitSet(n);
        if (v.longs() != null) {
            Long l = null;
            if (isTimestamp(v.type()) || isTimestamp(lt)) {
                if (lt.equals(v.type()) && x instanceof Long t) {
                    l = t;
                }
            } else if (isIntegral(lt) && x instanceof Number num) {
                l = num.longValue();
            } else if (x instanceof Decimal d) {
                BigDecimal b = d.toJavaBigDecimal();
                try {
                    l = b.longValueExact();
                } catch (ArithmeticException e) {
                    l = null;
                }
            }
            if (l == null) {
                return null;
            }
            long[] values = v.longs();
            for (int i = 0; i < n; i++) {
                if (!v.nulls().get(i) && holds(Long.compare(values[i], l), op)) {
                    out.set(i);
                }
            }
            return out;
        }
        if (v.doubles() == null) {
            return null;
        }
        double d;
        if (x instanceof Decimal dec) {
            BigDecimal b = dec.toJavaBigDecimal();
            d = b.doubleValue();
            if (new BigDecimal(d).compareTo(b) != 0) {
                return null; // a decimal between two doubles: no pruning
            }
        } else if ((isIntegral(lt) || lt instanceof FloatType || lt instanceof DoubleType) && x instanceof Number num) {
            d = num.doubleValue();
        } else {
            return null;
        }
        double[] values = v.doubles();
        for (int i = 0; i < n; i++) {
            if (!v.nulls().get(i) && holds(sqlCompare(values[i], d), op)) {
                out.set(i);
            }
        }
        return out;
    }

    private static boolean isIntegral(DataType t) {
        return t instanceof ByteType || t instanceof ShortType || t instanceof IntegerType || t instanceof LongType;
    }

    /** Timestamps, and durations: longs of microseconds, compared only with literals of the same type. */
    private static boolean isTimestamp(DataType t) {
        return t instanceof TimestampType
                || t instanceof TimestampNTZType
                || t instanceof org.apache.spark.sql.types.DayTimeIntervalType;
    }

    /** Spark SQL's order of doubles: NaN above everything and equal to itself, -0.0 equal to 0.0. */
    static int sqlCompare(double a, double b) {
        if (a == b) {
            return 0;
        }
        return Double.compare(a, b);
    }

    private static boolean holds(int cmp, String op) {
        switch (op) {
            case "=":
            case "<=>":
                return cmp == 0;
            case "<>":
                return cmp != 0;
            case "<":
                return cmp < 0;
            case "<=":
                return cmp <= 0;
            case ">":
                return cmp > 0;
            case ">=":
                return cmp >= 0;
            default:
                throw new AssertionError(op);
        }
    }
}
