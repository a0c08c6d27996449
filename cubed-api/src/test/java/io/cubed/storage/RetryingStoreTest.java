package io.cubed.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.StorageException;
import io.cubed.storage.fs.InMemoryStore;
import java.io.FileNotFoundException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Retries of transient store errors, with a store that fails the first n operations. */
class RetryingStoreTest {
    /** Fails the first {@code failures} calls of every operation with {@code cause}, then delegates. */
    static final class FaultyStore implements Store {
        final Store store;
        final Throwable cause;
        final AtomicInteger remaining;
        final AtomicInteger calls = new AtomicInteger();

        FaultyStore(Store store, int failures, Throwable cause) {
            this.store = store;
            this.cause = cause;
            this.remaining = new AtomicInteger(failures);
        }

        private void maybeFail(String key) {
            calls.incrementAndGet();
            if (remaining.getAndDecrement() > 0) {
                throw new StorageException("injected failure on " + key + ": " + cause.getMessage(), cause);
            }
        }

        @Override
        public String uri() {
            return store.uri();
        }

        @Override
        public byte[] get(String key) {
            maybeFail(key);
            return store.get(key);
        }

        @Override
        public byte[] getRange(String key, long offset, int length) {
            maybeFail(key);
            return store.getRange(key, offset, length);
        }

        @Override
        public void put(String key, byte[] value) {
            maybeFail(key);
            store.put(key, value);
        }

        @Override
        public boolean exists(String key) {
            maybeFail(key);
            return store.exists(key);
        }

        @Override
        public void delete(String key) {
            maybeFail(key);
            store.delete(key);
        }

        @Override
        public void deletePrefix(String prefix) {
            maybeFail(prefix);
            store.deletePrefix(prefix);
        }

        @Override
        public List<String> list(String prefix) {
            maybeFail(prefix);
            return store.list(prefix);
        }

        @Override
        public Store resolve(String path) {
            return store.resolve(path);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void transientErrorsAreRetriedUntilTheyPass() {
        InMemoryStore mem = InMemoryStore.named("retry-" + System.nanoTime());
        FaultyStore faulty = new FaultyStore(mem, 2, new SocketTimeoutException("Read timed out"));
        Store s = RetryingStore.wrap(faulty, 4, 1);
        s.put("a/b", bytes("value"));
        assertThat(faulty.calls.get()).isEqualTo(3);
        assertThat(new String(s.get("a/b"), StandardCharsets.UTF_8)).isEqualTo("value");
        // 503 SlowDown from an object store, as its message says.
        FaultyStore throttled =
                new FaultyStore(mem, 3, new java.io.IOException("Status Code: 503; Error Code: SlowDown"));
        assertThat(RetryingStore.wrap(throttled, 4, 1).exists("a/b")).isTrue();
        assertThat(throttled.calls.get()).isEqualTo(4);
    }

    /**
     * A value in pieces: on a store that writes them as they come (a directory), the wrapper says so and the writer runs
     * once; on one that gathers them, the gathered bytes' put is retried and the writer still runs once.
     */
    @Test
    void piecesAreWrittenOnceAndGatheredPutsRetried(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        AtomicInteger runs = new AtomicInteger();
        Store.ValueWriter value = out -> {
            runs.incrementAndGet();
            out.write(java.nio.ByteBuffer.wrap(bytes("first ")));
            out.write(java.nio.ByteBuffer.wrap(bytes("second")));
        };
        Store local = RetryingStore.wrap(new io.cubed.storage.fs.LocalStore(dir.resolve("s")), 4, 1);
        assertThat(local.putsInPieces()).isTrue();
        local.put("a/0", value);
        assertThat(runs.get()).isEqualTo(1);
        assertThat(local.get("a/0")).isEqualTo(bytes("first second"));

        InMemoryStore mem = InMemoryStore.named("retry-" + System.nanoTime());
        FaultyStore faulty = new FaultyStore(mem, 2, new SocketTimeoutException("Read timed out"));
        Store gathered = RetryingStore.wrap(faulty, 4, 1);
        assertThat(gathered.putsInPieces()).isFalse();
        runs.set(0);
        gathered.put("a/1", value);
        assertThat(runs.get()).isEqualTo(1);
        assertThat(faulty.calls.get()).isEqualTo(3);
        assertThat(mem.get("a/1")).isEqualTo(bytes("first second"));
    }

    @Test
    void permanentErrorsFailAtOnceAndExhaustedRetriesSaySo() {
        InMemoryStore mem = InMemoryStore.named("retry-" + System.nanoTime());
        FaultyStore missing = new FaultyStore(mem, 5, new FileNotFoundException("no such key"));
        assertThatThrownBy(() -> RetryingStore.wrap(missing, 4, 1).get("x"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("injected failure on x");
        assertThat(missing.calls.get()).isEqualTo(1);
        FaultyStore flaky = new FaultyStore(mem, 10, new java.net.SocketException("Connection reset"));
        assertThatThrownBy(() -> RetryingStore.wrap(flaky, 3, 1).put("k", bytes("v")))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("writing k on memory://")
                .hasMessageContaining("failed after 3 attempts")
                .hasMessageContaining("Connection reset");
        assertThat(flaky.calls.get()).isEqualTo(3);
    }

    @Test
    void optionsConfigureAndValidate() {
        InMemoryStore mem = InMemoryStore.named("retry-" + System.nanoTime());
        assertThat(RetryingStore.wrap(mem, StoreOptions.empty().with(RetryingStore.ATTEMPTS, "1")))
                .isSameAs(mem);
        assertThat(RetryingStore.wrap(mem, StoreOptions.empty())).isInstanceOf(RetryingStore.class);
        assertThatThrownBy(() -> RetryingStore.wrap(mem, StoreOptions.empty().with(RetryingStore.ATTEMPTS, "x")))
                .hasMessageContaining(RetryingStore.ATTEMPTS + " must be an integer, got 'x'");
        assertThat(RetryingStore.isTransient(
                        new StorageException("x", new java.io.IOException("HTTP 429 Too Many Requests"))))
                .isTrue();
        assertThat(RetryingStore.isTransient(new StorageException("corrupt chunk")))
                .isFalse();
    }
}
