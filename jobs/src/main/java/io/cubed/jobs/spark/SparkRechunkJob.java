package io.cubed.jobs.spark;

import io.cubed.jobs.CubedCli;
import io.cubed.jobs.Execution;
import io.cubed.jobs.RechunkCommand;
import io.cubed.plan.Spec;
import io.cubed.spark.SparkExecutor;
import io.cubed.spark.SparkMemoryCheck;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code rechunk} job on Spark: the options and output of {@code cubed rechunk}, with every copy stage run as a
 * shuffle-free Spark job on the session spark-submit configured. Store options come from the session's Hadoop
 * configuration ({@code spark.hadoop.*}), with {@code --conf} on top; settings also come from {@code spark.cubed.*}
 * (see {@link io.cubed.SpecConfig}). Before planning, the job checks that Spark gives
 * each concurrent task at least {@code --allowed-mem}.
 *
 * <pre>
 * spark-submit --master 'local[2]' --class io.cubed.jobs.spark.SparkRechunkJob jobs/target/cubed-jobs-spark.jar \
 *     /data/rows.zarr /data/columns.zarr --chunks -1,64 --allowed-mem 48MB --reserved-mem 8MB --work-dir /data/work
 * </pre>
 */
@Command(
        name = "spark-rechunk",
        mixinStandardHelpOptions = true,
        description = "Rechunk a Zarr array on Spark within a memory budget per task, through intermediate arrays if "
                + "needed.")
public final class SparkRechunkJob extends RechunkCommand {
    @Override
    public Integer call() {
        execution.defaultExecutor("spark");
        return super.call();
    }

    /** The spec of the run, after checking that Spark gives each concurrent task at least its allowedMem. */
    @Override
    protected Spec spec(Execution run) {
        Spec spec = run.spec();
        if (spec.executor() instanceof SparkExecutor) {
            SparkMemoryCheck check = ((SparkExecutor) spec.executor()).memoryCheck();
            cli.commandLine().getOut().println("memory: " + check);
            check.check(spec.allowedMem().bytes(), "allowedMem");
        }
        return spec;
    }

    public static void main(String[] args) {
        CommandLine cl = new CommandLine(new SparkRechunkJob());
        cl.setExecutionExceptionHandler(CubedCli::handle);
        cl.setParameterExceptionHandler(CubedCli::usageError);
        int code = cl.execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }
}
