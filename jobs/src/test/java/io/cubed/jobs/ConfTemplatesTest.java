package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.SpecConfig;
import io.cubed.memory.MemorySize;
import io.cubed.spark.SparkMemoryCheck;
import io.cubed.storage.zarr.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * The templates under {@code conf/} do what their comments say: the Spark settings pass Cubed's own memory check for
 * the {@code allowedMem} they state, the EMR step and the Databricks job name a real main class with arguments its
 * command line accepts, the properties template loads, and the log4j2 file keeps Spark quiet and Cubed's progress on.
 */
class ConfTemplatesTest {
    private static final Path CONF = Path.of("../conf");

    /** The JSON file at {@code name} under conf/ (parsed by Cubed's own reader). */
    private static Object json(String name) throws Exception {
        return Json.parse(Files.readString(CONF.resolve(name)));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> obj(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object o) {
        return (List<String>) o;
    }

    /** The {@code key value} lines of a spark-defaults file. */
    private static Map<String, String> sparkDefaults(Path file) throws Exception {
        Map<String, String> conf = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            String t = line.trim();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] kv = t.split("\\s+", 2);
            conf.put(kv[0], kv.length > 1 ? kv[1].trim() : "");
        }
        return conf;
    }

    /** Cubed's check of the memory Spark gives a task, for conf {@code conf}, against the allowedMem it states. */
    private static void assertTasksGetAllowedMem(Map<String, String> conf, String allowedMem) {
        SparkConf sc = new SparkConf(false);
        conf.forEach(sc::set);
        if (!sc.contains("spark.master")) {
            sc.set("spark.master", "yarn"); // a cluster: the executor settings apply
        }
        long driverHeap = sc.getSizeAsBytes("spark.driver.memory", "1g");
        SparkMemoryCheck check = SparkMemoryCheck.of(sc, driverHeap, 1);
        long allowed = MemorySize.parse(allowedMem).bytes();
        check.check(allowed, "allowedMem"); // throws, with every figure, when a task would get less
        assertThat(check.perTaskBytes()).isGreaterThanOrEqualTo(allowed);
        // ... and not by accident: a budget 20 % larger would not fit.
        assertThat(check.perTaskBytes()).isLessThan(allowed * 12 / 10);
    }

    @ParameterizedTest
    @ValueSource(strings = {"spark-defaults.local.conf", "spark-defaults.emr.conf", "spark-defaults.databricks.conf"})
    void sparkDefaultsGiveEveryTaskTheStatedAllowedMem(String name) throws Exception {
        Map<String, String> conf = sparkDefaults(CONF.resolve(name));
        String allowedMem = conf.get("spark.cubed.allowedMem");
        assertThat(allowedMem).as(name + " states spark.cubed.allowedMem").isNotNull();
        assertTasksGetAllowedMem(conf, allowedMem);
        // The spark.cubed.* entries are valid settings.
        SpecConfig settings =
                SpecConfig.loader().sparkConf(conf).classLoader(null).load();
        assertThat(settings.allowedMem()).isEqualTo(MemorySize.parse(allowedMem));
        assertThat(settings.get(SpecConfig.ALLOWED_MEM).source()).isEqualTo(SpecConfig.Source.SPARK_CONF);
    }

    /** Parses {@code args} with the command line of {@code mainClass} without running it. */
    private static void assertAccepted(String mainClass, List<String> args) throws Exception {
        Object command = Class.forName(mainClass).getConstructor().newInstance();
        CommandLine.ParseResult parsed = new CommandLine(command).parseArgs(args.toArray(String[]::new));
        assertThat(parsed.errors()).isEmpty();
        assertThat(parsed.unmatched()).isEmpty();
    }

    @Test
    void emrStepSubmitsARealJobWithArgumentsItAccepts() throws Exception {
        Map<String, Object> step = obj(((List<?>) json("emr-add-steps.json")).get(0));
        assertThat(step.get("Jar")).isEqualTo("command-runner.jar");
        List<String> args = strings(step.get("Args"));
        assertThat(args.get(0)).isEqualTo("spark-submit");
        Map<String, String> conf = new LinkedHashMap<>();
        String mainClass = null;
        int jar = -1;
        for (int i = 1; i < args.size(); i++) {
            if (args.get(i).equals("--conf")) {
                String[] kv = args.get(++i).split("=", 2);
                conf.put(kv[0], kv[1]);
            } else if (args.get(i).equals("--class")) {
                mainClass = args.get(++i);
            } else if (args.get(i).equals("--deploy-mode")) {
                i++;
            } else {
                jar = i;
                break;
            }
        }
        assertThat(mainClass).isEqualTo("io.cubed.jobs.spark.SparkRechunkJob");
        assertThat(args.get(jar)).endsWith("cubed-jobs-spark.jar");
        List<String> jobArgs = args.subList(jar + 1, args.size());
        assertAccepted(mainClass, jobArgs);
        assertTasksGetAllowedMem(conf, jobArgs.get(jobArgs.indexOf("--allowed-mem") + 1));
    }

    @Test
    void databricksJobRunsARealJobWithArgumentsItAccepts() throws Exception {
        Map<String, Object> task =
                obj(((List<?>) obj(json("databricks-job.json")).get("tasks")).get(0));
        Map<String, Object> jarTask = obj(task.get("spark_jar_task"));
        String mainClass = (String) jarTask.get("main_class_name");
        List<String> params = strings(jarTask.get("parameters"));
        assertAccepted(mainClass, params);
        assertThat((String) obj(((List<?>) task.get("libraries")).get(0)).get("jar"))
                .endsWith("cubed-jobs-spark.jar");
        Map<String, Object> cluster = obj(task.get("new_cluster"));
        // Our jar is Java 17 bytecode: the cluster must run Java 17.
        assertThat((String) obj(cluster.get("spark_env_vars")).get("JNAME")).contains("17");
        Map<String, String> conf = new LinkedHashMap<>();
        obj(cluster.get("spark_conf")).forEach((k, v) -> conf.put(k, (String) v));
        assertTasksGetAllowedMem(conf, params.get(params.indexOf("--allowed-mem") + 1));
    }

    @Test
    void propertiesTemplateLoads() {
        SpecConfig settings =
                SpecConfig.loader().configFile(CONF.resolve("cubed.properties")).load();
        assertThat(settings.allowedMem()).isEqualTo(MemorySize.parse("2GB"));
        assertThat(settings.threads()).isEqualTo(4);
        assertThat(settings.storeOptions().asMap()).containsEntry("fs.s3a.path.style.access", "true");
        assertThat(settings.get(SpecConfig.WORK_DIR).source()).isEqualTo(SpecConfig.Source.PROPERTIES_FILE);
    }

    @Test
    void log4jKeepsSparkQuietAndProgressVisible() {
        try (LoggerContext ctx = Configurator.initialize(
                "conf-template",
                CONF.resolve("log4j2.properties").toAbsolutePath().toString())) {
            assertThat(ctx.getConfiguration()
                            .getLoggerConfig("org.apache.spark.scheduler.DAGScheduler")
                            .getLevel())
                    .isEqualTo(Level.WARN);
            assertThat(ctx.getConfiguration()
                            .getLoggerConfig("org.apache.hadoop.fs.s3a.S3AFileSystem")
                            .getLevel())
                    .isEqualTo(Level.WARN);
            assertThat(ctx.getConfiguration()
                            .getLoggerConfig("io.cubed.progress")
                            .getLevel())
                    .isEqualTo(Level.INFO);
            assertThat(ctx.getConfiguration()
                            .getLoggerConfig("io.cubed.plan.Fusion")
                            .getLevel())
                    .isEqualTo(Level.DEBUG);
        }
    }
}
