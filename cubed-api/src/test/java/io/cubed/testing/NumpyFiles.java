package io.cubed.testing;

import static org.assertj.core.api.Assertions.fail;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Exchanging chunks with a NumPy script through raw little-endian files, for tests that cross-check against NumPy:
 * {@link #require} skips (fails under CI=true) without python3 and NumPy, {@link #bytes} and {@link #chunk} convert a
 * chunk to and from NumPy's {@code tofile} bytes, {@link #run} runs a script with a directory argument.
 */
public final class NumpyFiles {
    private NumpyFiles() {}

    /** Skips the calling test (fails it under CI=true) unless {@code python3 -c "import numpy"} works. */
    public static void require(String what) throws InterruptedException {
        require(what, "import numpy");
    }

    /** Skips the calling test (fails it under CI=true) unless {@code python3 -c check} works. */
    public static void require(String what, String check) throws InterruptedException {
        String why;
        try {
            Process p = new ProcessBuilder("python3", "-c", check)
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            why = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0
                    ? null
                    : "python3 -c '" + check + "' failed: " + out.trim();
        } catch (IOException e) {
            why = "python3 is not on the PATH: " + e.getMessage();
        }
        ExternalTool.require(why == null, what + ": " + why);
    }

    /** NumPy's name of {@code t} with explicit little-endian byte order ({@code "<f8"}, {@code "|b1"}). */
    public static String numpyType(DType t) {
        return switch (t) {
            case BOOL -> "|b1";
            case INT8 -> "|i1";
            case UINT8 -> "|u1";
            case INT16 -> "<i2";
            case UINT16 -> "<u2";
            case INT32 -> "<i4";
            case UINT32 -> "<u4";
            case INT64 -> "<i8";
            case UINT64 -> "<u8";
            case FLOAT32 -> "<f4";
            case FLOAT64 -> "<f8";
            case COMPLEX64 -> "<c8";
            case COMPLEX128 -> "<c16";
        };
    }

    /** The elements of {@code c} as NumPy's {@code tofile} writes them (C order, little-endian). */
    public static byte[] bytes(Chunk c) {
        Object data = c.data();
        int slots = java.lang.reflect.Array.getLength(data);
        ByteBuffer b = ByteBuffer.allocate(slots * c.dtype().slotSizeBytes()).order(ByteOrder.LITTLE_ENDIAN);
        if (data instanceof boolean[] z) {
            for (boolean v : z) {
                b.put((byte) (v ? 1 : 0));
            }
        } else if (data instanceof byte[] x) {
            b.put(x);
        } else if (data instanceof short[] x) {
            b.asShortBuffer().put(x);
        } else if (data instanceof int[] x) {
            b.asIntBuffer().put(x);
        } else if (data instanceof long[] x) {
            b.asLongBuffer().put(x);
        } else if (data instanceof float[] x) {
            b.asFloatBuffer().put(x);
        } else {
            b.asDoubleBuffer().put((double[]) data);
        }
        return b.array();
    }

    /** A chunk of {@code t} and {@code shape} from the bytes NumPy's {@code tofile} wrote (C order, little-endian). */
    public static Chunk chunk(DType t, int[] shape, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        Object data = t.newArray(Chunk.elementCount(shape));
        if (data instanceof boolean[] z) {
            for (int i = 0; i < z.length; i++) {
                z[i] = bytes[i] != 0;
            }
        } else if (data instanceof byte[] x) {
            b.get(x);
        } else if (data instanceof short[] x) {
            b.asShortBuffer().get(x);
        } else if (data instanceof int[] x) {
            b.asIntBuffer().get(x);
        } else if (data instanceof long[] x) {
            b.asLongBuffer().get(x);
        } else if (data instanceof float[] x) {
            b.asFloatBuffer().get(x);
        } else {
            b.asDoubleBuffer().get((double[]) data);
        }
        return Chunk.wrap(t, shape, data);
    }

    /** A one-dimensional chunk of {@code t} from all of {@code bytes}, as {@link #chunk(DType, int[], byte[])}. */
    public static Chunk chunk(DType t, byte[] bytes) {
        return chunk(t, new int[] {bytes.length / t.itemSizeBytes()}, bytes);
    }

    /** Writes {@code c} to {@code file} as NumPy's {@code tofile} would. */
    public static void write(Chunk c, Path file) throws IOException {
        Files.write(file, bytes(c));
    }

    /** Runs {@code script} with python3, passing {@code dir}; fails the test with its output if it fails. */
    public static void run(Path dir, String script) throws IOException, InterruptedException {
        run(dir, "script.py", script, 300);
    }

    /**
     * Writes {@code script} to {@code dir/name} and runs it with python3, passing {@code dir}; fails the test with its
     * output unless it exits 0 within {@code timeoutSeconds}.
     */
    public static void run(Path dir, String name, String script, long timeoutSeconds)
            throws IOException, InterruptedException {
        Path file = dir.resolve(name);
        Files.writeString(file, script);
        Process p = new ProcessBuilder("python3", file.toString(), dir.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("python3 failed: " + out);
        }
    }
}
