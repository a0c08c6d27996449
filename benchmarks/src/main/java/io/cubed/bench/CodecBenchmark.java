package io.cubed.bench;

import io.cubed.storage.zarr.codec.Codec;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * Single-threaded encode and decode throughput of each codec on one 8 MiB float64 chunk ({@link BenchData}).
 *
 * <p>One JMH operation is one byte of uncompressed data ({@link OperationsPerInvocation}), so the score in ops/s is
 * uncompressed bytes per second in both directions. {@value BenchCodecs#NONE} is the baseline: allocate 8 MiB and
 * {@link System#arraycopy} into it, which every codec also has to do at least once. The trial setup checks that the
 * codec round-trips the data and records the compression ratio ({@link SideResults}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
@Fork(
        value = 1,
        jvmArgs = {"-Xms2g", "-Xmx2g", "--add-modules=jdk.incubator.vector"})
public class CodecBenchmark {
    /** Seed of the benchmark chunk. */
    static final long SEED = 20240611L;

    /** The codec, by its {@link BenchCodecs} name. */
    @Param({
        "none",
        "zlib-1",
        "gzip-1",
        "zstd-1",
        "zstd-3",
        "lz4",
        "bz2-1",
        "blosc-lz4-shuffle-5",
        "blosc-lz4-bitshuffle-5",
        "blosc-zstd-shuffle-5",
        "blosc-blosclz-shuffle-5",
        "blosc-zlib-shuffle-5",
        "blosc-lz4hc-shuffle-5"
    })
    public String codec;

    private Codec impl;
    private byte[] raw;
    private byte[] encoded;

    /** Makes the chunk and the codec, encodes once, checks the round trip and records the compression ratio. */
    @Setup(Level.Trial)
    public void setUp() {
        raw = BenchData.littleEndian(BenchData.field(SEED));
        impl = BenchCodecs.codec(codec);
        encoded = impl.encode(raw);
        byte[] back = impl.decode(encoded, raw.length);
        if (!Arrays.equals(raw, back)) {
            throw new IllegalStateException("codec " + codec + " does not round-trip the benchmark chunk");
        }
        SideResults.recordCompression(codec, raw.length, encoded.length);
    }

    /** Decodes the encoded chunk. */
    @Benchmark
    @OperationsPerInvocation(BenchData.CHUNK_BYTES)
    public byte[] decode() {
        return impl.decode(encoded, raw.length);
    }

    /** Encodes the raw chunk. */
    @Benchmark
    @OperationsPerInvocation(BenchData.CHUNK_BYTES)
    public byte[] encode() {
        return impl.encode(raw);
    }
}
