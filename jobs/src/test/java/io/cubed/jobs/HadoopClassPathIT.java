package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.dtype.DType;
import io.cubed.storage.zarr.ZarrArray;
import io.cubed.storage.zarr.ZarrCreateOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/cubed} puts Hadoop's client ({@code jobs/target/lib-hadoop}) on the class path only for the commands that
 * use it: a command on local paths starts without it, and runs; one that names a Hadoop file system (here {@code
 * hdfs://} on a port where nothing listens), a Hadoop client or backend, or is run with {@code CUBED_HADOOP=on} gets
 * it. Without it, a Hadoop URL fails with a message that says how to get it. The JVM prints its class path with
 * {@code -XshowSettings:properties}.
 */
class HadoopClassPathIT {
    @TempDir
    Path tmp;

    private String local;

    @BeforeEach
    void localArray() {
        local = tmp.resolve("a.zarr").toString();
        ZarrArray.create(
                local,
                ZarrCreateOptions.builder(new long[] {4}, new int[] {2}, DType.FLOAT64)
                        .build());
    }

    @Test
    void theBuildKeepsHadoopsClientApartFromTheCommandLinesJars() throws Exception {
        try (var lib = Files.list(Path.of("target", "lib"))) {
            assertThat(lib.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("hadoop-"));
        }
        try (var hadoop = Files.list(Path.of("target", "lib-hadoop"))) {
            assertThat(hadoop.map(p -> p.getFileName().toString()))
                    .anyMatch(n -> n.startsWith("hadoop-client-api-"))
                    .anyMatch(n -> n.startsWith("hadoop-client-runtime-"));
        }
    }

    @Test
    void aCommandOnLocalPathsStartsWithoutHadoop() throws Exception {
        BinCubed.Result r = run(Map.of(), "info", local);
        assertThat(r.code()).as(r.output()).isZero();
        assertThat(r.output()).contains("shape:").contains("lib/picocli-").doesNotContain("hadoop-client");
    }

    @Test
    void aHadoopUrlAClientOrTheEnvironmentBringHadoop() throws Exception {
        BinCubed.Result hdfs = run(Map.of(), "info", "hdfs://127.0.0.1:1/nothing.zarr");
        assertThat(hdfs.code()).as(hdfs.output()).isEqualTo(1);
        assertThat(hdfs.output())
                .contains("lib-hadoop/hadoop-client-api-")
                .contains("hdfs://127.0.0.1:1/nothing.zarr")
                .doesNotContain("needs Hadoop on the classpath");

        BinCubed.Result backend = run(Map.of(), "info", local, "--conf", "cubed.store.backend=hadoop");
        assertThat(backend.code()).as(backend.output()).isZero();
        assertThat(backend.output())
                .contains("lib-hadoop/hadoop-client-runtime-")
                .contains("shape:");

        BinCubed.Result env = run(Map.of("CUBED_HADOOP", "on"), "info", local);
        assertThat(env.code()).as(env.output()).isZero();
        assertThat(env.output()).contains("lib-hadoop/hadoop-client-api-");
    }

    @Test
    void withoutHadoopAHadoopUrlSaysHowToGetIt() throws Exception {
        Path jobs = Path.of("target").toAbsolutePath();
        List<String> cmd = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                jobs.resolve("cubed-jobs.jar") + java.io.File.pathSeparator + jobs.resolve("lib") + "/*",
                "io.cubed.jobs.CubedCli",
                "info",
                "hdfs://127.0.0.1:1/nothing.zarr");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isEqualTo(1);
        assertThat(out)
                .contains("opening 'hdfs://127.0.0.1:1/nothing.zarr' needs Hadoop on the classpath")
                .contains("CUBED_HADOOP=on");
    }

    private BinCubed.Result run(Map<String, String> env, String... args) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("CUBED_NO_BUILD", "1");
        all.put("CUBED_JAVA_OPTS", "-Xmx256m -XshowSettings:properties");
        Set<String> unset = new java.util.HashSet<>(Set.of("CUBED_HADOOP", "CUBED_CLASSPATH", "HADOOP_HOME"));
        unset.removeAll(env.keySet());
        return BinCubed.runWithout(tmp, unset, all, args);
    }
}
