package io.cubed.chunk;

import java.util.ArrayList;
import java.util.List;

/**
 * The result arrays of the elementwise loops while a fused expression is evaluated tile by tile: within a {@link
 * #open scope}, the loops that write every element of their result take it from this class, and each {@link
 * Scope#nextTile} hands every array of the tile just finished to the next one. The arrays stay in the processor's
 * cache; allocating them anew took a fresh, never-cached stretch of the young generation for every tile and cost five
 * times the arithmetic (1.1-1.4 ns per float64 element against 0.2-0.3 for the loop itself, measured on the AMD
 * machine type).
 *
 * <p>Outside a scope, and for loops that rely on a new array's zeros, results are new arrays as usual. The caller
 * that opens a scope promises that no array handed out for a tile is used after the next {@link Scope#nextTile} (it
 * copies what it keeps). With {@code -Dcubed.recycler.poison=true} (the tests set it) an array handed out again is
 * first filled with garbage, so a loop that leaves an element unwritten shows wrong values.
 */
public final class TileArrays {
    private static final ThreadLocal<Pool> POOL = ThreadLocal.withInitial(Pool::new);
    private static final boolean POISON = Boolean.getBoolean("cubed.recycler.poison");
    /** Free arrays kept at most: an expression's operations times the two tile lengths, with room. */
    private static final int MAX_FREE = 64;

    private TileArrays() {}

    /** An open scope on the current thread; {@link #close} drops what it kept. */
    public interface Scope extends AutoCloseable {
        /** The arrays handed out since the last call may be handed out again. */
        void nextTile();

        @Override
        void close();
    }

    /** Opens a scope on the current thread; a scope opened inside another does nothing. */
    public static Scope open() {
        Pool pool = POOL.get();
        if (pool.open) {
            return NESTED;
        }
        pool.open = true;
        return pool;
    }

    private static final Scope NESTED = new Scope() {
        @Override
        public void nextTile() {}

        @Override
        public void close() {}
    };

    /** A {@code double[n]} whose every element the caller writes before reading any. */
    static double[] doubles(int n) {
        Pool pool = POOL.get();
        if (!pool.open) {
            return new double[n];
        }
        double[] a = (double[]) pool.take(double[].class, n);
        if (a == null) {
            a = new double[n];
            pool.used.add(a);
        } else if (POISON) {
            java.util.Arrays.fill(a, Double.NaN);
        }
        return a;
    }

    /** A {@code float[n]} whose every element the caller writes before reading any. */
    static float[] floats(int n) {
        Pool pool = POOL.get();
        if (!pool.open) {
            return new float[n];
        }
        float[] a = (float[]) pool.take(float[].class, n);
        if (a == null) {
            a = new float[n];
            pool.used.add(a);
        } else if (POISON) {
            java.util.Arrays.fill(a, Float.NaN);
        }
        return a;
    }

    private static final class Pool implements Scope {
        boolean open;
        final List<Object> used = new ArrayList<>();
        final List<Object> free = new ArrayList<>();

        /** A free array of {@code type} and length {@code n}, now in use; null when there is none. */
        Object take(Class<?> type, int n) {
            for (int i = free.size() - 1; i >= 0; i--) {
                Object a = free.get(i);
                if (a.getClass() == type && java.lang.reflect.Array.getLength(a) == n) {
                    Object last = free.remove(free.size() - 1);
                    if (i < free.size()) {
                        free.set(i, last);
                    }
                    used.add(a);
                    return a;
                }
            }
            return null;
        }

        @Override
        public void nextTile() {
            for (Object a : used) {
                if (free.size() < MAX_FREE) {
                    free.add(a);
                }
            }
            used.clear();
        }

        @Override
        public void close() {
            used.clear();
            free.clear();
            open = false;
        }
    }
}
