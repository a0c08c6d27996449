package io.cubed.bench;

import io.cubed.chunk.BinaryFunction;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.Elementwise;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.grid.ChunkGrid;
import io.cubed.primitive.ChunkFunction;
import io.cubed.primitive.ComputedChunkStore;
import io.cubed.primitive.ElementwiseChunkFunction;
import io.cubed.primitive.KeyFunction;
import io.cubed.storage.ChunkStore;
import io.cubed.storage.VirtualArray;
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
 * W5's fused chain {@code (u - mu)² + (v - mv)²} on one pair of 8 MiB float64 chunks ({@link BenchData}), {@code mu}
 * and {@code mv} rows broadcast along the first axis, computed as a task computes a fused chain
 * ({@link ComputedChunkStore} over in-memory leaves): {@code tiles}, the elementwise functions as they are (the chain
 * runs tile by tile), against {@code chunks}, the same functions behind a plain chunk function (each operation makes
 * a whole chunk), and a hand-written single loop over the same arrays, the floor. One JMH operation is one element of
 * the result: scores are elements per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgs = {"-Xms2g", "-Xmx2g", "--add-modules=jdk.incubator.vector"})
@OperationsPerInvocation(FusedChainBenchmark.N)
public class FusedChainBenchmark {
    static final int N = BenchData.ROWS * BenchData.COLS;

    /** {@code tiles}: elementwise chunk functions; {@code chunks}: the same functions, one whole chunk each. */
    @Param({"tiles", "chunks"})
    public String mode;

    private ComputedChunkStore chain;
    private double[] u;
    private double[] v;
    private double[] mu;
    private double[] mv;

    @Setup
    public void setup() {
        int[] shape = {BenchData.ROWS, BenchData.COLS};
        int[] row = {1, BenchData.COLS};
        u = BenchData.field(1);
        v = BenchData.field(2);
        mu = new double[BenchData.COLS];
        mv = new double[BenchData.COLS];
        for (int j = 0; j < mu.length; j++) {
            mu[j] = j * 1e-3;
            mv[j] = -j * 1e-3;
        }
        ChunkStore us = leaf(Chunk.wrap(DType.FLOAT64, shape, u));
        ChunkStore vs = leaf(Chunk.wrap(DType.FLOAT64, shape, v));
        ChunkStore mus = leaf(Chunk.wrap(DType.FLOAT64, row, mu));
        ChunkStore mvs = leaf(Chunk.wrap(DType.FLOAT64, row, mv));
        boolean tiles = mode.equals("tiles");
        ChunkFunction sub = function(tiles, b -> Elementwise.binary(BinaryFunction.SUBTRACT, b[0], b[1]));
        ChunkFunction sq = function(tiles, b -> Elementwise.binary(BinaryFunction.POW, b[0], Scalar.ofLong(2)));
        ChunkFunction add = function(tiles, b -> Elementwise.binary(BinaryFunction.ADD, b[0], b[1]));
        ComputedChunkStore su = op(sq, shape, op(sub, shape, us, mus));
        ComputedChunkStore sv = op(sq, shape, op(sub, shape, vs, mvs));
        chain = op(add, shape, su, sv);
    }

    private static ChunkStore leaf(Chunk c) {
        return VirtualArray.inMemory(c, ChunkGrid.of(new long[] {c.shape()[0], c.shape()[1]}, c.shape()));
    }

    /** {@code f} as an elementwise chunk function, or behind a plain one that applies it to whole chunks. */
    private static ChunkFunction function(boolean tiles, ElementwiseChunkFunction f) {
        if (tiles) {
            return f;
        }
        return (ChunkFunction) (args, coords) -> {
            Chunk[] blocks = new Chunk[args.size()];
            for (int j = 0; j < blocks.length; j++) {
                blocks[j] = args.chunk(j);
            }
            return new Chunk[] {f.applyElementwise(blocks)};
        };
    }

    private static ComputedChunkStore op(ChunkFunction f, int[] shape, ChunkStore... in) {
        KeyFunction keys = coords -> {
            long[][][] k = new long[in.length][][];
            for (int j = 0; j < in.length; j++) {
                k[j] = new long[][] {{0, 0}};
            }
            return k;
        };
        return new ComputedChunkStore(
                "op", in, keys, f, 0, DType.FLOAT64, ChunkGrid.of(new long[] {shape[0], shape[1]}, shape));
    }

    @Benchmark
    public Chunk chain() {
        return chain.readChunk(0, 0);
    }

    @Benchmark
    public double[] handLoop() {
        double[] out = new double[u.length];
        int m = mu.length;
        for (int base = 0; base < out.length; base += m) {
            for (int j = 0; j < m; j++) {
                double a = u[base + j] - mu[j];
                double b = v[base + j] - mv[j];
                out[base + j] = a * a + b * b;
            }
        }
        return out;
    }
}
