package io.cubed.jobs.bench;

import io.cubed.array.CubedArray;
import io.cubed.plan.Spec;
import java.util.List;

/** A named benchmark workload: which generated inputs it reads and the arrays it computes from them. */
interface Workload {
    /** Short name, e.g. {@code W1}. */
    String id();

    /** What it computes, e.g. {@code "c = a + b"}. */
    String description();

    /** Names of the generated inputs it reads (see {@link BenchData}). */
    List<String> inputs();

    /** The arrays to store, built from the opened inputs (in the order of {@link #inputs()}). */
    List<CubedArray> build(List<CubedArray> inputs, Spec spec);

    /** How to compute them (default: the spec's, i.e. fused). */
    default io.cubed.array.ComputeOptions options() {
        return io.cubed.array.ComputeOptions.defaults();
    }
}
