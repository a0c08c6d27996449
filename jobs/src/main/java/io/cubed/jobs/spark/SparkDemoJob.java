package io.cubed.jobs.spark;

import io.cubed.SpecConfig;
import io.cubed.array.Blockwise;
import io.cubed.array.Creation;
import io.cubed.array.CubedArray;
import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.error.CubedException;
import io.cubed.jobs.CubedCli;
import io.cubed.plan.Spec;
import io.cubed.runtime.Callback;
import io.cubed.spark.SparkExecutor;
import io.cubed.spark.SparkMemoryCheck;
import io.cubed.storage.zarr.ZarrArray;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The spark-submit demo: computes {@code y = 2 x + 1} of a virtual float64 {@code arange} into a Zarr array with
 * {@link SparkExecutor} on the session spark-submit configured, then checks sampled chunks against the formula.
 *
 * <pre>
 * spark-submit --master 'local[2]' --class io.cubed.jobs.spark.SparkDemoJob jobs/target/cubed-jobs-spark.jar \
 *     --output /tmp/cubed-spark-demo/y.zarr --size-mb 256
 * </pre>
 */
@Command(
        name = "spark-demo",
        mixinStandardHelpOptions = true,
        description = "Compute y = 2 x + 1 of a generated array into Zarr on Spark, and verify samples.")
public final class SparkDemoJob implements Callable<Integer> {
    @Option(names = "--output", required = true, description = "URI of the Zarr array to write (must not exist).")
    String output;

    @Option(names = "--work-dir", description = "Work directory for intermediates (default: next to the output).")
    String workDir;

    @Option(names = "--size-mb", description = "Size of the input array in MB (default: ${DEFAULT-VALUE}).")
    long sizeMb = 256;

    @Option(names = "--chunk-mb", description = "Size of one chunk in MB (default: ${DEFAULT-VALUE}).")
    int chunkMb = 8;

    @Option(names = "--allowed-mem", description = "Memory per task (default: 100MB).")
    String allowedMem;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        SparkSession spark = SparkSession.builder().appName("cubed-spark-demo").getOrCreate();
        try {
            SparkExecutor executor = SparkExecutor.create(spark);
            // Options over CUBED_* variables over spark.cubed.* over a properties file over this job's defaults.
            Map<String, String> conf = new HashMap<>();
            for (scala.Tuple2<String, String> e : spark.sparkContext().getConf().getAll()) {
                conf.put(e._1(), e._2());
            }
            SpecConfig settings = SpecConfig.loader()
                    .defaultValue(SpecConfig.WORK_DIR, output.replaceAll("/+$", "") + ".work")
                    .defaultValue(SpecConfig.ALLOWED_MEM, "100MB")
                    .defaultValue(SpecConfig.RESERVED_MEM, "20MB")
                    .sparkConf(conf)
                    .environment(System.getenv())
                    .option(SpecConfig.WORK_DIR, workDir)
                    .option(SpecConfig.ALLOWED_MEM, allowedMem)
                    .load();
            Spec cubed = settings.build(settings.specBuilder(executor, executor.storeOptions()));
            SparkMemoryCheck check = executor.memoryCheck();
            out.println("memory: " + check);
            check.check(cubed.allowedMem().bytes(), "allowedMem");

            int chunk = Math.max(1, chunkMb * 1_000_000 / 8);
            long n = Math.max(1, sizeMb * 1_000_000 / 8);
            CubedArray x = Creation.arange(0, n, 1, chunk, DType.FLOAT64, cubed);
            CubedArray y = Blockwise.mapBlocks(new Affine(2, 1), DType.FLOAT64, x);
            AtomicLong tasks = new AtomicLong();
            long t0 = System.nanoTime();
            y.toZarr(output, new Callback() {
                @Override
                public void onTaskEnd(TaskEnd event) {
                    tasks.incrementAndGet();
                }
            });
            double seconds = (System.nanoTime() - t0) / 1e9;
            ZarrArray stored = ZarrArray.open(output, cubed.storeOptions());
            long chunks = stored.grid().numChunks();
            long checked = 0;
            for (long c = 0; c < chunks; c += Math.max(1, chunks / 7)) {
                double[] d = stored.readChunk(c).doubles();
                for (int i = 0; i < d.length; i += 997) {
                    double expected = 2.0 * (c * chunk + i) + 1;
                    if (d[i] != expected) {
                        throw new CubedException("element " + (c * chunk + i) + " of " + output + " is " + d[i]
                                + ", expected " + expected);
                    }
                    checked++;
                }
            }
            Chunk last = stored.readRegion(new long[] {n - 1}, new int[] {1});
            if (last.doubles()[0] != 2.0 * (n - 1) + 1) {
                throw new CubedException("the last element of " + output + " is " + last.doubles()[0]);
            }
            out.printf(
                    Locale.ROOT,
                    "wrote %s: %d float64 in %d chunks, %d tasks in %.1f s on %s; %d sampled values equal 2 x + 1%n",
                    output,
                    n,
                    chunks,
                    tasks.get(),
                    seconds,
                    executor.name(),
                    checked + 1);
            // Blosc-LZ4 is the default codec: whether its writes run at c-blosc's LZ4 acceleration in this JVM (the
            // driver's; in local mode also the tasks'), and from which lz4-java (Spark's own loads first).
            out.println("codec: " + stored.metadata().compressor() + ", LZ4 acceleration in the driver: "
                    + io.cubed.storage.zarr.codec.Lz4Blocks.accelerationSource());
            return 0;
        } finally {
            spark.stop();
        }
    }

    public static void main(String[] args) {
        CommandLine cl = new CommandLine(new SparkDemoJob());
        cl.setExecutionExceptionHandler(CubedCli::handle);
        cl.setParameterExceptionHandler(CubedCli::usageError);
        int code = cl.execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }
}
