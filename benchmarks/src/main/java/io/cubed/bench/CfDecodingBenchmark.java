package io.cubed.bench;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.zarr.cf.CfDecoding;
import io.cubed.storage.zarr.cf.CfOptions;
import java.util.Map;
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
 * CF decoding of one chunk of 181 × 360 values, as the SQL reader decodes it (a run of the last dimension at a time into
 * a buffer, the missing values' indexes recorded): {@code packed}, int16 with {@code scale_factor}, {@code add_offset}
 * and a {@code _FillValue} (1 % of the values) to float32; {@code nan}, float32 searched for NaN (1 % NaN). {@code
 * vector} is {@code false} (the scalar loops: the lookup table, the scalar NaN test) or {@code eager} (the Vector API
 * loops from the first call), through the system property {@code cubed.cf.vector}; each runs in a JVM of its own. One
 * JMH operation is one value, so scores are values per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgs = {"-Xms1g", "-Xmx1g", "--add-modules=jdk.incubator.vector"})
@OperationsPerInvocation(CfDecodingBenchmark.N)
public class CfDecodingBenchmark {
    static final int ROWS = 181;
    static final int COLS = 360;
    static final int N = ROWS * COLS;

    @Param({"packed", "nan"})
    public String input;

    @Param({"false", "eager"})
    public String vector;

    /** Percent of the values that are fill values (packed) or NaN: 1, or 0 as in a field without missing cells. */
    @Param({"1", "0"})
    public int missingPercent;

    private CfDecoding decoding;
    private Chunk raw;
    private Object out;
    private final int[] missing = new int[COLS];

    @Setup
    public void setUp() {
        System.setProperty("cubed.cf.vector", vector);
        Random r = new Random(5);
        if (input.equals("packed")) {
            decoding = CfDecoding.of(
                    "t2m",
                    DType.INT16,
                    null,
                    2,
                    Map.of("_FillValue", -32767L, "scale_factor", 0.002, "add_offset", 260.0),
                    CfOptions.defaults(),
                    null);
            raw = Chunk.allocate(DType.INT16, N);
            for (int i = 0; i < N; i++) {
                raw.shorts()[i] = r.nextInt(100) < missingPercent ? -32767 : (short) (r.nextInt(40_000) - 20_000);
            }
        } else {
            decoding = CfDecoding.of("tp", DType.FLOAT32, null, 2, Map.of(), CfOptions.defaults(), null);
            raw = Chunk.allocate(DType.FLOAT32, N);
            for (int i = 0; i < N; i++) {
                raw.floats()[i] = r.nextInt(100) < missingPercent ? Float.NaN : r.nextFloat() * 40;
            }
        }
        if (decoding.dtype() != DType.FLOAT32) {
            throw new IllegalStateException(input + " decodes to " + decoding.dtype() + ", not float32");
        }
        out = new float[COLS];
    }

    /** Decodes the chunk a run of {@link #COLS} values at a time; returns the count of missing values. */
    @Benchmark
    public int decodeRuns() {
        int k = 0;
        for (int row = 0; row < ROWS; row++) {
            k += decoding.decodeRun(raw, row * COLS, out, 0, COLS, missing);
        }
        return k;
    }
}
