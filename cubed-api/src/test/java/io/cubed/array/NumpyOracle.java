package io.cubed.array;

import static org.assertj.core.api.Assertions.fail;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * NumPy as a test reference: input chunks are written as little-endian raw files, each case is a Python expression
 * over them ({@code x[0]}, {@code x[1]}, ...; {@code np} and {@code inf} are bound), and one {@code python3} process
 * evaluates every case and writes its result's dtype, shape and raw data back. {@link #require()} skips the calling test
 * (or fails it when {@code CI=true}) without python3 and NumPy.
 */
final class NumpyOracle {
    private final Path dir;
    private final List<String> inputs = new ArrayList<>();
    private final List<String> cases = new ArrayList<>();

    NumpyOracle(Path dir) {
        this.dir = dir;
    }

    /** Skips (or, in CI, fails) the calling test unless {@code python3 -c "import numpy"} works. */
    static void require() throws InterruptedException {
        NumpyFiles.require("NumPy cross-check");
    }

    /** Registers {@code c} as the next input, {@code x[i]} in the expressions; returns {@code i}. */
    int input(Chunk c) throws IOException {
        int i = inputs.size();
        Files.write(dir.resolve("in_" + i + ".bin"), toBytes(c));
        inputs.add("[\"" + c.dtype().typeName() + "\", " + Arrays.toString(c.shape()) + "]");
        return i;
    }

    /** Registers the Python expression {@code expr} as the next case; returns its index. */
    int add(String expr) {
        cases.add(expr);
        return cases.size() - 1;
    }

    /** NumPy's result of every case, in order, as chunks of NumPy's dtype and shape. */
    List<Chunk> run() throws IOException, InterruptedException {
        StringBuilder json = new StringBuilder("{\"inputs\": [");
        json.append(String.join(", ", inputs)).append("], \"cases\": [");
        for (int i = 0; i < cases.size(); i++) {
            json.append(i == 0 ? "" : ", ")
                    .append('"')
                    .append(cases.get(i).replace("\\", "\\\\").replace("\"", "\\\""))
                    .append('"');
        }
        json.append("]}");
        Files.writeString(dir.resolve("cases.json"), json);
        Path script = dir.resolve("oracle.py");
        Files.writeString(script, SCRIPT);
        Process p = new ProcessBuilder("python3", script.toString(), dir.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("python3 failed: " + out);
        }
        List<Chunk> results = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            String[] meta =
                    Files.readString(dir.resolve("out_" + i + ".txt")).trim().split(" ", -1);
            DType t = DType.fromName(meta[0]);
            int[] shape = meta.length < 2 || meta[1].isEmpty()
                    ? new int[0]
                    : Arrays.stream(meta[1].split(","))
                            .mapToInt(Integer::parseInt)
                            .toArray();
            results.add(fromBytes(t, shape, Files.readAllBytes(dir.resolve("out_" + i + ".bin"))));
        }
        return results;
    }

    static byte[] toBytes(Chunk c) {
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

    static Chunk fromBytes(DType t, int[] shape, byte[] bytes) {
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

    private static final String SCRIPT =
            """
            import json, os, sys, warnings
            import numpy as np

            warnings.simplefilter("ignore")
            d = sys.argv[1]
            with open(os.path.join(d, "cases.json")) as f:
                spec = json.load(f)
            x = []
            for i, (t, shape) in enumerate(spec["inputs"]):
                a = np.fromfile(os.path.join(d, "in_%d.bin" % i), dtype=np.dtype(t).newbyteorder("<"))
                x.append(a.astype(np.dtype(t)).reshape(shape))
            env = {"np": np, "x": x, "inf": np.inf}
            for i, expr in enumerate(spec["cases"]):
                r = np.asarray(eval(expr, env)).copy(order="C")
                r.astype(r.dtype.newbyteorder("<")).tofile(os.path.join(d, "out_%d.bin" % i))
                with open(os.path.join(d, "out_%d.txt" % i), "w") as f:
                    f.write(r.dtype.name + " " + ",".join(str(s) for s in r.shape))
            """;
}
