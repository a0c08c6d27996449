package io.cubed.primitive;

import java.util.ArrayList;
import java.util.List;

/**
 * The chains of chunk shapes {@link RechunkPlanner} starts its search from: chunks consolidated up to a size, chunk
 * shapes spaced geometrically between two ends (Cubed's {@code multspace}), and a chain whose copy regions use the
 * whole region cap.
 */
final class RechunkChainShapes {
    private final long[] shape;
    private final int itemsize;
    private final int[] rawSource;
    private final int[] source;
    private final int[] target;
    private final RechunkCosts costs;

    RechunkChainShapes(long[] shape, int itemsize, int[] rawSource, int[] source, int[] target, RechunkCosts costs) {
        this.shape = shape;
        this.itemsize = itemsize;
        this.rawSource = rawSource;
        this.source = source;
        this.target = target;
        this.costs = costs;
    }

    /**
     * A chain of {@code k} stages whose regions use the region cap ({@code budget / copies}): a region spans the
     * output chunk along the axes that grow and the input chunk along the axes that shrink, so the shrinking axes go
     * first. They shrink by the same factor in stages 1 … k−1 — just enough for the last stage's region (target
     * lengths on the growing axes) to fit — and each stage grows the growing axes by whole multiples (last axis
     * first) while its region stays within the cap. Intermediate chunks are then about {@code cap / (shrink per
     * stage)}, the largest the cap allows, which keeps the chunk reads and writes few.
     */
    List<int[]> capChain(int k, long budget) {
        int nd = shape.length;
        long capElements = Math.max(1, budget / costs.copies() / itemsize);
        double totalShrink = 0;
        double finalRegion = 0;
        for (int i = 0; i < nd; i++) {
            if (target[i] < source[i]) {
                totalShrink += Math.log((double) source[i] / target[i]);
                finalRegion += Math.log(target[i]);
            } else {
                finalRegion += Math.log(target[i]);
            }
        }
        // Shrink left for the last stage at most: its region, target lengths times the remaining shrink, fits the cap.
        double lastShrink = Math.max(0, Math.log(capElements) - finalRegion);
        double perStage = Math.max(totalShrink / k, (totalShrink - lastShrink) / (k - 1));
        List<int[]> chain = new ArrayList<>();
        chain.add(rawSource);
        int[] prev = source.clone();
        for (int st = 1; st < k; st++) {
            double fraction = totalShrink == 0 ? 1 : Math.min(1, st * perStage / totalShrink);
            int[] c = prev.clone();
            for (int i = 0; i < nd; i++) {
                if (target[i] < source[i]) {
                    double v = source[i] * Math.pow((double) target[i] / source[i], fraction);
                    long m = Math.max(1, (long) Math.floor(v / target[i] + 1e-9));
                    c[i] = (int) Math.min(prev[i], m * target[i]);
                }
            }
            // The region of this stage: the previous chunk along shrinking axes, the grown chunk along growing ones.
            int[] limits = new int[nd];
            for (int i = 0; i < nd; i++) {
                limits[i] = target[i] > source[i] ? target[i] : 0;
            }
            int[] grown = consolidate(prev, limits, capElements * itemsize);
            for (int i = 0; i < nd; i++) {
                if (target[i] > source[i]) {
                    c[i] = grown[i];
                }
            }
            chain.add(c);
            prev = c;
        }
        chain.add(target);
        return chain;
    }

    /**
     * {@code chunks} grown by whole multiples, from the last axis to the first, along the axes where {@code limits}
     * is positive (up to it), while the chunk stays within {@code capBytes}.
     */
    int[] consolidate(int[] chunks, int[] limits, long capBytes) {
        int[] c = chunks.clone();
        if (costs.bytes(c) > capBytes) {
            return c;
        }
        for (int i = c.length - 1; i >= 0; i--) {
            if (limits[i] <= c[i]) {
                continue;
            }
            int original = c[i];
            c[i] = limits[i];
            if (costs.bytes(c) <= capBytes) {
                continue;
            }
            c[i] = original;
            long multiple = capBytes / costs.bytes(c);
            c[i] = (int) Math.min(limits[i], Math.max(1, multiple) * original);
            break;
        }
        return c;
    }

    /**
     * The {@code k − 1} chunk shapes between {@code from} and {@code to}: geometric per axis, each rounded to a
     * multiple of its smaller neighbour towards the smaller end.
     */
    List<int[]> interior(int[] from, int[] to, int k) {
        List<int[]> out = new ArrayList<>();
        for (int s = 1; s < k; s++) {
            out.add(new int[from.length]);
        }
        for (int i = 0; i < from.length; i++) {
            long[] values = multiples(Math.min(from[i], to[i]), Math.max(from[i], to[i]), k - 1);
            for (int s = 0; s < k - 1; s++) {
                long v = from[i] <= to[i] ? values[s] : values[k - 2 - s];
                out.get(s)[i] = (int) Math.min(v, Math.max(1, shape[i]));
            }
        }
        return out;
    }

    /** {@code m} values spaced geometrically strictly between {@code lo} and {@code hi}, each a multiple of the last. */
    static long[] multiples(long lo, long hi, int m) {
        long[] v = new long[m];
        long prev = lo;
        for (int s = 1; s <= m; s++) {
            double g = lo * Math.pow((double) hi / lo, (double) s / (m + 1));
            long next = Math.max(prev, (long) Math.floor(g / prev + 1e-9) * prev);
            v[s - 1] = next;
            prev = next;
        }
        return v;
    }
}
