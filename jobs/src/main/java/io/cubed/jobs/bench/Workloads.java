package io.cubed.jobs.bench;

import io.cubed.array.CubedArray;
import io.cubed.array.Elementwise;
import io.cubed.array.LinearAlgebra;
import io.cubed.array.Manipulation;
import io.cubed.array.ReductionOptions;
import io.cubed.array.Statistical;
import io.cubed.dtype.Scalar;
import io.cubed.plan.Spec;
import java.util.List;

/** The named workloads W1–W5 of {@code cubed bench}, and W5u: W5 without fusion, for comparison. */
final class Workloads {
    private Workloads() {}

    static List<Workload> all() {
        return List.of(
                simple(
                        "W1",
                        "c = a + b (elementwise)",
                        List.of("u", "v"),
                        (in, spec) -> List.of(Elementwise.add(in.get(0), in.get(1)))),
                simple(
                        "W2",
                        "sum(u) and mean(u, axis=0) (reductions)",
                        List.of("u"),
                        (in, spec) -> List.of(
                                Statistical.sum(in.get(0)), Statistical.mean(in.get(0), ReductionOptions.axis(0)))),
                simple("W3", "rechunk s from row stripes to column stripes", List.of("s"), (in, spec) -> {
                    CubedArray s = in.get(0);
                    return List.of(Manipulation.rechunk(s, (int) s.shape()[0], s.chunkShape()[0]));
                }),
                simple(
                        "W4",
                        "matmul(m, n)",
                        List.of("m", "n"),
                        (in, spec) -> List.of(LinearAlgebra.matmul(in.get(0), in.get(1)))),
                simple(
                        "W5",
                        "quadratic means: mean((u - mean(u, 0))^2 + (v - mean(v, 0))^2, 0)",
                        List.of("u", "v"),
                        (in, spec) -> List.of(quadraticMeans(in.get(0), in.get(1)))),
                unfused(simple(
                        "W5u",
                        "W5 without fusion",
                        List.of("u", "v"),
                        (in, spec) -> List.of(quadraticMeans(in.get(0), in.get(1))))));
    }

    /** {@code mean((u − mean(u, axis=0))² + (v − mean(v, axis=0))², axis=0)}. */
    static CubedArray quadraticMeans(CubedArray u, CubedArray v) {
        ReductionOptions axis0 = ReductionOptions.axis(0);
        ReductionOptions keep = ReductionOptions.axis(0).keepdims(true);
        CubedArray du = Elementwise.subtract(u, Statistical.mean(u, keep));
        CubedArray dv = Elementwise.subtract(v, Statistical.mean(v, keep));
        CubedArray sq = Elementwise.add(Elementwise.pow(du, Scalar.ofLong(2)), Elementwise.pow(dv, Scalar.ofLong(2)));
        return Statistical.mean(sq, axis0);
    }

    /** {@code w} computed with fusion off. */
    static Workload unfused(Workload w) {
        return new Workload() {
            @Override
            public String id() {
                return w.id();
            }

            @Override
            public String description() {
                return w.description();
            }

            @Override
            public List<String> inputs() {
                return w.inputs();
            }

            @Override
            public List<CubedArray> build(List<CubedArray> arrays, Spec spec) {
                return w.build(arrays, spec);
            }

            @Override
            public io.cubed.array.ComputeOptions options() {
                return io.cubed.array.ComputeOptions.builder().optimize(false).build();
            }
        };
    }

    interface Builder {
        List<CubedArray> build(List<CubedArray> inputs, Spec spec);
    }

    static Workload simple(String id, String description, List<String> inputs, Builder builder) {
        return new Workload() {
            @Override
            public String id() {
                return id;
            }

            @Override
            public String description() {
                return description;
            }

            @Override
            public List<String> inputs() {
                return inputs;
            }

            @Override
            public List<CubedArray> build(List<CubedArray> arrays, Spec spec) {
                return builder.build(arrays, spec);
            }
        };
    }
}
