package io.cubed.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.StorageException;
import io.cubed.storage.fs.InMemoryStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Store#getAll} and the default {@link Store#listChildren}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StoreReadsTest {
    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void getAllKeepsTheStoresConcurrencyInFlightAndGivesTheValuesInOrder() {
        LatencyStore store = LatencyStore.create(40, 4);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            keys.add("a" + i + "/.zarray");
            if (i != 5) {
                store.put("a" + i + "/.zarray", utf8("doc " + i));
            }
        }
        store.stats.resetMax();
        RequestStats.Snapshot before = store.stats.snapshot();
        long start = System.nanoTime();
        List<byte[]> values = store.getAll(keys);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        for (int i = 0; i < 12; i++) {
            assertThat(values.get(i)).as(keys.get(i)).isEqualTo(i == 5 ? null : utf8("doc " + i));
        }
        RequestStats.Snapshot reads = store.stats.snapshot().minus(before);
        assertThat(reads.count("GET")).as("one read per key").isEqualTo(12);
        assertThat(reads.maxInFlight()).as("the store's concurrency").isEqualTo(4);
        // 12 reads 4 at a time: 3 latencies; one after another they would take 12.
        assertThat(millis).isLessThan(12 * 40 / 2);
    }

    @Test
    void getAllOnAStoreOfConcurrencyOneReadsOnThisThread() {
        LatencyStore store = LatencyStore.create(0, 1);
        store.put("x", utf8("1"));
        store.stats.resetMax();
        assertThat(store.getAll(List.of("x", "y"))).containsExactly(utf8("1"), null);
        assertThat(store.stats.snapshot().maxInFlight()).isEqualTo(1);
    }

    @Test
    void getAllFailsWithTheFailedReadsErrorOnceTheOthersHaveEnded() {
        Store failing = new FailingStore(InMemoryStore.named("store-reads-" + System.nanoTime()), "bad");
        failing.put("good", utf8("g"));
        assertThatThrownBy(() -> failing.getAll(List.of("good", "bad", "other")))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("cannot read 'bad'");
    }

    @Test
    void listChildrenByDefaultCutsTheRecursiveListing() {
        assertThat(StoreReads.children("", List.of(".zgroup", "a/.zarray", "a/0.0", "b/c/d", "e")))
                .containsExactly(".zgroup", "a", "b", "e");
        assertThat(StoreReads.children("b", List.of("b", "b/c/d", "b/e"))).containsExactly("c", "e");
    }

    /** A store in memory whose reads of one key fail, with concurrency 4. */
    private static final class FailingStore extends ForwardingStore {
        private final String bad;

        FailingStore(Store store, String bad) {
            super(store);
            this.bad = bad;
        }

        @Override
        public int concurrency() {
            return 4;
        }

        @Override
        public byte[] get(String key) {
            if (key.equals(bad)) {
                throw new StorageException("cannot read '" + key + "' in " + uri() + ": refused");
            }
            return store.get(key);
        }

        @Override
        public Store resolve(String path) {
            return new FailingStore(store.resolve(path), bad);
        }
    }
}
