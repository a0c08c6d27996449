package io.cubed.jobs.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.apache.spark.launcher.JavaModuleOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded jar's manifest: {@code java -jar cubed-jobs-spark.jar} runs the command line, and the manifest opens
 * every package Spark's own launcher opens on Java 17 ({@link JavaModuleOptions#defaultModuleOptions()}), so that a
 * JVM started with {@code java -jar} needs no {@code --add-opens} flags. Spark is not inside the jar (spark-submit
 * provides it), so {@code --executor spark} from the bare jar must fail with a clear error and write nothing.
 */
class JarManifestIT {
    @TempDir
    Path tmp;

    @Test
    void manifestOpensEveryPackageSparksLauncherOpens() throws Exception {
        Manifest m;
        try (JarFile jar = new JarFile(SparkSubmitProcess.jobsJar().toFile())) {
            m = jar.getManifest();
        }
        assertThat(m.getMainAttributes().getValue("Main-Class")).isEqualTo("io.cubed.jobs.CubedCli");
        List<String> opens =
                Arrays.asList(m.getMainAttributes().getValue("Add-Opens").trim().split("\\s+"));
        String exportsAttr = m.getMainAttributes().getValue("Add-Exports");
        List<String> exports = exportsAttr == null
                ? List.of()
                : Arrays.asList(exportsAttr.trim().split("\\s+"));
        List<String> wantedOpens = new ArrayList<>();
        List<String> wantedExports = new ArrayList<>();
        for (String option : JavaModuleOptions.defaultModuleOptions().split("\\s+")) {
            if (option.startsWith("--add-opens=")) {
                wantedOpens.add(target(option));
            } else if (option.startsWith("--add-exports=")) {
                wantedExports.add(target(option));
            }
        }
        assertThat(wantedOpens)
                .contains("java.base/java.nio", "java.base/sun.nio.ch")
                .hasSizeGreaterThan(10);
        assertThat(opens).containsAll(wantedOpens);
        assertThat(exports).containsAll(wantedExports);
    }

    /** {@code java.base/java.nio} of {@code --add-opens=java.base/java.nio=ALL-UNNAMED}. */
    private static String target(String option) {
        String value = option.substring(option.indexOf('=') + 1);
        assertThat(value).endsWith("=ALL-UNNAMED");
        return value.substring(0, value.lastIndexOf('='));
    }

    private record Run(int code, String output) {}

    private Run javaJar(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.add("-jar");
        cmd.add(SparkSubmitProcess.jobsJar().toString());
        cmd.addAll(List.of(args));
        Path log = Files.createTempFile(tmp, "java-jar", ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("CUBED_"));
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("java -jar finished").isTrue();
        return new Run(p.exitValue(), Files.readString(log));
    }

