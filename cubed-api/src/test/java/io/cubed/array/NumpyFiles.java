package io.cubed.array;

import static org.assertj.core.api.Assertions.fail;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.testing.ExternalTool;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Exchanging chunks with a NumPy script through raw little-endian files, for tests that cross-check against NumPy:
 * {@link #require} skips (fails under CI=true) without python3 and NumPy, {@link #write} and {@link #read} convert a
 * chunk to and from NumPy's {@code tofile} bytes, {@link #run} runs a script with a directory argument.
 */
final class NumpyFiles {
    private NumpyFiles() {}

    /** Skips the calling test (fails it under CI=true) unless {@code python3 -c "import numpy"} works. */
    static void require(String what) throws InterruptedException {
        String why;
        try {
            Process p = new ProcessBuilder("python3", "-c", "import numpy")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            why = p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0
                    ? null
                    : "python3 -c 'import numpy' failed: " + out.trim();
        } catch (IOException e) {
            why = "python3 is not on the PATH: " + e.getMessage();
        }
        ExternalTool.require(why == null, what + ": " + why);
    }

    /** NumPy's name of {@code t} with explicit little-endian byte order ({@code "<f8"}, {@code "|b1"}). */
    static String numpyType(DType t) {
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
    static byte[] bytes(Chunk c) {
        ByteBuffer bb = ByteBuffer.allocate(Math.toIntExact(c.nbytes())).order(ByteOrder.LITTLE_ENDIAN);
        Object d = c.data();
        if (d instanceof boolean[] b) {
            for (boolean v : b) {
                bb.put((byte) (v ? 1 : 0));
            }
        } else if (d instanceof byte[] b) {
            bb.put(b);
        } else if (d instanceof short[] s) {
            for (short v : s) {
                bb.putShort(v);
            }
        } else if (d instanceof int[] a) {
            for (int v : a) {
                bb.putInt(v);
            }
        } else if (d instanceof long[] a) {
            for (long v : a) {
                bb.putLong(v);
            }
        } else if (d instanceof float[] a) {
            for (float v : a) {
                bb.putInt(Float.floatToRawIntBits(v));
            }
        } else {
            for (double v : (double[]) d) {
                bb.putLong(Double.doubleToRawLongBits(v));
            }
        }
        return bb.array();
    }

    /** Writes {@code c} to {@code file} as NumPy's {@code tofile} would. */
    static void write(Chunk c, Path file) throws IOException {
        Files.write(file, bytes(c));
    }

    /** Runs {@code script} with python3, passing {@code dir}; fails the test with its output if it fails. */
    static void run(Path dir, String script) throws IOException, InterruptedException {
        Path file = dir.resolve("script.py");
        Files.writeString(file, script);
        Process p = new ProcessBuilder("python3", file.toString(), dir.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("python3 failed: " + out);
        }
    }
}
