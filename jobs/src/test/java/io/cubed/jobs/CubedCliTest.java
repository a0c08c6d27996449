package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import io.cubed.storage.zarr.Compressor;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CubedCliTest {
    @TempDir
    Path tmp;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @Test
    void everySubcommandHasHelpAsItsUsageErrorsSay() {
        CliRun bench = run("bench", "--help");
        assertThat(bench.code()).as(bench.err()).isZero();
        assertThat(bench.out())
                .contains("Usage: cubed bench")
                .contains("--store=STORE")
                .contains("memory-s3.md");
        CliRun missing = run("copy");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).contains("Usage: cubed copy --help");
        CliRun copy = run("copy", "--help");
        assertThat(copy.code()).as(copy.err()).isZero();
        assertThat(copy.out()).contains("Usage: cubed copy");
    }

    @Test
    void demoWritesCopiesAndVerifies() {
        CliRun r = run("demo", "--dir", tmp.toString(), "--size-mb", "4", "--chunk-mb", "1", "--threads", "2");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("all values equal").contains("488 x 1024 float64");
        ZarrArray out = ZarrArray.open(tmp.resolve("output.zarr").toString());
        assertThat(out.metadata().compressor()).isEqualTo(io.cubed.storage.zarr.Compressor.defaultCompressor());
        // Independent check of one element against the generator's formula (noise is below 0.01).
        Chunk first = out.readChunk(0, 0);
        double expected = 20 * Math.sin(0) * Math.cos(0) + 280;
        assertThat(first.doubles()[0]).isBetween(expected, expected + 0.01);
        double row100col7 = 20 * Math.sin(100 / 500.0) * Math.cos(7 / 300.0) + 280;
        assertThat(first.doubles()[100 * 1024 + 7]).isBetween(row100col7 - 1e-9, row100col7 + 0.01);
    }

    @Test
    void aDemoWhoseChunksBreakTheBudgetIsRefusedBeforeAnythingIsGenerated() {
        CliRun r = run(
                "demo",
                "--dir",
                tmp.toString(),
                "--size-mb",
                "3",
                "--chunk-mb",
                "60",
                "--threads",
                "1",
                "--allowed-mem",
                "150MB");
        assertThat(r.code()).as(r.err()).isEqualTo(2);
        assertThat(r.err())
                .contains("cubed: demo: copy of " + tmp.resolve("input.zarr"))
                .contains("needs 400.0 MB per task with the reserve, more than --allowed-mem 150.0 MB")
                .contains("or lower --chunk-mb (60)");
        assertThat(tmp.resolve("input.zarr")).doesNotExist();
        assertThat(tmp.resolve("output.zarr")).doesNotExist();
    }

    @Test
    void aPlanRefusedForItsMemoryIsAUsageErrorNamingTheFlag() {
        String src = tmp.resolve("stripes.zarr").toString();
        io.cubed.storage.zarr.ZarrArray.create(
                src,
                io.cubed.storage.zarr.ZarrCreateOptions.builder(
                                new long[] {200, 200}, new int[] {200, 10}, io.cubed.dtype.DType.FLOAT64)
                        .build());
        for (String[] args : new String[][] {
            {"rechunk", src, tmp.resolve("r.zarr").toString(), "--chunks", "10,200"},
            {"copy", src, tmp.resolve("c.zarr").toString(), "--dtype", "float32"}
        }) {
            java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of(args));
            all.addAll(java.util.List.of("--threads", "1", "--allowed-mem", "100.01MB"));
            CliRun r = run(all.toArray(new String[0]));
            assertThat(r.code()).as(r.err()).isEqualTo(2);
            assertThat(r.err())
                    .startsWith("cubed: " + args[0] + " " + src + " to " + args[2] + ": ")
                    .contains("allowedMem")
                    .endsWith("(allowedMem is --allowed-mem here)\n");
            assertThat(tmp.resolve(args[2])).doesNotExist();
        }
    }

    @Test
    void copyAndRechunkCarryTheSourcesAttributesInEitherVersion() throws Exception {
        String src = tmp.resolve("attrs.zarr").toString();
        io.cubed.storage.zarr.ZarrArray a = io.cubed.storage.zarr.ZarrArray.create(
                src,
                io.cubed.storage.zarr.ZarrCreateOptions.builder(
                                new long[] {4, 6}, new int[] {2, 3}, io.cubed.dtype.DType.INT16)
                        .build());
        java.util.Map<String, Object> attrs = new java.util.LinkedHashMap<>();
        attrs.put("_ARRAY_DIMENSIONS", java.util.List.of("y", "x"));
        attrs.put("units", "K");
        attrs.put("scale_factor", 0.01);
        attrs.put("title", "température");
        attrs.put("history", java.util.Map.of("steps", java.util.List.of(1L, 2L)));
        a.writeAttributes(attrs);
        java.util.Map<String, Object> own = new java.util.LinkedHashMap<>(attrs);
        own.remove("_ARRAY_DIMENSIONS");
        for (String[] args : new String[][] {
            {"copy", src, tmp.resolve("c2.zarr").toString()},
            {"copy", src, tmp.resolve("c3.zarr").toString(), "--zarr-format", "3"},
            {"copy", src, tmp.resolve("cf.zarr").toString(), "--dtype", "float32"},
            {"rechunk", src, tmp.resolve("r.zarr").toString(), "--chunks", "4,6"}
        }) {
            CliRun r = run(args);
            assertThat(r.code()).as(r.err()).isZero();
            io.cubed.storage.ChunkStore out =
                    io.cubed.storage.zarr.Zarr.open(args[2], io.cubed.storage.StoreOptions.empty());
            assertThat(io.cubed.storage.zarr.DimensionNames.read(out))
                    .as(args[2])
                    .containsExactly("y", "x");
            if (out instanceof io.cubed.storage.zarr.ZarrV3Array v3) {
                assertThat(v3.metadata().dimensionNames()).containsExactly("y", "x");
                assertThat(v3.attributes()).isEqualTo(own);
            } else {
                assertThat(((io.cubed.storage.zarr.ZarrArray) out).attributes())
                        .as(args[2])
                        .isEqualTo(attrs);
            }
        }
        // A v3 copy that carried attributes is still the copy --resume finishes.
        CliRun again = run("copy", src, tmp.resolve("c3.zarr").toString(), "--zarr-format", "3", "--resume");
        assertThat(again.code()).as(again.err()).isZero();
    }

    @Test
    void everySubcommandPrintsItsHelp() {
        CliRun copy = run("copy", "--help");
        assertThat(copy.code()).as(copy.err()).isZero();
        assertThat(copy.out()).contains("Usage: cubed copy").contains("--request-stats=FILE");
        CliRun bench = run("bench", "--help");
        assertThat(bench.code()).as(bench.err()).isZero();
        assertThat(bench.out())
                .contains("Usage: cubed bench")
                .contains("--location=s3a://BUCKET/PREFIX")
                .contains("--peer-url=URL");
    }

    @Test
    void copyRecompressesAndInfoDescribes() {
        assertThat(run("demo", "--dir", tmp.toString(), "--size-mb", "2", "--chunk-mb", "1")
                        .code())
                .isZero();
        String src = tmp.resolve("input.zarr").toString();
        String dst = tmp.resolve("zstd.zarr").toString();
        CliRun copy = run("copy", src, dst, "--codec", "zstd:3");
        assertThat(copy.code()).as(copy.err()).isZero();
        assertThat(copy.out()).contains("copied 2 of 2 chunks");
        ZarrArray a = ZarrArray.open(src);
        ZarrArray b = ZarrArray.open(dst);
        assertThat(b.readChunk(1, 0).contentEquals(a.readChunk(1, 0))).isTrue();
        CliRun info = run("info", dst);
        assertThat(info.code()).isZero();
        assertThat(info.out())
                .contains("shape:        [244, 1024]")
                .contains("{id=zstd, level=3}")
                .contains("2 written of 2");
        CliRun again = run("copy", src, dst);
        assertThat(again.code()).isEqualTo(2);
        assertThat(again.err()).contains("already holds a Zarr array; pass --overwrite to replace it");
    }

    @Test
    void copyResumesOnlyOntoTheArrayItWouldCreate() {
        assertThat(run("demo", "--dir", tmp.toString(), "--size-mb", "2", "--chunk-mb", "1")
                        .code())
                .isZero();
        String src = tmp.resolve("input.zarr").toString();
        String dst = tmp.resolve("zstd.zarr").toString();
        assertThat(run("copy", src, dst, "--codec", "zstd:3").code()).isZero();
        // One chunk lost: resuming copies that one only.
        ZarrArray b = ZarrArray.open(dst);
        assertThat(tmp.resolve("zstd.zarr/1.0").toFile().delete()).isTrue();
        CliRun resumed = run("copy", src, dst, "--codec", "zstd:3", "--resume");
        assertThat(resumed.code()).as(resumed.err()).isZero();
        assertThat(resumed.out()).contains("copied 1 of 2 chunks").contains("tasks: 1 run, 1 skipped");
        assertThat(b.readChunk(1, 0).contentEquals(ZarrArray.open(src).readChunk(1, 0)))
                .isTrue();
        // Another codec would write another array: refused, naming the URL and both metadata.
        CliRun other = run("copy", src, dst, "--codec", "zlib:1", "--resume");
        assertThat(other.code()).isEqualTo(2);
        assertThat(other.err())
                .startsWith("cubed: cannot resume the copy to " + dst + ": the array there is ")
                .contains("Zstd[level=3")
                .contains("Zlib[level=1]");
    }

    @Test
    void everyCommandPrintsItsHelpAndTheTopLevelListsThemAll() {
        for (String name : CubedCli.subcommandNames()) {
            // picocli reports a description it cannot format (a lone '%') on System.err, not on the run's writer.
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            PrintStream saved = System.err;
            CliRun r;
            System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
            try {
                r = run(name, "--help");
            } finally {
                System.setErr(saved);
            }
            assertThat(r.code()).as(name).isZero();
            assertThat(r.out()).as(name).startsWith("Usage: cubed " + name).contains("-h, --help");
            assertThat(r.err()).as(name).isEmpty();
            assertThat(stderr.toString(StandardCharsets.UTF_8)).as(name).isEmpty();
        }
        CliRun top = run("--help");
        assertThat(top.code()).isZero();
        String commands = top.out().substring(top.out().indexOf("Commands:"));
        int at = 0;
        for (String name : CubedCli.subcommandNames()) {
            int i = commands.indexOf("\n  " + name + " ", at);
            assertThat(i)
                    .as("%s listed after the ones before it in:%n%s", name, commands)
                    .isGreaterThan(at);
            at = i;
        }
        CliRun unknown = run("frobnicate");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).contains("frobnicate").contains("Usage: cubed --help");
        assertThat(run("copy", "--version").out()).contains("cubed 0.1.0");
    }

    @Test
    void errorsAreOneLineWithTheUrl() {
        CliRun r = run("info", tmp.resolve("nothing.zarr").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err())
                .startsWith("cubed: no Zarr array at ")
                .contains("nothing.zarr")
                .doesNotContain("\tat ");
        CliRun bad = run("copy", "a", "b", "--codec", "snappy");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("unknown codec 'snappy'");
        CliRun usage = run("info");
        assertThat(usage.code()).isEqualTo(2);
    }

    @Test
    void rechunkRowsToColumnsInStagesAndVerify() {
        String src = tmp.resolve("rows.zarr").toString();
        io.cubed.storage.zarr.ZarrArray rows = io.cubed.storage.zarr.ZarrArray.create(
                src,
                io.cubed.storage.zarr.ZarrCreateOptions.builder(
                                new long[] {40, 30}, new int[] {1, 30}, io.cubed.dtype.DType.FLOAT64)
                        .build());
        for (int i = 0; i < 40; i++) {
            Chunk c = Chunk.allocate(io.cubed.dtype.DType.FLOAT64, 1, 30);
            for (int j = 0; j < 30; j++) {
                c.doubles()[j] = 100.0 * i + j;
            }
            rows.writeChunk(c, i, 0);
        }
        String dst = tmp.resolve("cols.zarr").toString();
        String work = tmp.resolve("work").toString();
        CliRun dry = run(
                "rechunk",
                src,
                dst,
                "--chunks",
                "-1,1",
                "--allowed-mem",
                "2200B",
                "--reserved-mem",
                "0",
                "--work-dir",
                work,
                "--dry-run");
        assertThat(dry.code()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("rechunk (stage 1/").contains("read chunks [1, 30]");
        assertThat(tmp.resolve("cols.zarr")).doesNotExist();

        CliRun r = run(
                "rechunk",
                src,
                dst,
                "--chunks",
                "-1,1",
                "--allowed-mem",
                "2200B",
                "--reserved-mem",
                "0",
                "--work-dir",
                work,
                "--threads",
                "2");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("wrote " + dst);
        ZarrArray cols = ZarrArray.open(dst);
        assertThat(cols.metadata().chunks()).containsExactly(40, 1);
        for (int j = 0; j < 30; j++) {
            Chunk c = cols.readChunk(0, j);
            for (int i = 0; i < 40; i++) {
                assertThat(c.doubles()[i]).isEqualTo(100.0 * i + j);
            }
        }
        CliRun tooSmall = run(
                "rechunk",
                src,
                tmp.resolve("x.zarr").toString(),
                "--chunks",
                "-1,1",
                "--allowed-mem",
                "500B",
                "--reserved-mem",
                "0",
                "--work-dir",
                work);
        // Refused at plan time, before anything is written: a usage error, as the copy's budget refusal is.
        assertThat(tooSmall.code()).isEqualTo(2);
        assertThat(tooSmall.err()).contains("needs allowedMem of at least");
    }

    @Test
    void copyToOtherChunksAndDtypeWithinTheBudget() {
        String src = tmp.resolve("src.zarr").toString();
        ZarrArray a = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(new long[] {10, 7}, new int[] {2, 7}, DType.FLOAT64)
                        .compressor(new Compressor.Zstd(3, false))
                        .fillValue(Scalar.ofDouble(Double.NaN))
                        .build());
        for (int i = 0; i < 5; i++) {
            Chunk c = Chunk.allocate(DType.FLOAT64, new int[] {2, 7});
            for (int k = 0; k < 14; k++) {
                c.doubles()[k] = 10.0 * (2 * i + k / 7) + k % 7 + 0.25;
            }
            a.writeChunk(c, i, 0);
        }
        String dst = tmp.resolve("dst.zarr").toString();
        CliRun r = run(
                "copy",
                src,
                dst,
                "--chunks",
                "5,-1",
                "--dtype",
                "float32",
                "--codec",
                "zlib:1",
                "--threads",
                "2",
                "--work-dir",
                tmp.resolve("work").toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("to " + dst + " float32 in chunks [5, 7]");
        ZarrArray b = ZarrArray.open(dst);
        assertThat(b.metadata().chunks()).containsExactly(5, 7);
        assertThat(b.metadata().dtype()).isEqualTo(DType.FLOAT32);
        assertThat(b.metadata().compressor()).isEqualTo(new Compressor.Zlib(1));
        assertThat(b.metadata().fillValue().doubleValue()).isNaN();
        for (int i = 0; i < 2; i++) {
            float[] f = b.readChunk(i, 0).floats();
            for (int k = 0; k < 35; k++) {
                assertThat(f[k]).isEqualTo((float) (10.0 * (5 * i + k / 7) + k % 7 + 0.25));
            }
        }
        // A NaN fill value has no integer equivalent: refused before anything is written.
        refused(run("copy", src, tmp.resolve("int.zarr").toString(), "--dtype", "int32"), "fill value");
        assertThat(tmp.resolve("int.zarr")).doesNotExist();
        refused(run("copy", src, dst, "--chunks", "5,7", "--overwrite"), "--overwrite");
    }

    @Test
    void aSavedPlanResumesOnlyWhileTheArgumentsStillGiveIt() throws Exception {
        String src = tmp.resolve("rows.zarr").toString();
        ZarrArray rows = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(new long[] {8, 6}, new int[] {1, 6}, DType.FLOAT64)
                        .build());
        for (int i = 0; i < 8; i++) {
            Chunk c = Chunk.allocate(DType.FLOAT64, new int[] {1, 6});
            java.util.Arrays.fill(c.doubles(), i);
            rows.writeChunk(c, i, 0);
        }
        java.nio.file.Path plan = tmp.resolve("plan.json");
        String dst = tmp.resolve("cols.zarr").toString();
        CliRun first = run(
                "rechunk",
                src,
                dst,
                "--chunks",
                "-1,2",
                "--save-plan",
                plan.toString(),
                "--work-dir",
                tmp.resolve("work").toString());
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out()).contains("plan saved to " + plan);

        // Resumed when complete: everything is skipped.
        CliRun again = run("resume", plan.toString());
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(again.out()).containsPattern("tasks: 0 run, [1-9]\\d* skipped");
        assertThat(ZarrArray.open(dst).readChunk(0, 1).doubles())
                .containsExactly(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);

        // A saved plan the arguments no longer give (here: edited) is refused before anything runs.
        String json = java.nio.file.Files.readString(plan);
        java.nio.file.Files.writeString(plan, json.replaceFirst("\"op-(\\d+) +rechunk", "\"op-$1   copy"));
        refused(run("resume", plan.toString()), "differs from the saved one");
        refused(
                run("resume", tmp.resolve("none.json").toString()),
                "cannot read the plan file " + tmp.resolve("none.json") + ": no such file or directory");
        try {
            java.nio.file.Files.write(tmp.resolve("binary.json"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        refused(run("resume", tmp.resolve("binary.json").toString()), "it is not UTF-8 text");
    }

    /**
     * {@code copy --dtype} converts an integer fill value as it converts the elements, by NumPy's astype: the regions of
     * fill value then read as the converted elements would. NumPy: {@code numpy.array([300, -1], dtype="i2")
     * .astype("i1")} is {@code [44, -1]} and {@code .astype("u1")} is {@code [44, 255]}. Before, int8 300 and uint8
     * -1 went into the copy's .zarray as they were, a fill value of no int8 or uint8 array.
     */
    @Test
    void copyToANarrowerIntegerTypeWrapsTheFillValueAsItsElements() {
        String src = tmp.resolve("i16.zarr").toString();
        ZarrArray a = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.INT16)
                        .fillValue(Scalar.ofLong(300))
                        .build());
        // Chunk 1 is never written: it reads as the fill value, 300.
        a.writeChunk(Chunk.wrap(DType.INT16, new int[] {2}, new short[] {-1, 300}), 0);
        for (String[] to : new String[][] {{"int8", "44", "-1"}, {"uint8", "44", "255"}}) {
            String dst = tmp.resolve(to[0] + ".zarr").toString();
            CliRun r = run(
                    "copy",
                    src,
                    dst,
                    "--dtype",
                    to[0],
                    "--work-dir",
                    tmp.resolve("work").toString());
            assertThat(r.code()).as(r.err()).isZero();
            ZarrArray b = ZarrArray.open(dst);
            assertThat(b.metadata().fillValue()).isEqualTo(Scalar.ofLong(Long.parseLong(to[1])));
            long fill = Long.parseLong(to[1]);
            long minusOne = Long.parseLong(to[2]);
            assertThat(b.readRegion(new long[] {0}, new int[] {4}).toLongArray())
                    .containsExactly(minusOne, fill, fill, fill);
        }
    }

    /** The input was refused before anything was written (exit 2) with a message containing {@code messagePart}. */
    private static void refused(CliRun r, String messagePart) {
        assertThat(r.code()).as(r.out()).isEqualTo(2);
        assertThat(r.err()).contains(messagePart);
    }
}
