package io.cubed.storage.zarr.blosc;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Single-threaded throughput of Blosc's byte shuffle, by direction, element size and code: the scalar loops ({@code
 * ByteShuffle}, what a short process runs, and all there is for 4-byte elements) and the Vector API ({@link
 * VectorByteShuffle}, 8-byte elements, once warm).
 * Blocks of 1 MiB (the block zarr-python's Blosc-LZ4 picks for 8 MiB float64 chunks), four in turn, so that they come
 * from the caches as a decoder's blocks do. One JMH operation is one byte, so ops/s is bytes per second. In this
 * package because the shuffles are package-private. docs/zarr.md, "The scalar loops", has the figures.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(
        value = 1,
        jvmArgs = {"-Xms1g", "-Xmx1g", "--add-modules=jdk.incubator.vector"})
public class ShuffleBenchmark {
    private static final int N = 1 << 17;
    private static final int BLOCK = 8 * N;

    /**
     * Direction, element size and code: unshuffle (streams to elements), shuffle (elements to streams), toDoubles
     * (streams to float64 values), fromDoubles (values to streams); 8 or 4 bytes; scalar loops or Vector API (8-byte
     * elements only).
     */
    @Param({
        "unshuffle8-scalar",
        "unshuffle8-vector",
        "shuffle8-scalar",
        "shuffle8-vector",
        "toDoubles-scalar",
        "toDoubles-vector",
        "fromDoubles-scalar",
        "fromDoubles-vector",
        "unshuffle4-scalar",
        "shuffle4-scalar"
    })
    public String kind;

    private byte[] src;
    private byte[] dst;
    private double[] values;
    private int block;

    @Setup
    public void setUp() {
        src = new byte[4 * BLOCK];
        new Random(7).nextBytes(src);
        dst = new byte[4 * BLOCK];
        values = new double[4 * N];
        for (int i = 0; i < values.length; i++) {
            values[i] = Math.sin(i * 1e-3) * 20 + 280;
        }
    }

    @Benchmark
    @OperationsPerInvocation(BLOCK)
    public Object run() {
        int b = block = (block + 1) & 3;
        int off = b * BLOCK;
        switch (kind) {
            case "unshuffle8-scalar" -> ByteShuffle.unshuffle8Scalar(N, src, off, dst, off);
            case "unshuffle8-vector" -> VectorByteShuffle.unshuffle8(N, src, off, dst, off);
            case "shuffle8-scalar" -> ByteShuffle.shuffle8Scalar(N, src, off, dst, off);
            case "shuffle8-vector" -> VectorByteShuffle.shuffle8(N, src, off, dst, off);
            case "toDoubles-scalar" -> ByteShuffle.unshuffle8ToDoublesScalar(N, src, off, values, b * N);
            case "toDoubles-vector" -> VectorByteShuffle.unshuffle8ToDoubles(N, src, off, values, b * N);
            case "fromDoubles-scalar" -> ByteShuffle.shuffle8FromDoublesScalar(N, values, b * N, dst, off);
            case "fromDoubles-vector" -> VectorByteShuffle.shuffle8FromDoubles(N, values, b * N, dst, off);
            case "unshuffle4-scalar" -> ByteShuffle.unshuffle4(2 * N, src, off, dst, off);
            case "shuffle4-scalar" -> ByteShuffle.shuffle4(2 * N, src, off, dst, off);
            default -> throw new IllegalArgumentException("no shuffle " + kind);
        }
        return kind.startsWith("toDoubles") ? values : dst;
    }
}
