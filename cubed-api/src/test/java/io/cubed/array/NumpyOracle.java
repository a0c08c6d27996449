package io.cubed.array;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.testing.NumpyFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
        NumpyFiles.write(c, dir.resolve("in_" + i + ".bin"));
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
        NumpyFiles.run(dir, "oracle.py", SCRIPT, 300);
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
            results.add(NumpyFiles.chunk(t, shape, Files.readAllBytes(dir.resolve("out_" + i + ".bin"))));
        }
        return results;
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
