package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.ReduceFunction;
import io.cubed.dtype.DType;
import io.cubed.error.TaskFailedException;
import io.cubed.plan.Computation;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** groupbyReduction against plain loops over each group's elements. */
class GroupbyReductionTest {
    @TempDir
    Path tmp;

    private Spec spec(long allowed) {
        return Spec.builder()
                .workDir(tmp.resolve("work").toString())
                .allowedMem(allowed)
                .reservedMem(0)
                .executor(new LocalExecutor(2, 1, 0))
                .build();
    }

    /** f of the elements of a 2-d {@code data} along {@code axis} whose label is each group, by the reference. */
    private static Chunk reference(ReduceFunction f, Chunk data, int axis, int[] labels, int groups) {
        int rows = data.shape(0);
        int cols = data.shape(1);
        int other = axis == 0 ? cols : rows;
        int[] outShape = axis == 0 ? new int[] {groups, cols} : new int[] {rows, groups};
        Chunk out = Chunk.allocate(f.resultType(data.dtype(), null, "x"), outShape);
        for (int g = 0; g < groups; g++) {
            for (int o = 0; o < other; o++) {
                List<Double> vals = new ArrayList<>();
                for (int i = 0; i < labels.length; i++) {
                    if (labels[i] == g) {
                        vals.add(axis == 0 ? data.getDouble(i * cols + o) : data.getDouble(o * cols + i));
                    }
                }
                double[] v = vals.stream().mapToDouble(Double::doubleValue).toArray();
                Chunk one = Chunk.wrap(DType.FLOAT64, new int[] {v.length}, v);
                Chunk r = ReferenceReductions.reduce(f, one, null, false, 0);
                int flat = axis == 0 ? g * cols + o : o * groups + g;
                out.doubles()[flat] = r.doubles()[0];
            }
        }
        return out;
    }

    @Test
    void groupedReductionsAlongEitherAxisMatchPlainLoops() {
        Spec spec = spec(50_000_000);
        Chunk data = ReferenceReductions.random(DType.FLOAT64, new int[] {20, 12}, 3, 0);
        List<String> failures = new ArrayList<>();
        for (int axis = 0; axis < 2; axis++) {
            int len = data.shape(axis);
            int[] labels = new int[len];
            for (int i = 0; i < len; i++) {
                labels[i] = (i * 7) % 5; // five groups, interleaved
            }
            CubedArray by = Cubed.asarray(Chunk.wrap(DType.INT32, new int[] {len}, labels.clone()), spec, 4);
            for (int[] chunks : new int[][] {{3, 5}, {1, 1}, {20, 12}}) {
                CubedArray x = Cubed.asarray(data, spec, chunks);
                List<CubedArray> results = new ArrayList<>();
                List<Chunk> expected = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (ReduceFunction f : new ReduceFunction[] {
                    ReduceFunction.SUM, ReduceFunction.MEAN, ReduceFunction.MAX, ReduceFunction.MIN, ReduceFunction.VAR
                }) {
                    results.add(Reduction.groupbyReduction(x, by, f, axis, 5, ReductionOptions.all()));
                    expected.add(reference(f, data, axis, labels, 5));
                    names.add(f + " axis " + axis + " chunks " + java.util.Arrays.toString(chunks));
                }
                List<Chunk> actual = Cubed.compute(results);
                for (int i = 0; i < actual.size(); i++) {
                    String d = ReferenceReductions.compare(expected.get(i), actual.get(i), 1e-12);
                    if (d != null) {
                        failures.add(names.get(i) + ": " + d);
                    }
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void monthlyClimatologyOfDailyDataInSeveralRounds() {
        int[] monthLengths = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        int days = 365;
        int points = 4;
        int[] month = new int[days];
        for (int m = 0, d = 0; m < 12; m++) {
            for (int k = 0; k < monthLengths[m]; k++) {
                month[d++] = m;
            }
        }
        double[] values = new double[days * points];
        for (int d = 0; d < days; d++) {
            for (int p = 0; p < points; p++) {
                values[d * points + p] = 10 * month[d] + p + 0.001 * d;
            }
        }
        Spec spec = spec(200_000);
        CubedArray x = Cubed.asarray(Chunk.wrap(DType.FLOAT64, new int[] {days, points}, values), spec, 10, 4);
        CubedArray by = Cubed.asarray(Chunk.wrap(DType.INT64, new int[] {days}, toLongs(month)), spec, 10);
        CubedArray clim = Reduction.groupbyReduction(x, by, ReduceFunction.MEAN, 0, 12, ReductionOptions.all());
        assertThat(clim.shape()).containsExactly(12, points);
        assertThat(clim.chunkShape()).containsExactly(12, points);
        Computation c = Computation.prepare(spec, List.of(clim.node()), Map.of());
        // 37 chunks of days, 4 per task: 37 -> 10 -> 3 -> 1.
        assertThat(c.plan().ops()).hasSize(3);
        assertThat(c.projectedMemBytes().values()).allSatisfy(m -> assertThat(m).isLessThanOrEqualTo(200_000));
        Chunk r = clim.compute();
        for (int m = 0, start = 0; m < 12; start += monthLengths[m], m++) {
            double meanDay = start + (monthLengths[m] - 1) / 2.0;
            for (int p = 0; p < points; p++) {
                assertThat(r.doubles()[m * points + p])
                        .isCloseTo(10 * m + p + 0.001 * meanDay, org.assertj.core.data.Offset.offset(1e-9));
            }
        }
    }

    private static long[] toLongs(int[] v) {
        long[] l = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            l[i] = v[i];
        }
        return l;
    }

    @Test
    void badLabelsAreRefused() {
        Spec spec = spec(50_000_000);
        CubedArray x = Creation.ones(new long[] {6, 2}, new int[] {2, 2}, DType.FLOAT64, spec);
        CubedArray f = Creation.ones(new long[] {6}, new int[] {2}, DType.FLOAT64, spec);
        assertThatThrownBy(() -> Reduction.groupbyReduction(x, f, ReduceFunction.SUM, 0, 3, ReductionOptions.all()))
                .hasMessageContaining("groupby_sum of " + x.name() + ": the labels " + f.name()
                        + " must be a 1-d integer array of length 6");
        CubedArray labels =
                Cubed.asarray(Chunk.wrap(DType.INT8, new int[] {6}, new byte[] {0, 1, 2, 5, 1, 0}), spec, 3);
        assertThatThrownBy(() -> Reduction.groupbyReduction(x, labels, ReduceFunction.SUM, 0, 3, ReductionOptions.all())
                        .compute())
                .isInstanceOf(TaskFailedException.class)
                .hasMessageContaining("groupby_sum: group label 5 at position 3 is outside [0, 3)");
        assertThatThrownBy(() ->
                        Reduction.groupbyReduction(x, labels, ReduceFunction.ARGMAX, 0, 3, ReductionOptions.all()))
                .hasMessageContaining("arg reductions cannot be grouped");
        assertThatThrownBy(
                        () -> Reduction.groupbyReduction(x, labels, ReduceFunction.SUM, 2, 3, ReductionOptions.all()))
                .hasMessageContaining("axis 2 is out of bounds");
    }
}
