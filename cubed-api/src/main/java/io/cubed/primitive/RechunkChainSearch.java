package io.cubed.primitive;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The search of {@link RechunkPlanner} for the cheapest chain of chunk shapes of a given number of stages: from the
 * starting chains of {@link RechunkChainShapes}, it fits every stage to the budget by shrinking intermediates, inserts
 * an intermediate into the chain one stage shorter, and replaces intermediates by the best of an exhaustive search
 * between their neighbours.
 */
final class RechunkChainSearch {
    /** Most sweeps of {@link #sweep} over the intermediates. */
    static final int MAX_SWEEPS = 3;

    /** Largest number of intermediate chunk shapes one {@link #searchBetween} evaluates. */
    static final int MAX_CANDIDATES = 20_000;

    private final long[] shape;
    private final int[] rawSource;
    private final int[] source;
    private final int[] target;
    private final RechunkCosts costs;
    private final RechunkChainShapes shapes;

    RechunkChainSearch(
            long[] shape, int[] rawSource, int[] source, int[] target, RechunkCosts costs, RechunkChainShapes shapes) {
        this.shape = shape;
        this.rawSource = rawSource;
        this.source = source;
        this.target = target;
        this.costs = costs;
        this.shapes = shapes;
    }

    /**
     * The cheapest chain of chunk shapes (source, intermediates, target) found for {@code k} stages within {@code
     * budget}, or {@code null}. One stage is the direct copy. For more, three starting points: the geometric chain
     * from {@code read} and the {@link #capChain} fitted to the budget ({@link #fit}), and {@code shorter} (the chain found for {@code k − 1} stages)
     * with one more intermediate inserted where it lowers the cost most. From each, every intermediate in turn is
     * replaced by the best one of an exhaustive search between its two neighbours ({@link #searchBetween}) until a
     * sweep improves nothing; the cheaper result wins.
     */
    List<int[]> bestChain(int k, int[] read, long budget, List<int[]> shorter) {
        if (k == 1) {
            List<int[]> single = costs.dedupe(List.of(rawSource, target));
            return costs.allFit(costs.stages(single), budget) ? single : null;
        }
        List<int[]> chain = new ArrayList<>();
        chain.add(rawSource);
        chain.addAll(shapes.interior(read, target, k));
        chain.add(target);
        List<int[]> best = sweep(fit(chain, budget), budget);
        List<int[]> capped = sweep(fit(shapes.capChain(k, budget), budget), budget);
        if (best == null || (capped != null && costs.time(costs.stages(capped)) < costs.time(costs.stages(best)))) {
            best = capped;
        }
        List<int[]> from = shorter != null ? shorter : List.of(rawSource, target);
        List<int[]> inserted = null;
        for (int idx = 1; idx < from.size(); idx++) {
            int[] hint = idx == 1 && from.size() == 2 ? chain.get(1) : from.get(idx);
            int[] w = searchBetween(from.get(idx - 1), from.get(idx), hint, budget, false);
            if (w == null) {
                continue;
            }
            List<int[]> next = new ArrayList<>(from);
            next.add(idx, w);
            next = costs.dedupe(next);
            if (costs.allFit(costs.stages(next), budget)
                    && (inserted == null || costs.time(costs.stages(next)) < costs.time(costs.stages(inserted)))) {
                inserted = next;
            }
        }
        inserted = sweep(inserted, budget);
        if (best == null || (inserted != null && costs.time(costs.stages(inserted)) < costs.time(costs.stages(best)))) {
            best = inserted;
        }
        return best;
    }

