package io.cubed.jobs.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The object-store report's in-flight cell summarizes every round, not the last one: the medians of the rounds' stage
 * and busy means and the most at once in any round; "-" for the stage where the counter does not give it.
 */
class ObjectStoreBenchReportTest {
    private static ObjectStoreBench.Run run(double stage, double busy, long max) {
        return new ObjectStoreBench.Run("ours", 30, 1.0, 256, Map.of("GET_OBJECT", 259L), busy, max, stage, "match");
    }

    @Test
    void mediansOfTheRoundsAndTheMostAtOnce() {
        // Rounds in the order they ran: the last one is neither the median nor the most.
        List<ObjectStoreBench.Run> rounds = List.of(
                run(11.9, 11.4, 33), run(7.3, 8.0, 26), run(6.5, 7.6, 27), run(10.4, 11.0, 31), run(7.7, 8.6, 36));
        assertThat(ObjectStoreBench.inFlight(rounds)).isEqualTo("7.7; 8.6; 36");
        // An even number of rounds: the mean of the two middle values.
        assertThat(ObjectStoreBench.inFlight(List.of(run(8.0, 9.0, 20), run(10.0, 12.0, 30))))
                .isEqualTo("9.0; 10.5; 30");
    }

    @Test
    void noStageMeanWhereTheCounterDoesNotGiveIt() {
        List<ObjectStoreBench.Run> rounds = List.of(run(Double.NaN, 4.0, 12), run(Double.NaN, 6.0, 16));
        assertThat(ObjectStoreBench.inFlight(rounds)).isEqualTo("-; 5.0; 16");
    }
}
