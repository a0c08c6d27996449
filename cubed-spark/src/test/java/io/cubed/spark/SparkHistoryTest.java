package io.cubed.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.runtime.HistoryCallback;
import io.cubed.runtime.HistoryCallbackTest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history callback on the Spark executor ({@code local[2]}): task events come back to the driver with their
 * timings and bytes, and the CSVs and timeline hold the same known figures as with the in-process executor.
 */
class SparkHistoryTest {
    @TempDir
    Path tmp;

    @Test
    void theHistoryOfASparkComputationHasEveryTaskWithItsChunkSizes() throws Exception {
        HistoryCallback history =
                HistoryCallbackTest.runKnownComputation(tmp, SparkExecutor.create(SparkTestContext.get()));
        assertThat(history.tasks()).hasSize(9);
        HistoryCallbackTest.checkKnownHistory(history, tmp.resolve("history"));
    }
}
