package io.cubed.storage.zarr.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

public class Lz4BlocksTest {
    /** Byte planes of noisy float64 values, as Blosc's shuffle hands them to LZ4: matches that a fast probe misses. */
    public static byte[] shuffledNoisyDoubles(int n, long seed) {
        Random rnd = new Random(seed);
        ByteBuffer bb = ByteBuffer.allocate(n * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            bb.putDouble(270 + Math.sin(i * 0.01) + rnd.nextGaussian() * 0.1);
        }
        byte[] raw = bb.array();
        byte[] planes = new byte[raw.length];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < 8; j++) {
                planes[j * n + i] = raw[i * 8 + j];
            }
        }
        return planes;
    }

    private static byte[] compress(int acceleration, byte[] src) {
        LZ4Compressor c = Lz4Blocks.compressor(acceleration);
        try {
            byte[] out = new byte[c.maxCompressedLength(src.length)];
            int n = c.compress(src, 0, src.length, out, 0, out.length);
            return Arrays.copyOf(out, n);
        } finally {
            Lz4Blocks.release(c);
        }
    }

    @Test
    void accelerationIsAvailableWhereLz4JavaShipsItsNativeLibrary() {
        String os = System.getProperty("os.name");
        String arch = System.getProperty("os.arch");
        // lz4-java bundles its native library for Linux on x86-64 and aarch64 (the nodes this project runs on).
        boolean bundled = os.startsWith("Linux") && (arch.equals("amd64") || arch.equals("aarch64"));
        assertThat(Lz4Blocks.accelerationAvailable()).as("%s %s", os, arch).isEqualTo(bundled);
    }

    @Test
    void acceleratedBlocksDifferAndDecodeToTheInput() {
        byte[] src = shuffledNoisyDoubles(1 << 17, 7);
        byte[] plain = compress(1, src);
        byte[] fast = compress(5, src);
        LZ4Factory safe = LZ4Factory.safeInstance();
        assertThat(safe.safeDecompressor().decompress(plain, src.length)).isEqualTo(src);
        assertThat(safe.safeDecompressor().decompress(fast, src.length)).isEqualTo(src);
        if (Lz4Blocks.accelerationAvailable()) {
            // Fewer probes for matches: a different, slightly larger block (acceleration is really applied).
            assertThat(fast).isNotEqualTo(plain);
            assertThat(fast.length).isGreaterThan(plain.length).isLessThan(plain.length * 11 / 10);
        } else {
            assertThat(fast).isEqualTo(plain);
        }
    }

    @Test
    void accelerationsBelowOneMeanTheDefault() {
        byte[] src = shuffledNoisyDoubles(1 << 14, 3);
        assertThat(compress(0, src)).isEqualTo(compress(1, src));
        assertThat(compress(-4, src)).isEqualTo(compress(1, src));
    }

    /** A class path as spark-submit builds it: Spark's lz4-java 1.8 first, then this project's classes, then ours. */
    private static java.net.URLClassLoader sparkLikeClassPath(boolean withOurLz4) throws Exception {
        java.nio.file.Path old = java.nio.file.Path.of("target", "spark-lz4", "lz4-java-spark.jar");
        assertThat(old).as("copied by the build (maven-dependency-plugin)").exists();
        java.net.URL classes =
                Lz4Blocks.class.getProtectionDomain().getCodeSource().getLocation();
        java.net.URL ours =
                LZ4Factory.class.getProtectionDomain().getCodeSource().getLocation();
        java.util.List<java.net.URL> urls =
                new java.util.ArrayList<>(List.of(old.toUri().toURL(), classes));
        if (withOurLz4) {
            urls.add(ours);
        }
        return new java.net.URLClassLoader(urls.toArray(new java.net.URL[0]), ClassLoader.getPlatformClassLoader());
    }

    private static Object call(Class<?> c, String method, Object... args) throws Exception {
        for (java.lang.reflect.Method m : c.getMethods()) {
            if (m.getName().equals(method) && m.getParameterCount() == args.length) {
                return m.invoke(null, args);
            }
        }
        throw new NoSuchMethodException(method);
    }

    @Test
    void behindSparksOlderLz4JavaTheAcceleratedCompressorComesFromOursLoadedOnItsOwn() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                Lz4Blocks.accelerationAvailable(), "no native lz4-java on this platform (checked above)");
        byte[] src = shuffledNoisyDoubles(1 << 17, 11);
        byte[] expected = compress(5, src);
        try (java.net.URLClassLoader spark = sparkLikeClassPath(true)) {
            Class<?> factory = Class.forName("net.jpountz.lz4.LZ4Factory", false, spark);
            assertThat(factory.getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toString())
                    .endsWith("lz4-java-spark.jar");
            Class<?> blocks = Class.forName(Lz4Blocks.class.getName(), true, spark);
            assertThat(call(blocks, "accelerationAvailable")).isEqualTo(true);
            assertThat(call(blocks, "accelerationSource"))
                    .isEqualTo("isolated "
                            + LZ4Factory.class
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation());
            // Spark's LZ4Compressor, backed by ours: the very bytes of the accelerated compressor in-process.
            Object compressor = call(blocks, "compressor", 5);
            Class<?> compressorClass = Class.forName("net.jpountz.lz4.LZ4Compressor", false, spark);
            assertThat(compressorClass.isInstance(compressor)).isTrue();
            int max = (int)
                    compressorClass.getMethod("maxCompressedLength", int.class).invoke(compressor, src.length);
            java.lang.reflect.Method compress = compressorClass.getMethod(
                    "compress", byte[].class, int.class, int.class, byte[].class, int.class, int.class);
            byte[] out = new byte[max];
            int n = (int) compress.invoke(compressor, src, 0, src.length, out, 0, max);
            call(blocks, "release", compressor);
            assertThat(Arrays.copyOf(out, n)).isEqualTo(expected);
            // Too small an output: Spark's own LZ4Exception, as from its own compressor.
            java.lang.reflect.InvocationTargetException tooSmall = org.assertj.core.api.Assertions.catchThrowableOfType(
                    () -> {
                        Object c = call(blocks, "compressor", 5);
                        try {
                            compress.invoke(c, src, 0, src.length, new byte[16], 0, 16);
                        } finally {
                            call(blocks, "release", c);
                        }
                    },
                    java.lang.reflect.InvocationTargetException.class);
            assertThat(tooSmall.getCause().getClass())
                    .isSameAs(Class.forName("net.jpountz.lz4.LZ4Exception", false, spark));
        }
    }

    @Test
    void withOnlySparksOlderLz4JavaBlocksAreWrittenAtTheDefaultAcceleration() throws Exception {
        byte[] src = shuffledNoisyDoubles(1 << 15, 13);
        try (java.net.URLClassLoader spark = sparkLikeClassPath(false)) {
            Class<?> blocks = Class.forName(Lz4Blocks.class.getName(), true, spark);
            assertThat(call(blocks, "accelerationAvailable")).isEqualTo(false);
            assertThat(call(blocks, "accelerationSource")).isEqualTo("none");
            Object compressor = call(blocks, "compressor", 5);
            Class<?> compressorClass = Class.forName("net.jpountz.lz4.LZ4Compressor", false, spark);
            assertThat(compressor
                            .getClass()
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toString())
                    .endsWith("lz4-java-spark.jar"); // Spark's own default compressor
            byte[] out =
                    (byte[]) compressorClass.getMethod("compress", byte[].class).invoke(compressor, (Object) src);
            assertThat(LZ4Factory.safeInstance().safeDecompressor().decompress(out, src.length))
                    .isEqualTo(src);
        }
    }
}
