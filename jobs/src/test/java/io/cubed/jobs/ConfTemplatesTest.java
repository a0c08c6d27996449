package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.SpecConfig;
import io.cubed.error.MemoryBudgetExceededException;
import io.cubed.memory.MemorySize;
import io.cubed.spark.SparkMemoryCheck;
import io.cubed.storage.zarr.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The templates in {@code conf/} at the repository root are what they claim: parsed, checked, accepted. */
class ConfTemplatesTest {
    private static final Path CONF = Path.of("..", "conf").toAbsolutePath().normalize();
    private static final long MIB = 1024L * 1024;

    /** {@code key value} lines of a spark-defaults file, as Spark reads them (comments and blank lines skipped). */
    private static Map<String, String> sparkDefaults(String name) throws IOException {
        Map<String, String> conf = new LinkedHashMap<>();
        for (String line : Files.readAllLines(CONF.resolve(name), StandardCharsets.UTF_8)) {
            String t = line.trim();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] kv = t.split("[\\s=]+", 2);
            assertThat(kv).as("line '%s' of %s", line, name).hasSize(2);
            conf.put(kv[0], kv[1].trim());
        }
        return conf;
    }

    /**
     * The memory check the Spark executor runs, on {@code conf}: in local mode the driver heap is {@code
     * spark.driver.memory} (what spark-submit gives the JVM as -Xmx).
     */
    private static SparkMemoryCheck check(Map<String, String> entries) {
        SparkConf conf = new SparkConf(false);
        entries.forEach(conf::set);
        long driverHeap = conf.getSizeAsMb("spark.driver.memory", "1g") * MIB;
        return SparkMemoryCheck.of(conf, driverHeap, 4);
    }

    private static SpecConfig settings(Map<String, String> sparkConf) {
        return SpecConfig.loader()
                .classLoader(null)
                .environment(Map.of())
                .sparkConf(sparkConf)
                .load();
    }

    @Test
    void sparkDefaultsGiveEveryTaskItsAllowedMem() throws IOException {
        Map<String, Long> expectedPerTaskMib = Map.of(
                "spark-defaults.local.conf", (6144L - 300) * 4 / 10 / 4,
                "spark-defaults.emr.conf", (6144L - 300) * 8 / 10 / 4,
                "spark-defaults.databricks.conf", (21504L - 300) * 6 / 10 / 4);
        Map<String, String> allowed = Map.of(
                "spark-defaults.local.conf", "500MB",
                "spark-defaults.emr.conf", "1GB",
                "spark-defaults.databricks.conf", "3GB");
        for (String name : expectedPerTaskMib.keySet()) {
            Map<String, String> conf = sparkDefaults(name);
            if (name.contains("databricks")) {
                // Databricks sets the master itself: its own standalone cluster manager.
                assertThat(conf).doesNotContainKey("spark.master");
                conf.put("spark.master", "spark://10.0.0.1:7077");
            }
            SpecConfig s = settings(conf);
            assertThat(s.executor()).as(name).isEqualTo("spark");
            assertThat(s.allowedMem()).as(name).isEqualTo(MemorySize.parse(allowed.get(name)));
            SparkMemoryCheck check = check(conf);
            // The figures the file's comment states.
            assertThat(check.perTaskBytes() / MIB).as(name).isEqualTo(expectedPerTaskMib.get(name));
            check.check(s.allowedMem().bytes(), "allowedMem of " + name);
            // With Spark's default memory fraction the EMR and Databricks sizes would not be enough: the fraction
            // is part of the template, not decoration.
            if (!name.contains("local")) {
                Map<String, String> defaultFraction = new LinkedHashMap<>(conf);
                defaultFraction.remove("spark.memory.fraction");
                assertThatThrownBy(() ->
                                check(defaultFraction).check(s.allowedMem().bytes(), "allowedMem"))
                        .as(name)
                        .isInstanceOf(MemoryBudgetExceededException.class);
            }
        }
    }

    @Test
    void cubedPropertiesTemplateLoads() {
        SpecConfig c = SpecConfig.loader()
                .classLoader(null)
                .environment(Map.of())
                .configFile(CONF.resolve("cubed.properties"))
                .load();
        assertThat(c.allowedMem()).isEqualTo(MemorySize.parse("1GB"));
        assertThat(c.reservedMem()).isEqualTo(MemorySize.parse("100MB"));
        assertThat(c.workDir()).isEqualTo("/tmp/cubed-work");
        assertThat(c.executor()).isEqualTo("local");
        assertThat(c.threads()).isEqualTo(4);
        assertThat(c.get(SpecConfig.STORE_RETRY_ATTEMPTS).value()).isEqualTo("4");
        // Every setting is in the template, so that it documents them all.
        for (SpecConfig.Key k : SpecConfig.KEYS) {
            assertThat(c.get(k.name()).source()).as(k.name()).isEqualTo(SpecConfig.Source.PROPERTIES_FILE);
        }
    }

    /** Parses {@code args} as the {@code cubed} command line would, without running; returns the subcommand. */
    private static Object parse(List<String> args, Map<String, String> sparkConf) {
        String[] a = args.toArray(new String[0]);
        CommandLine.ParseResult r = CubedCli.commandLine(a).parseArgs(a);
        assertThat(r.hasSubcommand()).as("%s", args).isTrue();
        Object command = r.subcommand().commandSpec().userObject();
        if (command instanceof RechunkCommand) {
            RechunkCommand rechunk = (RechunkCommand) command;
            SpecConfig s = rechunk.execution.environment(Map.of()).config(sparkConf, rechunk.store.conf);
            assertThat(s.executor()).isEqualTo("spark");
            assertThat(s.allowedMem().bytes()).isPositive();
        }
        return command;
    }

    private static Object json(String name) throws IOException {
        return Json.parse(Files.readAllBytes(CONF.resolve(name)));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        assertThat(o).isInstanceOf(List.class);
        return (List<Object>) o;
    }

    @Test
    void emrStepRunsTheCommandLineWithAcceptedArguments() throws Exception {
        List<Object> steps = list(json("emr-steps.json"));
        assertThat(steps).hasSize(1);
        Map<String, Object> step = map(steps.get(0));
        assertThat(step.get("Type")).isEqualTo("Spark");
        List<String> args = new ArrayList<>();
        list(step.get("Args")).forEach(a -> args.add((String) a));
        int jar = -1;
        String mainClass = null;
        Map<String, String> conf = new LinkedHashMap<>();
        for (int i = 0; i < args.size() && jar < 0; i++) {
            String a = args.get(i);
            if (a.equals("--class")) {
                mainClass = args.get(++i);
            } else if (a.equals("--conf")) {
                String[] kv = args.get(++i).split("=", 2);
                conf.put(kv[0], kv[1]);
            } else if (a.equals("--master")) {
                conf.put("spark.master", args.get(++i));
            } else if (a.equals("--deploy-mode")) {
                conf.put("spark.submit.deployMode", args.get(++i));
            } else if (a.endsWith(".jar")) {
                jar = i;
            }
        }
        assertThat(args.get(jar)).endsWith("/cubed-jobs-spark.jar");
        assertThat(Class.forName(mainClass).getMethod("main", String[].class)).isNotNull();
        Object command = parse(args.subList(jar + 1, args.size()), conf);
        assertThat(command).isInstanceOf(RechunkCommand.class);
        assertThat(((RechunkCommand) command).chunks).containsExactly(-1, 256);
        // The step's own Spark settings pass the memory check for its allowedMem.
        check(conf).check(settings(conf).allowedMem().bytes(), "allowedMem");
    }

    @Test
    void databricksJarTaskRunsTheCommandLineWithAcceptedArguments() throws Exception {
        Map<String, Object> job = map(json("databricks-job.json"));
        Map<String, Object> task = map(list(job.get("tasks")).get(0));
        Map<String, Object> jarTask = map(task.get("spark_jar_task"));
        assertThat(Class.forName((String) jarTask.get("main_class_name")).getMethod("main", String[].class))
                .isNotNull();
        assertThat(map(list(task.get("libraries")).get(0)).get("jar"))
                .asString()
                .endsWith("/cubed-jobs-spark.jar");
        List<String> args = new ArrayList<>();
        list(jarTask.get("parameters")).forEach(a -> args.add((String) a));
        Map<String, Object> cluster = map(task.get("new_cluster"));
        Map<String, String> conf = new LinkedHashMap<>();
        map(cluster.get("spark_conf")).forEach((k, v) -> conf.put(k, (String) v));
        Object command = parse(args, conf);
        assertThat(command).isInstanceOf(RechunkCommand.class);
        // The cluster's spark_conf is the Databricks spark-defaults template's (less what Databricks sets itself).
        Map<String, String> template = sparkDefaults("spark-defaults.databricks.conf");
        conf.forEach((k, v) -> assertThat(template).containsEntry(k, v));
        // Java 17 on a Spark 3.5 runtime: 14.3 and 15.4 LTS default to Java 8, so JNAME selects 17
        // (docs/configuration.md).
        String runtime = (String) cluster.get("spark_version");
        double version = Double.parseDouble(runtime.substring(0, runtime.indexOf(".x")));
        assertThat(version).as(runtime).isGreaterThanOrEqualTo(14.3);
        if (version < 16) {
            assertThat(map(cluster.get("spark_env_vars")).get("JNAME")).isEqualTo("zulu17-ca-amd64");
        }
    }

    @Test
    void log4j2KeepsSparkQuietAndCubedVisible() {
        LoggerContext ctx = new LoggerContext(
                "conf-template", null, CONF.resolve("log4j2.properties").toUri());
        ctx.start();
        try {
            assertThat(ctx.getConfiguration().getName()).isNotEqualTo("Default");
            assertThat(ctx.getLogger("io.cubed.spark.SparkExecutor").isInfoEnabled())
                    .isTrue();
            assertThat(ctx.getLogger("org.apache.spark.scheduler.DAGScheduler").isInfoEnabled())
                    .isFalse();
            assertThat(ctx.getLogger("org.apache.spark.scheduler.DAGScheduler").isWarnEnabled())
                    .isTrue();
            assertThat(ctx.getLogger("org.apache.hadoop.util.NativeCodeLoader").isWarnEnabled())
                    .isFalse();
        } finally {
            ctx.stop();
        }
    }

    @Test
    void everySettingIsDocumentedAndHasAWorkingOption() throws IOException {
        String readme = Files.readString(CONF.resolveSibling("README.md"));
        String doc = Files.readString(CONF.resolveSibling("docs").resolve("configuration.md"));
        Map<String, String> values = Map.ofEntries(
                Map.entry(SpecConfig.WORK_DIR, "/w"),
                Map.entry(SpecConfig.ALLOWED_MEM, "700MB"),
                Map.entry(SpecConfig.RESERVED_MEM, "7MB"),
                Map.entry(SpecConfig.EXECUTOR, "spark"),
                Map.entry(SpecConfig.THREADS, "7"),
                Map.entry(SpecConfig.MAX_ATTEMPTS, "7"),
                Map.entry(SpecConfig.OPTIMIZE, "false"),
                Map.entry(SpecConfig.KEEP_INTERMEDIATES, "true"),
                Map.entry(SpecConfig.INTERMEDIATE_CODEC, "zstd:3"),
                Map.entry(SpecConfig.STORE_RETRY_ATTEMPTS, "7"),
                Map.entry(SpecConfig.STORE_RETRY_BASE_DELAY_MS, "7"),
                Map.entry(SpecConfig.STORE_CONCURRENCY, "7"));
        for (SpecConfig.Key k : SpecConfig.KEYS) {
            String row = "| `" + k.name() + "` | `" + k.envName() + "` | `" + k.sparkName() + "` | `" + k.optionName()
                    + "` |";
            assertThat(readme).as("README row of " + k.name()).contains(row);
            assertThat(doc).as("docs/configuration.md row of " + k.name()).contains(row);
            List<String> args = new ArrayList<>(List.of("rechunk", "a", "b", "--chunks", "1"));
            String option = k.optionName();
            if (option.startsWith("--conf ")) {
                args.add("--conf");
                args.add(option.substring("--conf ".length()) + "=" + values.get(k.name()));
            } else if (k.kind() == SpecConfig.Kind.BOOLEAN && option.equals("--keep-intermediates")) {
                args.add(option);
            } else {
                args.add(option);
                args.add(values.get(k.name()));
            }
            String[] a = args.toArray(new String[0]);
            RechunkCommand cmd = (RechunkCommand) CubedCli.commandLine(a)
                    .parseArgs(a)
                    .subcommand()
                    .commandSpec()
                    .userObject();
            SpecConfig c = cmd.execution.environment(Map.of()).config(Map.of(), cmd.store.conf);
            assertThat(c.get(k.name()).source()).as(option).isEqualTo(SpecConfig.Source.COMMAND_LINE);
            assertThat(c.value(k.name())).as(option).isEqualTo(values.get(k.name()));
        }
    }
}
