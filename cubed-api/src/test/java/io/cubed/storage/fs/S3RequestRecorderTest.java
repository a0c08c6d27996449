package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class S3RequestRecorderTest {
    private final AtomicLong now = new AtomicLong();
    private final S3RequestRecorder recorder = new S3RequestRecorder(now::get);

    private void at(long nanos) {
        now.set(nanos);
    }

    /**
     * Two overlapping GETs, an idle gap, then a HEAD still running: busy 10 + 30 + 10 (the GETs) + 30 (the HEAD so
     * far) = 80 ns, during which 10 x 1 + 30 x 2 + 10 x 1 + 30 x 1 = 110 request-ns were in flight: a mean of 110 / 80.
     */
    @Test
    void theMeanInFlightIsWeightedByTimeOverTheBusyTimeOnly() {
        at(10);
        recorder.started(S3Operation.GET_OBJECT, "a");
        at(20);
        recorder.started(S3Operation.GET_OBJECT, "b");
        at(50);
        recorder.finished();
        at(60);
        recorder.finished();
        at(100);
        recorder.started(S3Operation.HEAD_OBJECT, "a");
        at(130);

        S3ServerStats stats = recorder.snapshot();

        assertThat(stats.busyNanos()).isEqualTo(80);
        assertThat(stats.meanInFlight()).isEqualTo(110.0 / 80);
        assertThat(stats.maxInFlight()).isEqualTo(2);
        assertThat(stats.inFlight()).isEqualTo(1);
        assertThat(stats.count(S3Operation.GET_OBJECT)).isEqualTo(2);
        assertThat(stats.count(S3Operation.HEAD_OBJECT)).isEqualTo(1);
        assertThat(stats.total()).isEqualTo(3);
        assertThat(stats.keyCounts())
                .isEqualTo(Map.of(
                        "a", Map.of(S3Operation.GET_OBJECT, 1L, S3Operation.HEAD_OBJECT, 1L),
                        "b", Map.of(S3Operation.GET_OBJECT, 1L)));
    }

    /** The HEAD in flight at the reset (t = 130) counts for 20 ns of the new period, alone: mean 1, maximum 1. */
    @Test
    void aResetKeepsTheRequestsInFlightAndForgetsTheRest() {
        at(10);
        recorder.started(S3Operation.GET_OBJECT, "a");
        recorder.started(S3Operation.HEAD_OBJECT, "a");
        at(30);
        recorder.finished();
        at(130);

        recorder.reset();

        assertThat(recorder.snapshot()).isEqualTo(new S3ServerStats(Map.of(), Map.of(), 1, 1, 0, 0));
        at(150);
        recorder.finished();
        at(160);
        assertThat(recorder.snapshot()).isEqualTo(new S3ServerStats(Map.of(), Map.of(), 0, 1, 1.0, 20));
    }

    @Test
    void aBulkDeleteCountsOnceAndForEachKeyItNames() {
        recorder.started(S3Operation.DELETE_OBJECTS, null);
        recorder.namedKey(S3Operation.DELETE_OBJECTS, "x");
        recorder.namedKey(S3Operation.DELETE_OBJECTS, "y");
        recorder.finished();
        recorder.started(S3Operation.DELETE_OBJECTS, null);
        recorder.namedKey(S3Operation.DELETE_OBJECTS, "x");
        recorder.finished();

        S3ServerStats stats = recorder.snapshot();

        assertThat(stats.count(S3Operation.DELETE_OBJECTS)).isEqualTo(2);
        assertThat(stats.keyCount("x", S3Operation.DELETE_OBJECTS)).isEqualTo(2);
        assertThat(stats.keyCount("y", S3Operation.DELETE_OBJECTS)).isEqualTo(1);
        assertThat(stats.distinctKeys(S3Operation.DELETE_OBJECTS)).isEqualTo(2);
        assertThat(stats.maxKeyCount(S3Operation.DELETE_OBJECTS)).isEqualTo(2);
        assertThat(stats.distinctKeys(S3Operation.GET_OBJECT)).isZero();
        assertThat(stats.maxKeyCount(S3Operation.GET_OBJECT)).isZero();
    }

    /**
     * Busy from 1 ms to 3.5 ms with one chunk request, then a second one alone until 4 ms: 3 ms busy, mean 1, and the
     * same over the stage.
     */
    @Test
    void theJsonLineSummarisesKeysPerOperation() {
        at(1_000_000);
        long first = recorder.started(S3Operation.GET_OBJECT, "k/0");
        at(3_500_000);
        recorder.finishedChunk(first);
        long second = recorder.started(S3Operation.GET_OBJECT, "k/0");
        at(4_000_000);
        recorder.finishedChunk(second);

        assertThat(recorder.snapshot().toJson(30))
                .isEqualTo("{\"requests\":2,\"counts\":{\"GET_OBJECT\":2,\"HEAD_OBJECT\":0,\"PUT_OBJECT\":0,\"LIST\":0,"
                        + "\"DELETE_OBJECT\":0,\"DELETE_OBJECTS\":0,\"COPY_OBJECT\":0,\"INITIATE_MULTIPART\":0,"
                        + "\"UPLOAD_PART\":0,\"COMPLETE_MULTIPART\":0,\"OTHER\":0},"
                        + "\"keys\":{\"GET_OBJECT\":{\"distinct\":1,\"max\":2},\"HEAD_OBJECT\":{\"distinct\":0,\"max\":0},"
                        + "\"PUT_OBJECT\":{\"distinct\":0,\"max\":0},\"LIST\":{\"distinct\":0,\"max\":0},"
                        + "\"DELETE_OBJECT\":{\"distinct\":0,\"max\":0},\"DELETE_OBJECTS\":{\"distinct\":0,\"max\":0},"
                        + "\"COPY_OBJECT\":{\"distinct\":0,\"max\":0},\"INITIATE_MULTIPART\":{\"distinct\":0,\"max\":0},"
                        + "\"UPLOAD_PART\":{\"distinct\":0,\"max\":0},\"COMPLETE_MULTIPART\":{\"distinct\":0,\"max\":0},"
                        + "\"OTHER\":{\"distinct\":0,\"max\":0}},"
                        + "\"inFlight\":0,\"maxInFlight\":1,\"meanInFlight\":1.000,\"busyMs\":3.000,"
                        + "\"stageMeanInFlight\":1.000,\"stageMs\":3.000,\"latencyMs\":30}");
    }

    /**
     * Opening an array (its {@code .zarray}, alone, 0-30 ns) comes before the stage: four chunk GETs of 30 ns each,
     * two arriving at 40 and two at 50. Over the busy time (30 + 40 ns) 150 request-ns were in flight, a mean of
     * 150 / 70; over the stage (40-80 ns) the chunk GETs' 120 request-ns give a mean of 3.
     */
    @Test
    void theStageStartsWithTheFirstChunkRequestAndEndsWithTheLast() {
        long open = recorder.started(S3Operation.GET_OBJECT, "a.zarr/.zarray");
        at(30);
        recorder.finished();
        at(40);
        long c0 = recorder.started(S3Operation.GET_OBJECT, "a.zarr/0.0");
        long c1 = recorder.started(S3Operation.GET_OBJECT, "a.zarr/0.1");
        at(50);
        long c2 = recorder.started(S3Operation.GET_OBJECT, "a.zarr/1.0");
        long c3 = recorder.started(S3Operation.GET_OBJECT, "a.zarr/1.1");
        at(70);
        recorder.finishedChunk(c0);
        recorder.finishedChunk(c1);
        at(80);
        recorder.finishedChunk(c2);
        recorder.finishedChunk(c3);

        S3ServerStats stats = recorder.snapshot();

        assertThat(open).isZero();
        assertThat(stats.busyNanos()).isEqualTo(70);
        assertThat(stats.meanInFlight()).isEqualTo(150.0 / 70);
        assertThat(stats.stageNanos()).isEqualTo(40);
        assertThat(stats.stageMeanInFlight()).isEqualTo(3.0);
        recorder.reset();
        assertThat(recorder.snapshot().stageNanos()).isZero();
    }

    @Test
    void chunkRequestsAreGetsAndPutsOfObjectsOtherThanMetadataDocuments() {
        assertThat(S3RequestRecorder.isChunk(S3Operation.GET_OBJECT, "a.zarr/0.0"))
                .isTrue();
        assertThat(S3RequestRecorder.isChunk(S3Operation.PUT_OBJECT, "g/t2m/c/0/1/2"))
                .isTrue();
        assertThat(S3RequestRecorder.isChunk(S3Operation.GET_OBJECT, "0")).isTrue();
        for (String doc : new String[] {".zarray", ".zattrs", ".zgroup", ".zmetadata", "zarr.json"}) {
            assertThat(S3RequestRecorder.isChunk(S3Operation.GET_OBJECT, "g/a/" + doc))
                    .as(doc)
                    .isFalse();
            assertThat(S3RequestRecorder.isChunk(S3Operation.PUT_OBJECT, doc))
                    .as(doc)
                    .isFalse();
        }
        assertThat(S3RequestRecorder.isChunk(S3Operation.HEAD_OBJECT, "a.zarr/0.0"))
                .isFalse();
        assertThat(S3RequestRecorder.isChunk(S3Operation.DELETE_OBJECT, "a.zarr/0.0"))
                .isFalse();
        assertThat(S3RequestRecorder.isChunk(S3Operation.LIST, null)).isFalse();
    }
}
