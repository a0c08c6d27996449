package io.cubed.storage.zarr.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
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
}
