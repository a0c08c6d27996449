package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cubed.Cubed;
import io.cubed.plan.Spec;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.zarr.StoredArrays;
import io.cubed.storage.zarr.ZarrArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cubed quadratic-means} (and {@code rechunk --history}) against a plain Java reference loop. */
class QuadraticMeansCommandTest {
    @TempDir
    Path tmp;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    /** mean over rows of (u - column mean of u)^2 + (v - column mean of v)^2, by loops. */
    static double[] reference(double[][] u, double[][] v) {
        int rows = u.length;
        int cols = u[0].length;
        double[] out = new double[cols];
        for (int j = 0; j < cols; j++) {
            double mu = 0;
            double mv = 0;
            for (int i = 0; i < rows; i++) {
                mu += u[i][j];
                mv += v[i][j];
            }
            mu /= rows;
            mv /= rows;
            double s = 0;
            for (int i = 0; i < rows; i++) {
                s += (u[i][j] - mu) * (u[i][j] - mu) + (v[i][j] - mv) * (v[i][j] - mv);
            }
            out[j] = s / rows;
        }
        return out;
    }

    private String write(String name, double[][] data, int[] chunks) {
        int rows = data.length;
        int cols = data[0].length;
        String url = tmp.resolve(name).toString();
        StoredArrays.float64(url, rows, cols, chunks, StoreOptions.empty(), (i, j) -> data[(int) i][(int) j]);
        return url;
    }

    private static double[] readResult(String url) {
        ZarrArray z = ZarrArray.open(url);
        assertThat(z.metadata().shape()).hasSize(1);
        double[] out = new double[(int) z.metadata().shape()[0]];
        for (long c = 0; c < z.grid().numChunks(); c++) {
            long[] coords = z.grid().chunkCoordsOf(c);
            double[] d = z.readChunk(coords).toDoubleArray();
            System.arraycopy(d, 0, out, (int) z.grid().chunkOffset(coords)[0], d.length);
        }
        return out;
    }

    @Test
    void givenArraysMatchTheReferenceLoopAndTheHistoryIsWritten() throws Exception {
        int rows = 11;
        int cols = 5;
        double[][] u = new double[rows][cols];
        double[][] v = new double[rows][cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                u[i][j] = i * i - 3.5 * j;
                v[i][j] = Math.sin(i + 0.3 * j) * 10;
            }
        }
        String uUrl = write("u.zarr", u, new int[] {4, 2});
        String vUrl = write("v.zarr", v, new int[] {4, 2});
        String out = tmp.resolve("qm.zarr").toString();
        Path hist = tmp.resolve("history");
        CliRun r = run(
                "quadratic-means",
                out,
                "--u",
                uUrl,
                "--v",
                vUrl,
                "--threads",
                "2",
                "--allowed-mem",
                "200MB",
                "--work-dir",
                tmp.resolve("work").toString(),
                "--history",
                hist.toString());
        assertThat(r.code()).as(r.err()).isZero();
        double[] expected = reference(u, v);
        assertThat(readResult(out)).containsExactly(expected, within(1e-9));
        assertThat(r.out()).contains("wrote " + out + " [5] float64").contains("over 5 columns");
        List<String> tasks = Files.readAllLines(hist.resolve("tasks.csv"));
        List<String> ops = Files.readAllLines(hist.resolve("operations.csv"));
        assertThat(tasks.get(0)).startsWith("compute_id,operation_id,operation_name,task_index");
        // Every operation's task count is what it recorded, and the task rows add up to the total.
        long total = 0;
        for (String line : ops.subList(1, ops.size())) {
            String[] f = line.split(",");
            assertThat(f[f.length - 10]).as(line).isEqualTo(f[f.length - 9]);
            total += Long.parseLong(f[f.length - 9]);
        }
        assertThat(ops).hasSizeGreaterThan(1);
        assertThat(tasks).hasSize((int) total + 1);
        assertThat(Files.readString(hist.resolve("timeline.svg"))).contains("class=\"op-band\"");
    }

    @Test
    void generatedArraysMatchTheReferenceLoopOnTheSameRandomNumbers() {
        String out = tmp.resolve("gen.zarr").toString();
        CliRun r = run(
                "quadratic-means",
                out,
                "--shape",
                "30,4",
                "--chunks",
                "7,3",
                "--seed",
                "5",
                "--threads",
                "2",
                "--work-dir",
                tmp.resolve("work").toString());
        assertThat(r.code()).as(r.err()).isZero();
        Spec spec = Spec.builder().workDir(tmp.resolve("w2").toString()).build();
        double[] uf = Cubed.random(new long[] {30, 4}, new int[] {30, 4}, 5, spec)
                .compute()
                .toDoubleArray();
        double[] vf = Cubed.random(new long[] {30, 4}, new int[] {30, 4}, 6, spec)
                .compute()
                .toDoubleArray();
        double[][] u = new double[30][4];
        double[][] v = new double[30][4];
        for (int i = 0; i < 30; i++) {
            for (int j = 0; j < 4; j++) {
                u[i][j] = uf[i * 4 + j];
                v[i][j] = vf[i * 4 + j];
            }
        }
        double[] expected = reference(u, v);
        // Uniform [0, 1): each variance is about 1/12, the sum of two about 1/6.
        for (double x : expected) {
            assertThat(x).isBetween(0.05, 0.3);
        }
        assertThat(readResult(out)).containsExactly(expected, within(1e-12));
    }

    @Test
    void mismatchedShapesAreAClearErrorAndWriteNothing() {
        String uUrl = write("u.zarr", new double[][] {{1, 2}, {3, 4}}, new int[] {1, 2});
        String vUrl = write("v.zarr", new double[][] {{1, 2, 3}, {3, 4, 5}}, new int[] {1, 3});
        String out = tmp.resolve("never.zarr").toString();
        CliRun r = run("quadratic-means", out, "--u", uUrl, "--v", vUrl);
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .contains("quadratic-means: --u " + uUrl + " has shape [2, 2] but --v " + vUrl + " has shape [2, 3]");
        assertThat(Files.exists(Path.of(out))).isFalse();
        CliRun half = run("quadratic-means", out, "--u", uUrl);
        assertThat(half.code()).isEqualTo(2);
        assertThat(half.err()).contains("give both --u and --v or neither (got --u " + uUrl + ")");
        assertThat(Files.exists(Path.of(out))).isFalse();
    }

    @Test
    void rechunkWritesItsHistory() throws Exception {
        double[][] a = new double[6][4];
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 4; j++) {
                a[i][j] = 10 * i + j;
            }
        }
        String src = write("a.zarr", a, new int[] {1, 4});
        String dst = tmp.resolve("b.zarr").toString();
        Path hist = tmp.resolve("rh");
        CliRun r = run(
                "rechunk",
                src,
                dst,
                "--chunks",
                "6,1",
                "--threads",
                "1",
                "--work-dir",
                tmp.resolve("work").toString(),
                "--history",
                hist.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(ZarrArray.open(dst).readChunk(0, 3).toDoubleArray()).containsExactly(3, 13, 23, 33, 43, 53);
        // One copy stage; within the budget its one task reads and writes the whole 6 x 4 float64 array (192 bytes).
        List<String> tasks = Files.readAllLines(hist.resolve("tasks.csv"));
        assertThat(tasks).hasSize(2);
        String[] f = tasks.get(1).split(",");
        assertThat(f[f.length - 5]).isEqualTo("192");
        assertThat(f[f.length - 4]).isEqualTo("192");
        assertThat(r.out()).contains("history: " + hist.resolve("tasks.csv"));
    }
}
