package io.cubed.spark;

import io.cubed.runtime.Executor;
import io.cubed.runtime.ExecutorContract;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The executor contract on {@link SparkExecutor} when every stage small enough runs on the driver (no limit on bytes):
 * the contract's stages of up to 16 tasks run in the driver's thread, larger ones as Spark jobs, and either way each
 * task runs once, failures are retried as Spark retries them ({@code local[2,3]}: 3 attempts) and reported alike.
 */
class SparkDriverStagesTest extends ExecutorContract {
    private final JavaSparkContext jsc = SparkTestContext.get();

    @Override
    protected Executor executor() {
        return SparkExecutor.builder(jsc)
                .tasksPerPartition(1)
                .driverStageBytes(Long.MAX_VALUE)
                .build();
    }

    @Override
    protected int maxAttempts() {
        return 3;
    }
}
