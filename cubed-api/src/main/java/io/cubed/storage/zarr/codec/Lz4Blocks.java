package io.cubed.storage.zarr.codec;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * LZ4 block compressors at an <em>acceleration</em>, for numcodecs' LZ4 and for Blosc's LZ4 streams. LZ4's
 * acceleration (1 = its default) trades a little compression for speed by probing fewer positions for matches; every
 * LZ4 decoder reads the result alike. c-blosc compresses its LZ4 streams at acceleration {@code 10 − clevel} (5 at
 * the usual clevel 5), and numcodecs' LZ4 codec records its acceleration in the metadata: honouring both makes our
 * writes as fast as theirs and the same format. On this project's data (shuffled float64 streams) acceleration 5
 * compresses 1.3–2.4 × faster than 1 at a compression ratio within 0.2 % (docs/benchmarks.md).
 *
 * <p>Acceleration needs lz4-java's native library and an lz4-java with {@code fastResetCompressor} (1.10 or later):
 * on a Spark cluster whose own lz4-java 1.8 comes first on the classpath, or where the native library cannot load
 * (the pure-Java LZ4 has no acceleration), {@link #compressor} returns the default compressor, which writes valid,
 * slightly smaller and slower LZ4 blocks.
 */
public final class Lz4Blocks {
    private static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
    private static final boolean ACCELERATION = probe();

    private Lz4Blocks() {}

    /** Whether {@link #compressor} honours an acceleration above 1 in this JVM. */
    public static boolean accelerationAvailable() {
        return ACCELERATION;
    }

    /**
     * A compressor at {@code acceleration} (values below 1 mean 1), for one thread; {@link #release} it after use (an
     * accelerated compressor holds native state).
     */
    public static LZ4Compressor compressor(int acceleration) {
        if (acceleration > 1 && ACCELERATION) {
            return Accelerated.create(acceleration);
        }
        return FACTORY.fastCompressor();
    }

    /** Frees the native state of a compressor from {@link #compressor}; a no-op for the default one. */
    public static void release(LZ4Compressor compressor) {
        if (compressor instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException("cannot release an LZ4 compressor", e);
            }
        }
    }

    private static boolean probe() {
        try {
            LZ4Factory.class.getMethod("fastResetCompressor", int.class);
            return FACTORY == LZ4Factory.nativeInstance();
        } catch (NoSuchMethodException | LinkageError | RuntimeException e) {
            // An lz4-java before 1.10 first on the classpath, or no native library for this platform.
            return false;
        }
    }

    /** Loaded only when {@link #ACCELERATION} holds: it names a class that older lz4-java releases lack. */
    private static final class Accelerated {
        static LZ4Compressor create(int acceleration) {
            return FACTORY.fastResetCompressor(acceleration);
        }
    }
}
