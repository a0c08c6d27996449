package io.cubed.storage.zarr.blosc;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

/** Deterministic test inputs for the Blosc tests; sizes are in bytes. */
final class BloscTestData {
    private BloscTestData() {}

    /** Uniformly random bytes. */
    static byte[] random(int nbytes, long seed) {
        byte[] b = new byte[nbytes];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** Little-endian float64 values of a smooth function plus noise, cut to {@code nbytes}. */
    static byte[] smooth(int nbytes, long seed) {
        Random rnd = new Random(seed);
        ByteBuffer bb = ByteBuffer.allocate((nbytes + 7) / 8 * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; bb.remaining() >= 8; i++) {
            bb.putDouble(Math.sin(i * 0.001) * 100 + rnd.nextGaussian() * 0.01);
        }
        byte[] out = new byte[nbytes];
        System.arraycopy(bb.array(), 0, out, 0, nbytes);
        return out;
    }

    /** A slowly varying byte staircase with sparse noise: highly compressible by every codec. */
    static byte[] steps(int nbytes, long seed) {
        Random rnd = new Random(seed);
        byte[] b = new byte[nbytes];
        for (int i = 0; i < nbytes; i++) {
            b[i] = (byte) (i / 97 + (rnd.nextInt(50) == 0 ? 1 : 0));
        }
        return b;
    }
}
