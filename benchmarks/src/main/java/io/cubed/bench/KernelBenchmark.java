package io.cubed.bench;

import io.cubed.chunk.BinaryFunction;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.Elementwise;
import io.cubed.chunk.UnaryFunction;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The elementwise chunk kernels on one 8 MiB float64 chunk ({@link BenchData}) against hand-written {@code double[]}
 * loops that allocate their result the same way. One JMH operation is one element, so scores are elements per second;
 * the target is kernel time within 1.5 × the hand loop's (score ratio hand / kernel ≤ 1.5).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgs = {"-Xms2g", "-Xmx2g", "--add-modules=jdk.incubator.vector"})
@OperationsPerInvocation(KernelBenchmark.N)
public class KernelBenchmark {
    static final int N = BenchData.ROWS * BenchData.COLS;

    private Chunk a;
    private Chunk b;
    private final Scalar half = Scalar.ofDouble(0.5);

    @Setup
    public void setup() {
        int[] shape = {BenchData.ROWS, BenchData.COLS};
        a = Chunk.wrap(DType.FLOAT64, shape, BenchData.field(1));
        b = Chunk.wrap(DType.FLOAT64, shape, BenchData.field(2));
    }

    @Benchmark
    public Chunk addKernel() {
        return Elementwise.binary(BinaryFunction.ADD, a, b);
    }

    @Benchmark
    public double[] addHandLoop() {
        double[] x = a.doubles();
        double[] y = b.doubles();
        double[] z = new double[x.length];
        for (int i = 0; i < z.length; i++) {
            z[i] = x[i] + y[i];
        }
        return z;
    }

    @Benchmark
    public Chunk multiplyScalarKernel() {
        return Elementwise.binary(BinaryFunction.MULTIPLY, a, half);
    }

    @Benchmark
    public double[] multiplyScalarHandLoop() {
        double[] x = a.doubles();
        double[] z = new double[x.length];
        for (int i = 0; i < z.length; i++) {
            z[i] = x[i] * 0.5;
        }
        return z;
    }

    @Benchmark
    public Chunk sqrtKernel() {
        return Elementwise.unary(UnaryFunction.SQRT, a);
    }

    @Benchmark
    public double[] sqrtHandLoop() {
        double[] x = a.doubles();
        double[] z = new double[x.length];
        for (int i = 0; i < z.length; i++) {
            z[i] = Math.sqrt(x[i]);
        }
        return z;
    }

    @Benchmark
    public Chunk maximumKernel() {
        return Elementwise.binary(BinaryFunction.MAXIMUM, a, b);
    }

    @Benchmark
    public double[] maximumHandLoop() {
        double[] x = a.doubles();
        double[] y = b.doubles();
        double[] z = new double[x.length];
        for (int i = 0; i < z.length; i++) {
            z[i] = Math.max(x[i], y[i]);
        }
        return z;
    }
}