    /** {@code chain} with its intermediates improved one at a time by {@link #searchBetween}; null stays null. */
    private List<int[]> sweep(List<int[]> chain, long budget) {
        if (chain == null) {
            return null;
        }
        List<int[]> c = chain;
        for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
            boolean improved = false;
            for (int idx = 1; idx < c.size() - 1; idx++) {
                int[] w = searchBetween(c.get(idx - 1), c.get(idx + 1), c.get(idx), budget, true);
                if (w == null) {
                    continue;
                }
                List<int[]> next = new ArrayList<>(c);
                next.set(idx, w);
                next = costs.dedupe(next);
                // Merging equal neighbours can join stages the search did not check: check the whole chain.
                if (costs.allFit(costs.stages(next), budget)
                        && costs.time(costs.stages(next)) < costs.time(costs.stages(c))) {
                    c = next;
                    improved = true;
                }
            }
            if (!improved) {
                break;
            }
        }
        return c;
    }

    /**
     * The intermediate chunk shape between {@code left} and {@code right} whose two stages fit {@code budget} at the
     * least {@link RechunkCosts#time(List)}, searched over every combination of per-axis candidates; {@code null} when none fits. The
     * candidates on an axis are the divisors of both neighbours' lengths (a stage that cuts or assembles whole chunks
     * needs no large region), their multiples by powers of two, {@code hint}'s length and the whole axis. The divisors
     * include the greatest common divisor: between the source and target chunks, the chain that needs no region
     * buffer at all is among the candidates. An intermediate equal to a neighbour merges the two stages into one;
     * only when {@code mayMerge}.
     */
    private int[] searchBetween(int[] left, int[] right, int[] hint, long budget, boolean mayMerge) {
        int nd = shape.length;
        int[] l = RechunkPlanner.normalize(shape, left, "left");
        int[] r = RechunkPlanner.normalize(shape, right, "right");
        long[][] candidates = new long[nd][];
        for (int i = 0; i < nd; i++) {
            candidates[i] = axisCandidates(i, l[i], r[i], hint[i]);
        }
        while (combinations(candidates) > MAX_CANDIDATES) {
            int widest = 0;
            for (int i = 1; i < nd; i++) {
                if (candidates[i].length > candidates[widest].length) {
                    widest = i;
                }
            }
            candidates[widest] = thin(candidates[widest], l[widest], r[widest], hint[widest]);
        }
        int[] best = null;
        long bestCost = Long.MAX_VALUE;
        int[] index = new int[nd];
        int[] w = new int[nd];
        RechunkCosts.Through through = costs.through(left, right, candidates);
        while (true) {
            for (int i = 0; i < nd; i++) {
                w[i] = (int) candidates[i][index[i]];
            }
            long cost;
            if (Arrays.equals(w, l) || Arrays.equals(w, r)) {
                // The intermediate merges with a neighbour: the chain has fewer stages.
                List<RechunkStage> stages = costs.stages(costs.dedupe(List.of(left, w, right)));
                cost = (mayMerge || stages.size() == 2) && costs.allFit(stages, budget) ? costs.time(stages) : -1;
            } else {
                cost = through.time(index, budget);
            }
            if (cost >= 0 && cost < bestCost) {
                bestCost = cost;
                best = w.clone();
            }
            int axis = nd - 1;
            while (axis >= 0 && ++index[axis] == candidates[axis].length) {
                index[axis] = 0;
                axis--;
            }
            if (axis < 0) {
                return best;
            }
        }
    }

    private long[] axisCandidates(int axis, long s, long t, int hint) {
        long n = Math.max(1, Math.min(shape[axis], Integer.MAX_VALUE - 8));
        TreeSet<Long> c = new TreeSet<>();
        addDivisors(c, s);
        addDivisors(c, t);
        for (long base : new long[] {s, t}) {
            for (long m = base; m <= n; m *= 2) {
                c.add(m);
            }
        }
        c.add(Math.min(n, Math.max(1, hint)));
        c.add(n);
        c.removeIf(v -> v < 1 || v > n);
        return c.stream().mapToLong(Long::longValue).toArray();
    }

    private static void addDivisors(TreeSet<Long> c, long v) {
        for (long d = 1; d * d <= v; d++) {
            if (v % d == 0) {
                c.add(d);
                c.add(v / d);
            }
        }
    }

    private static long combinations(long[][] candidates) {
        long n = 1;
        for (long[] c : candidates) {
            n = RechunkStage.saturatedMultiply(n, c.length);
        }
        return n;
    }

    /** Every other candidate, keeping the smallest and largest, both neighbours' lengths, their gcd and the hint. */
    private static long[] thin(long[] values, long s, long t, long hint) {
        TreeSet<Long> kept = new TreeSet<>();
        for (int i = 0; i < values.length; i += 2) {
            kept.add(values[i]);
        }
        kept.add(values[values.length - 1]);
        long g = RechunkStage.gcd(s, t);
        for (long v : values) {
            if (v == s || v == t || v == g || v == hint) {
                kept.add(v);
            }
        }
        return kept.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * The chunk shapes of {@code chain} fitted to {@code budget}: while a stage does not fit, one axis of an intermediate
     * chunk shape next to it shrinks — to three quarters or to its largest proper divisor, counted in units of the
     * smaller of the source and target chunk on that axis (so that neighbours stay multiples of each other) — choosing
     * the move that brings the two stages around that intermediate closest to fitting; {@code null} when no move
     * helps.
     */
    private List<int[]> fit(List<int[]> chain, long budget) {
        List<int[]> c = new ArrayList<>();
        for (int[] x : chain) {
            c.add(x.clone());
        }
        while (true) {
            // Chunk shapes that became equal to a neighbour merge first, so every stage checked is a stage run.
            c = costs.dedupe(c);
            int over = -1;
            for (int s = 0; s + 1 < c.size(); s++) {
                if (!costs.fits(costs.stage(c.get(s), c.get(s + 1)), budget)) {
                    over = s;
                    break;
                }
            }
            if (over < 0) {
                return c;
            }
            int bestIndex = -1;
            int bestAxis = -1;
            int bestValue = -1;
            double bestScore = costs.excess(costs.stage(c.get(over), c.get(over + 1)), budget);
            for (int idx = over; idx <= over + 1; idx++) {
                if (idx < 1 || idx > c.size() - 2) {
                    continue;
                }
                int[] mid = c.get(idx);
                for (int axis = 0; axis < mid.length; axis++) {
                    for (int value : shrinkCandidates(mid[axis], Math.min(source[axis], target[axis]))) {
                        int old = mid[axis];
                        mid[axis] = value;
                        double score = Math.max(
                                costs.excess(costs.stage(c.get(idx - 1), mid), budget),
                                costs.excess(costs.stage(mid, c.get(idx + 1)), budget));
                        mid[axis] = old;
                        if (score < bestScore) {
                            bestScore = score;
                            bestIndex = idx;
                            bestAxis = axis;
                            bestValue = value;
                        }
                    }
                }
            }
            if (bestIndex < 0) {
                return null;
            }
            c.get(bestIndex)[bestAxis] = bestValue;
        }
    }

    /** Smaller lengths to try for an intermediate chunk length {@code v}, in multiples of {@code unit} when above it. */
    static int[] shrinkCandidates(int v, int unit) {
        if (v <= 1) {
            return new int[0];
        }
        long u = v > unit ? unit : 1;
        long m = v / u;
        long threeQuarters = Math.max(1, Math.min(m - 1, m * 3 / 4));
        long divisor = m / smallestPrimeFactor(m);
        long a = threeQuarters * u;
        long b = divisor * u;
        return a == b ? new int[] {(int) a} : new int[] {(int) a, (int) b};
    }

    private static long smallestPrimeFactor(long m) {
        for (long p = 2; p * p <= m; p++) {
            if (m % p == 0) {
                return p;
            }
        }
        return m;
    }
}