    @Test
    void javaJarRunsTheCommandLineAndNamesMissingSpark() throws Exception {
        String src = tmp.resolve("a.zarr").toString();
        ZarrArray a = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.FLOAT64)
                        .build());
        a.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {2}, new double[] {1.5, -2}), 1);

        Run version = javaJar("--version");
        assertThat(version.code()).as(version.output()).isZero();
        assertThat(version.output()).contains("cubed 0.1.0-SNAPSHOT");

        String dst = tmp.resolve("b.zarr").toString();
        Run local = javaJar("copy", src, dst, "--threads", "1");
        assertThat(local.code()).as(local.output()).isZero();
        assertThat(local.output()).contains("copied 1 of 2 chunks");
        assertThat(ZarrArray.open(dst).readChunk(1).doubles()).containsExactly(1.5, -2);

        String noSpark = tmp.resolve("c.zarr").toString();
        Run spark = javaJar("copy", src, noSpark, "--executor", "spark");
        assertThat(spark.code()).as(spark.output()).isEqualTo(2);
        assertThat(spark.output())
                .contains("cubed: copy: executor 'spark' (from option --executor) needs Spark, which is not on the"
                        + " classpath")
                .contains("org/apache/spark");
        assertThat(Files.exists(Path.of(noSpark))).isFalse();
    }

    /**
     * {@code java -jar} reads and writes every codec (zstd-jni, lz4-java and commons-compress are in the jar) and, with
     * no logging provider outside Spark, shows progress on standard error.
     */
    @Test
    void javaJarReadsAndWritesEveryCodec() throws Exception {
        String src = tmp.resolve("src.zarr").toString();
        ZarrArray a = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(new long[] {6, 4}, new int[] {3, 4}, DType.FLOAT64)
                        .compressor(io.cubed.storage.zarr.Compressor.parseSpec("zstd:1"))
                        .build());
        a.writeChunk(
                Chunk.wrap(
                        DType.FLOAT64,
                        new int[] {3, 4},
                        java.util.stream.DoubleStream.iterate(0.5, d -> d + 1)
                                .limit(12)
                                .toArray()),
                0,
                0);
        a.writeChunk(
                Chunk.wrap(
                        DType.FLOAT64,
                        new int[] {3, 4},
                        java.util.stream.DoubleStream.iterate(12.5, d -> d + 1)
                                .limit(12)
                                .toArray()),
                1,
                0);
        for (String codec : List.of(
                "none",
                "zlib:1",
                "gzip:1",
                "zstd:3",
                "lz4",
                "bz2:1",
                "blosc:lz4:5:1",
                "blosc:zstd:3:2",
                "blosc:blosclz:5:0")) {
            String dst = tmp.resolve("c-" + codec.replace(':', '-') + ".zarr").toString();
            Run r = javaJar("copy", src, dst, "--codec", codec);
            assertThat(r.code()).as(codec + ": " + r.output()).isZero();
            double[] v = ZarrArray.open(dst)
                    .readRegion(new long[] {0, 0}, new int[] {6, 4})
                    .doubles();
            for (int i = 0; i < 24; i++) {
                assertThat(v[i]).as(codec).isEqualTo(i + 0.5);
            }
        }
        String cols = tmp.resolve("cols.zarr").toString();
        Run rechunk = javaJar("rechunk", src, cols, "--chunks", "6,1", "--codec", "blosc:lz4:5:1");
        assertThat(rechunk.code()).as(rechunk.output()).isZero();
        assertThat(rechunk.output()).contains("progress: op-").doesNotContain("SLF4J");
        assertThat(ZarrArray.open(cols).readChunk(0, 3).doubles()).containsExactly(3.5, 7.5, 11.5, 15.5, 19.5, 23.5);
    }

    /**
     * A JVM without a codec's library (here: the command line's jars without zstd-jni) refuses to write with that codec
     * before anything is written, in one line naming the array and the missing library.
     */
    @Test
    void aCodecWhoseLibraryIsMissingIsRefusedBeforeAnythingIsWritten() throws Exception {
        String src = tmp.resolve("in.zarr").toString();
        ZarrArray a = ZarrArray.create(
                src,
                ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.FLOAT64)
                        .compressor(io.cubed.storage.zarr.Compressor.parseSpec("zlib:1"))
                        .build());
        a.writeChunk(Chunk.wrap(DType.FLOAT64, new int[] {2}, new double[] {1, 2}), 0);
        Path target = Path.of("target").toAbsolutePath();
        List<String> cp =
                new ArrayList<>(List.of(target.resolve("cubed-jobs.jar").toString()));
        try (java.util.stream.Stream<Path> lib = Files.list(target.resolve("lib"))) {
            lib.filter(p -> !p.getFileName().toString().startsWith("zstd-jni")).forEach(p -> cp.add(p.toString()));
        }
        String dst = tmp.resolve("zstd.zarr").toString();
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                String.join(java.io.File.pathSeparator, cp),
                "io.cubed.jobs.CubedCli",
                "copy",
                src,
                dst,
                "--codec",
                "zstd:1");
        Path log = Files.createTempFile(tmp, "no-zstd", ".log");
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = Files.readString(log);
        assertThat(p.exitValue()).as(out).isEqualTo(1);
        assertThat(out)
                .contains("cubed: cannot write " + dst + " with the zstd codec: its library cannot be loaded")
                .contains("com/github/luben/zstd");
        assertThat(Path.of(dst)).as("nothing written").doesNotExist();
    }
}
