package io.cubed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.SpecConfig.Source;
import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.MemorySize;
import io.cubed.plan.Spec;
import io.cubed.runtime.LocalExecutor;
import io.cubed.storage.StoreOptions;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecConfigTest {
    @TempDir
    Path tmp;

    private Path file(String name, String text) throws Exception {
        Path p = tmp.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    private static SpecConfig.Loader bare() {
        return SpecConfig.loader().classLoader(null);
    }

    @Test
    void defaultsWhenNoSourceSaysAnything() {
        SpecConfig c = bare().load();
        assertThat(c.allowedMem()).isEqualTo(MemorySize.parse("2GB"));
        assertThat(c.reservedMem()).isEqualTo(MemorySize.parse("100MB"));
        assertThat(c.executor()).isEqualTo("local");
        assertThat(c.threads()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(c.maxAttempts()).isEqualTo(3);
        assertThat(c.keepIntermediates()).isFalse();
        assertThat(c.intermediateCodec()).isEqualTo("auto");
        assertThat(c.workDir())
                .isEqualTo(Path.of(System.getProperty("java.io.tmpdir"), "cubed-" + System.getProperty("user.name"))
                        .toString());
        assertThat(c.get(SpecConfig.ALLOWED_MEM).source()).isEqualTo(Source.DEFAULT);
        assertThat(c.storeOptions()).isEqualTo(StoreOptions.empty());
        assertThat(c.configFile()).isNull();
    }

    @Test
    void theDefaultWorkDirectoryIsOnePerUserAndOwnerOnly() throws Exception {
        String tmpdir = System.getProperty("java.io.tmpdir");
        String user = System.getProperty("user.name");
        try {
            System.setProperty("java.io.tmpdir", tmp.toString());
            System.setProperty("user.name", "ann o'neil");
            io.cubed.plan.Spec spec = bare().load().toSpec();
            Path dir = tmp.resolve("cubed-ann_o_neil");
            assertThat(spec.workDir()).isEqualTo(dir.toString());
            assertThat(Files.isDirectory(dir)).isTrue();
            assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
                    .isEqualTo("rwx------");
            // Another user gets another directory.
            System.setProperty("user.name", "bob");
            assertThat(bare().load().toSpec().workDir())
                    .isEqualTo(tmp.resolve("cubed-bob").toString());
        } finally {
            System.setProperty("java.io.tmpdir", tmpdir);
            System.setProperty("user.name", user);
        }
    }

    @Test
    void aWorkDirectoryThatCannotBeWrittenIsRefusedNamingTheSettingAndHowToChangeIt() throws Exception {
        Path file = file("not-a-dir", "x");
        String bad = file.resolve("work").toString();
        assertThatThrownBy(() -> bare().option(SpecConfig.WORK_DIR, bad).load().toSpec())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageStartingWith("workDir '" + bad + "' cannot be written: ")
                .hasMessageContaining("(workDir from option --work-dir); choose a writable directory with --work-dir"
                        + " DIR, the environment variable CUBED_WORK_DIR");
        assertThatThrownBy(() ->
                        bare().environment(Map.of("CUBED_WORK_DIR", bad)).load().toSpec())
                .hasMessageContaining("(workDir from environment variable CUBED_WORK_DIR)");
    }

    @Test
    void programDefaultsAreBelowEverySource() {
        SpecConfig c = bare().defaultValue("allowedMem", "1GB").load();
        assertThat(c.allowedMem()).isEqualTo(MemorySize.parse("1GB"));
        SpecConfig e = bare().defaultValue("allowedMem", "1GB")
                .environment(Map.of("CUBED_ALLOWED_MEM", "3GB"))
                .load();
        assertThat(e.allowedMem()).isEqualTo(MemorySize.parse("3GB"));
    }

    @Test
    void propertiesFileNamedOnTheCommandLine() throws Exception {
        Path p = file(
                "my.properties",
                "workDir=" + tmp.resolve("w").toString().replace("\\", "/")
                        + "\nallowedMem = 1500MB\nreservedMem=50MB\n"
                        + "executor=local\nthreads=3\nmaxAttempts=5\noptimize=false\nkeepIntermediates=true\n"
                        + "store.retry.attempts=2\nstore.retry.baseDelayMs=10\nstore.fs.s3a.endpoint=http://127.0.0.1:9\n");
        SpecConfig c = bare().configFile(p).load();
        assertThat(c.allowedMem().bytes()).isEqualTo(1_500_000_000L);
        assertThat(c.reservedMem().bytes()).isEqualTo(50_000_000L);
        assertThat(c.threads()).isEqualTo(3);
        assertThat(c.maxAttempts()).isEqualTo(5);
        assertThat(c.optimize()).isFalse();
        assertThat(c.keepIntermediates()).isTrue();
        assertThat(c.configFile()).isEqualTo(p.toString());
        assertThat(c.get("allowedMem").source()).isEqualTo(Source.PROPERTIES_FILE);
        assertThat(c.get("allowedMem").origin()).isEqualTo("properties file " + p + ", key allowedMem");
        assertThat(c.storeOptions().asMap())
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        "fs.s3a.endpoint", "http://127.0.0.1:9",
                        "cubed.store.retry.attempts", "2",
                        "cubed.store.retry.base-delay-ms", "10"));

        Spec spec = c.toSpec();
        assertThat(spec.workDir()).isEqualTo(tmp.resolve("w").toString().replace("\\", "/"));
        assertThat(spec.allowedMem().bytes()).isEqualTo(1_500_000_000L);
        assertThat(spec.reservedMem().bytes()).isEqualTo(50_000_000L);
        assertThat(spec.optimize()).isFalse();
        assertThat(spec.keepIntermediates()).isTrue();
        assertThat(spec.storeOptions().get("fs.s3a.endpoint")).isEqualTo("http://127.0.0.1:9");
        LocalExecutor ex = (LocalExecutor) spec.executor();
        assertThat(ex.threads()).isEqualTo(3);
        assertThat(ex.maxAttempts()).isEqualTo(5);
    }

    @Test
    void propertiesFileFromTheClasspathOrNamedByEnvironmentOrSparkConf() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("cp"));
        Files.writeString(dir.resolve("cubed.properties"), "allowedMem=700MB\n");
        try (URLClassLoader cl = new URLClassLoader(new URL[] {dir.toUri().toURL()}, null)) {
            SpecConfig c = SpecConfig.loader().classLoader(cl).load();
            assertThat(c.allowedMem().bytes()).isEqualTo(700_000_000L);
            assertThat(c.configFile()).endsWith("cp/cubed.properties");

            Path named = file("named.properties", "allowedMem=800MB\n");
            SpecConfig e = SpecConfig.loader()
                    .classLoader(cl)
                    .environment(Map.of("CUBED_CONFIG", named.toString()))
                    .load();
            assertThat(e.allowedMem().bytes()).isEqualTo(800_000_000L);
            assertThat(e.configFile()).isEqualTo(named.toString());

            Path viaSpark = file("spark.properties", "allowedMem=900MB\n");
            SpecConfig s = SpecConfig.loader()
                    .classLoader(cl)
                    .sparkConf(Map.of("spark.cubed.config", viaSpark.toString()))
                    .load();
            assertThat(s.allowedMem().bytes()).isEqualTo(900_000_000L);
            // --config beats CUBED_CONFIG beats spark.cubed.config
            SpecConfig both = SpecConfig.loader()
                    .classLoader(cl)
                    .configFile(viaSpark)
                    .environment(Map.of("CUBED_CONFIG", named.toString()))
                    .load();
            assertThat(both.allowedMem().bytes()).isEqualTo(900_000_000L);
        }
    }

    @Test
    void sparkConfEntries() {
        Map<String, String> conf = Map.of(
                "spark.master", "local[2]",
                "spark.executor.memory", "4g",
                "spark.cubed.allowedMem", "600MB",
                "spark.cubed.executor", "SPARK",
                "spark.cubed.store.fs.s3a.path.style.access", "true");
        SpecConfig c = bare().sparkConf(conf).load();
        assertThat(c.allowedMem().bytes()).isEqualTo(600_000_000L);
        assertThat(c.executor()).isEqualTo("spark");
        assertThat(c.get("executor").origin()).isEqualTo("Spark conf spark.cubed.executor");
        assertThat(c.storeOptions().get("fs.s3a.path.style.access")).isEqualTo("true");
        assertThatThrownBy(c::specBuilder)
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("executor 'spark' (from Spark conf spark.cubed.executor) needs Spark");
    }

    @Test
    void environmentVariables() {
        Map<String, String> env = Map.of(
                "CUBED_WORK_DIR", tmp.toString(),
                "CUBED_ALLOWED_MEM", "512MB",
                "CUBED_RESERVED_MEM", "12MB",
                "CUBED_THREADS", "2",
                "CUBED_STORE_RETRY_BASE_DELAY_MS", "0",
                "CUBED_JAVA_OPTS", "-Xmx1g",
                "PATH", "/usr/bin");
        SpecConfig c = bare().environment(env).load();
        assertThat(c.workDir()).isEqualTo(tmp.toString());
        assertThat(c.allowedMem().bytes()).isEqualTo(512_000_000L);
        assertThat(c.reservedMem().bytes()).isEqualTo(12_000_000L);
        assertThat(c.threads()).isEqualTo(2);
        assertThat(c.storeOptions().asMap()).containsExactly(Map.entry("cubed.store.retry.base-delay-ms", "0"));
        assertThat(c.get("threads").origin()).isEqualTo("environment variable CUBED_THREADS");
    }

    @Test
    void precedenceOptionOverEnvironmentOverSparkConfOverFileOverDefault() throws Exception {
        Path p = file("c.properties", "allowedMem=1GB\nthreads=1\nstore.a=file\nstore.b=file\nstore.c=file\n");
        Map<String, String> spark = Map.of(
                "spark.cubed.allowedMem",
                "2GB",
                "spark.cubed.threads",
                "2",
                "spark.cubed.store.b",
                "spark",
                "spark.cubed.store.c",
                "spark");
        Map<String, String> env = Map.of("CUBED_ALLOWED_MEM", "3GB", "CUBED_THREADS", "3");
        SpecConfig all = bare().configFile(p)
                .sparkConf(spark)
                .environment(env)
                .option("allowedMem", "4GB")
                .storeOptions(Map.of("c", "option"))
                .load();
        assertThat(all.allowedMem()).isEqualTo(MemorySize.parse("4GB"));
        assertThat(all.get("allowedMem").source()).isEqualTo(Source.COMMAND_LINE);
        assertThat(all.get("allowedMem").origin()).isEqualTo("option --allowed-mem");
        assertThat(all.threads()).isEqualTo(3);
        assertThat(all.get("threads").source()).isEqualTo(Source.ENVIRONMENT);
        assertThat(all.storeOptions().asMap())
                .containsExactlyInAnyOrderEntriesOf(Map.of("a", "file", "b", "spark", "c", "option"));
        assertThat(all.storeOptionValues().get("b").source()).isEqualTo(Source.SPARK_CONF);

        SpecConfig noOption =
                bare().configFile(p).sparkConf(spark).environment(env).load();
        assertThat(noOption.allowedMem()).isEqualTo(MemorySize.parse("3GB"));
        SpecConfig noEnv = bare().configFile(p).sparkConf(spark).load();
        assertThat(noEnv.allowedMem()).isEqualTo(MemorySize.parse("2GB"));
        assertThat(noEnv.get("allowedMem").source()).isEqualTo(Source.SPARK_CONF);
        SpecConfig fileOnly = bare().configFile(p).load();
        assertThat(fileOnly.allowedMem()).isEqualTo(MemorySize.parse("1GB"));
        assertThat(fileOnly.get("reservedMem").source()).isEqualTo(Source.DEFAULT);

        String described = all.describe();
        assertThat(described).containsPattern("\nallowedMem +=  ?4GB  \\(option --allowed-mem\\)");
        assertThat(described).containsPattern("\nstore.b +=  ?spark  \\(Spark conf spark.cubed.store.b\\)");
        assertThat(described).contains("config file: " + p);
    }

    @Test
    void badValuesNameTheKeyTheSourceAndTheValue() throws Exception {
        assertThatThrownBy(() ->
                        bare().environment(Map.of("CUBED_ALLOWED_MEM", "lots")).load())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageStartingWith(
                        "setting allowedMem from environment variable CUBED_ALLOWED_MEM: 'lots' is not a memory size");
        assertThatThrownBy(() ->
                        bare().sparkConf(Map.of("spark.cubed.executor", "yarn")).load())
                .hasMessage("setting executor from Spark conf spark.cubed.executor: 'yarn' must be local or spark");
        Path p = file("bad.properties", "threads=0\n");
        assertThatThrownBy(() -> bare().configFile(p).load())
                .hasMessage("setting threads from properties file " + p + ", key threads: '0' must be at least 1");
        assertThatThrownBy(() -> bare().option("optimize", "yes").load())
                .hasMessage("setting optimize from option --optimize: 'yes' must be true or false");
        assertThatThrownBy(() -> bare().storeOptions(Map.of("cubed.store.retry.attempts", "x"))
                        .load())
                .hasMessage("setting store.retry.attempts from option --conf cubed.store.retry.attempts: 'x' is not an"
                        + " integer");
        assertThatThrownBy(() -> bare().environment(Map.of("CUBED_STORE_RETRY_BASE_DELAY_MS", "-1"))
                        .load())
                .hasMessageContaining("store.retry.baseDelayMs")
                .hasMessageContaining("'-1' must be at least 0");
        assertThatThrownBy(() -> bare().option("workDir", " ").load()).hasMessageContaining("must not be empty");
        assertThatThrownBy(() -> bare().environment(Map.of("CUBED_INTERMEDIATE_CODEC", "snappy"))
                        .load())
                .hasMessageStartingWith("setting intermediateCodec from environment variable CUBED_INTERMEDIATE_CODEC:"
                        + " 'snappy' is not auto or a codec spec (")
                .hasMessageContaining("snappy");
        assertThat(bare().sparkConf(Map.of("spark.cubed.intermediateCodec", "ZSTD:3"))
                        .load()
                        .intermediateCodec())
                .isEqualTo("zstd:3");
        // Read by the Spark executor itself: neither refused as unknown nor a setting of the spec.
        assertThat(bare().sparkConf(Map.of("spark.cubed.tasksPerPartition", "4"))
                        .load()
                        .intermediateCodec())
                .isEqualTo("auto");
    }

    @Test
    void unknownKeysFailInsteadOfFallingBackToADefault() throws Exception {
        Path p = file("typo.properties", "alowedMem=1GB\n");
        assertThatThrownBy(() -> bare().configFile(p).load())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageStartingWith("unknown setting 'alowedMem' (value '1GB') in properties file " + p)
                .hasMessageContaining("allowedMem");
        assertThatThrownBy(() ->
                        bare().sparkConf(Map.of("spark.cubed.workdir", "/x")).load())
                .hasMessageStartingWith("unknown setting 'spark.cubed.workdir' (value '/x') in the Spark conf")
                .hasMessageContaining("spark.cubed.workDir");
        assertThatThrownBy(() -> bare().environment(Map.of("CUBED_MEM", "1GB")).load())
                .hasMessageStartingWith("unknown setting 'CUBED_MEM' (value '1GB') in the environment")
                .hasMessageContaining("CUBED_ALLOWED_MEM");
        assertThatThrownBy(() -> bare().option("memory", "1GB"))
                .hasMessageStartingWith("unknown setting 'memory' from the command line");
    }

    @Test
    void missingNamedFileAndReservedNotBelowAllowed() {
        String missing = tmp.resolve("nope.properties").toString();
        assertThatThrownBy(() ->
                        bare().environment(Map.of("CUBED_CONFIG", missing)).load())
                .hasMessage("config file '" + missing + "' (from environment variable CUBED_CONFIG) does not exist or"
                        + " is not a file");
        Map<String, String> env = new HashMap<>();
        env.put("CUBED_RESERVED_MEM", "2GB");
        assertThatThrownBy(() ->
                        bare().environment(env).option("allowedMem", "1GB").load())
                .hasMessage(
                        "reservedMem 2GB (from environment variable CUBED_RESERVED_MEM) must be less than allowedMem"
                                + " 1GB (from option --allowed-mem); raise allowedMem (--allowed-mem, CUBED_ALLOWED_MEM) or"
                                + " lower reservedMem (--reserved-mem, CUBED_RESERVED_MEM)");
    }

    @Test
    void storeConcurrencyComesFromEverySourceInOrderAndIsChecked() throws Exception {
        Path p = file("c.properties", "store.concurrency=4\n");
        SpecConfig fromFile = bare().configFile(p).load();
        assertThat(fromFile.storeOptions().get(io.cubed.storage.Store.CONCURRENCY_OPTION))
                .isEqualTo("4");
        SpecConfig spark = bare().configFile(p)
                .sparkConf(Map.of("spark.cubed.store.concurrency", "8"))
                .load();
        assertThat(spark.storeOptions().get(io.cubed.storage.Store.CONCURRENCY_OPTION))
                .isEqualTo("8");
        SpecConfig env = bare().configFile(p)
                .sparkConf(Map.of("spark.cubed.store.concurrency", "8"))
                .environment(Map.of("CUBED_STORE_CONCURRENCY", "auto"))
                .load();
        assertThat(env.storeOptions().get(io.cubed.storage.Store.CONCURRENCY_OPTION))
                .isEqualTo("auto");
        SpecConfig cli = bare().environment(Map.of("CUBED_STORE_CONCURRENCY", "auto"))
                .storeOptions(Map.of(io.cubed.storage.Store.CONCURRENCY_OPTION, "64"))
                .load();
        assertThat(cli.storeOptions().get(io.cubed.storage.Store.CONCURRENCY_OPTION))
                .isEqualTo("64");
        assertThat(cli.get("store.concurrency").source()).isEqualTo(SpecConfig.Source.COMMAND_LINE);
        assertThat(bare().load().storeOptions().get(io.cubed.storage.Store.CONCURRENCY_OPTION))
                .isNull();
        assertThatThrownBy(() -> bare().environment(Map.of("CUBED_STORE_CONCURRENCY", "0"))
                        .load())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("store.concurrency")
                .hasMessageContaining("CUBED_STORE_CONCURRENCY")
                .hasMessageContaining("'0'");
        assertThatThrownBy(() -> bare().environment(Map.of("CUBED_STORE_CONCURRENCY", "many"))
                        .load())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("not auto or a number");
    }

    @Test
    void namesOfEachKeyInEverySource() {
        Map<String, String> env = new HashMap<>();
        for (SpecConfig.Key k : SpecConfig.KEYS) {
            env.put(k.name(), k.envName() + " " + k.sparkName() + " " + k.optionName());
        }
        assertThat(env.get("allowedMem")).isEqualTo("CUBED_ALLOWED_MEM spark.cubed.allowedMem --allowed-mem");
        assertThat(env.get("keepIntermediates"))
                .isEqualTo("CUBED_KEEP_INTERMEDIATES spark.cubed.keepIntermediates --keep-intermediates");
        assertThat(env.get("store.retry.baseDelayMs"))
                .isEqualTo("CUBED_STORE_RETRY_BASE_DELAY_MS spark.cubed.store.retry.baseDelayMs --conf "
                        + "cubed.store.retry.base-delay-ms");
    }
}
