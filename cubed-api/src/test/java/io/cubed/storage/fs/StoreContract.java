package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import io.cubed.error.StorageException;
import io.cubed.storage.Store;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The behaviour every {@link Store} backend must have (in the style of n5's AbstractN5Test): each concrete suite
 * supplies a fresh, empty store per test.
 */
abstract class StoreContract {
    /** The store under test, fresh and empty for each test. */
    protected Store store;

    /** Opens a fresh, empty store for one test. */
    protected abstract Store newStore() throws Exception;

    /** Whether the backend is an object store. */
    protected abstract boolean expectedObjectStore();

    /**
     * Arranges for a put to fail for real and returns the key whose put must fail; the default puts a value at
     * {@code "blocker"} so that {@code "blocker/x"} needs a directory where a regular file is.
     */
    protected String arrangeFailingPut() {
        store.put("blocker", bytes("in the way"));
        return "blocker/x";
    }

    /** The keys a failed put of {@link #arrangeFailingPut()} must leave in the store. */
    protected List<String> keysAfterFailingPut() {
        return List.of("blocker");
    }

    /** How many values the writer of the atomicity test puts. */
    protected int atomicityRounds() {
        return 30;
    }

    @BeforeEach
    void openStore() throws Exception {
        store = newStore();
        assertThat(store.list("")).as("a fresh store is empty").isEmpty();
    }

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] random(int size, long seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    @ParameterizedTest
    @ValueSource(strings = {"k", ".zarray", ".zattrs", "a/0.0", "temp/a/0.1.2", "x/y/z/deep.bin", "with space"})
    void putThenGetReturnsTheSameBytes(String key) {
        byte[] value = bytes("value of " + key);
        store.put(key, value);
        assertThat(store.get(key)).isEqualTo(value);
        assertThat(store.exists(key)).isTrue();
        assertThat(store.list("")).containsExactly(key);
    }

    @Test
    void emptyValueRoundTrips() {
        store.put("empty", new byte[0]);
        assertThat(store.get("empty")).isNotNull().isEmpty();
        assertThat(store.exists("empty")).isTrue();
        assertThat(store.getRange("empty", 0, 0)).isEmpty();
    }

    @Test
    void multiMegabyteValueRoundTrips() {
        byte[] value = random(5 * 1024 * 1024 + 17, 42);
        store.put("big/0.0", value);
        assertThat(store.get("big/0.0")).isEqualTo(value);
    }

    @Test
    void putOfALengthStoresOnlyThatManyBytes() {
        byte[] value = random(1024 * 1024 + 5, 43);
        store.put("p/0", value, 700_001);
        assertThat(store.get("p/0")).isEqualTo(Arrays.copyOf(value, 700_001));
        store.put("p/1", value, value.length);
        assertThat(store.get("p/1")).isEqualTo(value);
        store.put("p/2", value, 0);
        assertThat(store.get("p/2")).isEmpty();
        for (int bad : new int[] {-1, value.length + 1}) {
            assertThatThrownBy(() -> store.put("p/3", value, bad))
                    .as("length %d", bad)
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("p/3")
                    .hasMessageContaining(String.valueOf(bad));
        }
        assertThat(store.exists("p/3")).isFalse();
    }

    @Test
    void getRangeOfAMultiMegabyteValue() {
        byte[] value = random(3 * 1024 * 1024 + 11, 44);
        store.put("r/big", value);
        assertThat(store.getRange("r/big", 100_000, 600_000)).isEqualTo(Arrays.copyOfRange(value, 100_000, 700_000));
        assertThat(store.getRange("r/big", 0, value.length)).isEqualTo(value);
    }

    @Test
    void putCopiesTheCallersArray() {
        byte[] value = bytes("abc");
        store.put("k", value);
        value[0] = 'z';
        byte[] read = store.get("k");
        read[1] = 'z';
        assertThat(store.get("k")).isEqualTo(bytes("abc"));
    }

    @Test
    void overwriteReplacesTheWholeValue() {
        store.put("a/k", random(100_000, 1));
        store.put("a/k", bytes("short"));
        assertThat(store.get("a/k")).isEqualTo(bytes("short"));
        store.put("a/k", bytes("short"));
        assertThat(store.get("a/k")).isEqualTo(bytes("short"));
        assertThat(store.list("")).containsExactly("a/k");
    }

    @Test
    void getOfAMissingKeyIsNull() {
        store.put("a/b/c", bytes("x"));
        assertThat(store.get("missing")).isNull();
        assertThat(store.get("missing/deeper/key")).isNull();
        assertThat(store.get("a/b/d")).isNull();
        assertThat(store.get("a/b")).as("a 'directory' holds no value").isNull();
        assertThat(store.exists("a/b")).isFalse();
        assertThat(store.getRange("missing", 0, 1)).isNull();
    }

    @Test
    void getRangeReadsTheRequestedBytes() {
        byte[] value = random(10_000, 7);
        store.put("r/0", value);
        assertThat(store.getRange("r/0", 0, 10)).isEqualTo(Arrays.copyOfRange(value, 0, 10));
        assertThat(store.getRange("r/0", 1234, 4321)).isEqualTo(Arrays.copyOfRange(value, 1234, 1234 + 4321));
        assertThat(store.getRange("r/0", 0, value.length)).isEqualTo(value);
        assertThat(store.getRange("r/0", 9_990, 10)).isEqualTo(Arrays.copyOfRange(value, 9_990, 10_000));
        assertThat(store.getRange("r/0", 10_000, 0)).isEmpty();
    }

    @Test
    void getTailReadsTheLastBytesAndTellsTheSize() {
        byte[] value = random(10_000, 11);
        store.put("t/0", value);
        Store.Part tail = store.getTail("t/0", 1_028);
        assertThat(tail.size()).isEqualTo(10_000);
        assertThat(tail.bytes()).isEqualTo(Arrays.copyOfRange(value, 10_000 - 1_028, 10_000));
        assertThat(store.getTail("t/0", 1).bytes()).containsExactly(value[9_999]);
        // Asked for more than there is: all of it.
        Store.Part whole = store.getTail("t/0", 20_000);
        assertThat(whole.size()).isEqualTo(10_000);
        assertThat(whole.bytes()).isEqualTo(value);
        store.put("t/empty", new byte[0]);
        Store.Part empty = store.getTail("t/empty", 16);
        assertThat(empty.size()).isZero();
        assertThat(empty.bytes()).isEmpty();
        assertThat(store.getTail("t/missing", 16)).isNull();
    }

    @Test
    void getHeadReadsTheFirstBytesAndTellsTheSize() {
        byte[] value = random(10_000, 12);
        store.put("h/0", value);
        Store.Part head = store.getHead("h/0", 1_028);
        assertThat(head.size()).isEqualTo(10_000);
        assertThat(head.bytes()).isEqualTo(Arrays.copyOfRange(value, 0, 1_028));
        assertThat(store.getHead("h/0", 1).bytes()).containsExactly(value[0]);
        // Asked for more than there is: all of it.
        Store.Part whole = store.getHead("h/0", 20_000);
        assertThat(whole.size()).isEqualTo(10_000);
        assertThat(whole.bytes()).isEqualTo(value);
        store.put("h/empty", new byte[0]);
        Store.Part empty = store.getHead("h/empty", 16);
        assertThat(empty.size()).isZero();
        assertThat(empty.bytes()).isEmpty();
        assertThat(store.getHead("h/missing", 16)).isNull();
        assertThatThrownBy(() -> store.getHead("h/0", 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void getRangesReadsEachRangeInOrderAndNullForAMissingValue() {
        byte[] value = random(300_000, 13);
        store.put("g/0", value);
        List<Store.Range> ranges = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            // Out of order, overlapping, and one ending at the last byte.
            long off = (i * 7_919L) % 290_000;
            ranges.add(new Store.Range(off, 1 + (i * 611) % 10_000));
        }
        ranges.add(new Store.Range(299_000, 1_000));
        List<byte[]> got = store.getRanges("g/0", ranges);
        assertThat(got).hasSize(ranges.size());
        for (int i = 0; i < ranges.size(); i++) {
            Store.Range r = ranges.get(i);
            assertThat(got.get(i))
                    .as("range %s", r)
                    .isEqualTo(Arrays.copyOfRange(value, (int) r.offset(), (int) r.offset() + r.length()));
        }
        assertThat(store.getRanges("g/missing", List.of(new Store.Range(0, 1), new Store.Range(5, 5))))
                .isNull();
        assertThat(store.getRanges("g/0", List.of())).isEmpty();
        assertThatThrownBy(() -> store.getRanges("g/0", List.of(new Store.Range(0, 1), new Store.Range(299_999, 2))))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(store.uri())
                .hasMessageContaining("g/0");
    }

    @Test
    void getRangeOutOfRangeFailsNamingStoreAndKey() {
        store.put("r/0", random(100, 7));
        for (long[] range : new long[][] {{90, 11}, {100, 1}, {0, 101}, {5_000, 1}, {101, 0}, {-1, 5}}) {
            assertThatThrownBy(() -> store.getRange("r/0", range[0], (int) range[1]))
                    .as("range [%d, +%d)", range[0], range[1])
                    .isInstanceOf(StorageException.class)
                    .hasMessageContaining(store.uri())
                    .hasMessageContaining("r/0");
        }
    }

    @Test
    void existsIsTrueOnlyForValues() {
        assertThat(store.exists("k")).isFalse();
        store.put("d/k", bytes("v"));
        assertThat(store.exists("d/k")).isTrue();
        assertThat(store.exists("d")).isFalse();
        assertThat(store.exists("d/k/more")).isFalse();
    }

    @Test
    void deleteRemovesOneValue() {
        store.put("d/a", bytes("1"));
        store.put("d/b", bytes("2"));
        store.delete("d/a");
        assertThat(store.get("d/a")).isNull();
        assertThat(store.exists("d/a")).isFalse();
        assertThat(store.list("")).containsExactly("d/b");
        store.delete("d/a");
        store.delete("never/there");
        store.delete("d");
        assertThat(store.list("")).as("deleting a 'directory' key is a no-op").containsExactly("d/b");
    }

    @Test
    void deletePrefixRemovesTheSubtreeButNotTextualSiblings() {
        for (String k : List.of("a/x", "a/y/z", "a/.zarray", "ab", "a.b", "b/a", "ab0/c")) {
            store.put(k, bytes(k));
        }
        store.deletePrefix("a");
        assertThat(store.list("")).containsExactly("a.b", "ab", "ab0/c", "b/a");
        assertThat(store.get("ab")).isEqualTo(bytes("ab"));
        store.deletePrefix("ab");
        assertThat(store.list("")).as("a prefix that is a value deletes it").containsExactly("a.b", "ab0/c", "b/a");
        store.deletePrefix("missing");
        store.deletePrefix("b/a/c");
        assertThat(store.list("")).containsExactly("a.b", "ab0/c", "b/a");
        store.deletePrefix("");
        assertThat(store.list("")).isEmpty();
        store.put("again", bytes("1"));
        assertThat(store.get("again")).isEqualTo(bytes("1"));
    }

    @Test
    void listIsRecursiveSortedAndRelative() {
        for (String k : List.of("b", "a/1", "a/0", ".zattrs", "a/sub/2", "c.d", "ab", "a/sub/.zarray")) {
            store.put(k, bytes(k));
        }
        assertThat(store.list(""))
                .containsExactly(".zattrs", "a/0", "a/1", "a/sub/.zarray", "a/sub/2", "ab", "b", "c.d");
        assertThat(store.list("a")).containsExactly("a/0", "a/1", "a/sub/.zarray", "a/sub/2");
        assertThat(store.list("a/sub")).containsExactly("a/sub/.zarray", "a/sub/2");
        assertThat(store.list("b")).as("a prefix that is a value").containsExactly("b");
        assertThat(store.list("missing")).isEmpty();
        assertThat(store.list("a/missing/deeper")).isEmpty();
    }

    @Test
    void listChildrenNamesOneLevelSortedAndRelative() {
        for (String k : List.of("b", "a/1", "a/0", ".zattrs", "a/sub/2", "c.d", "ab", "a/sub/.zarray", "a/sub/x/3")) {
            store.put(k, bytes(k));
        }
        assertThat(store.listChildren("")).containsExactly(".zattrs", "a", "ab", "b", "c.d");
        assertThat(store.listChildren("a")).containsExactly("0", "1", "sub");
        assertThat(store.listChildren("a/sub")).containsExactly(".zarray", "2", "x");
        assertThat(store.listChildren("b")).as("a prefix that is a value").isEmpty();
        assertThat(store.listChildren("missing")).isEmpty();
        assertThat(store.resolve("a").listChildren("")).containsExactly("0", "1", "sub");
    }

    /** Whether anything lies below a prefix: what {@code listChildren} would say, without listing all of it. */
    @Test
    void holdsAnyBelowIsWhetherListChildrenNamesAnything() {
        assertThat(store.holdsAnyBelow("")).as("an empty store").isFalse();
        for (String k : List.of("a/sub/x/3", "b", ".zattrs")) {
            store.put(k, bytes(k));
        }
        assertThat(store.holdsAnyBelow("")).isTrue();
        assertThat(store.holdsAnyBelow("a")).isTrue();
        assertThat(store.holdsAnyBelow("a/sub")).isTrue();
        assertThat(store.holdsAnyBelow("a/sub/x")).isTrue();
        assertThat(store.holdsAnyBelow("b")).as("a prefix that is a value").isFalse();
        assertThat(store.holdsAnyBelow("missing")).isFalse();
        assertThat(store.holdsAnyBelow("a/su"))
                .as("a prefix of a name, not a level")
                .isFalse();
        assertThat(store.resolve("a/sub").holdsAnyBelow("")).isTrue();
        assertThat(store.resolve("nothing").holdsAnyBelow("")).isFalse();
        for (String prefix : List.of("", "a", "a/sub", "a/sub/x", "b", "missing", "a/su")) {
            assertThat(store.holdsAnyBelow(prefix))
                    .as("'%s' as listChildren says", prefix)
                    .isEqualTo(!store.listChildren(prefix).isEmpty());
        }
    }

    @Test
    void getAllReadsEveryKeyInOrderWithNullForMissingOnes() {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            keys.add("m/" + i + "/.zarray");
            if (i % 3 != 0) {
                store.put("m/" + i + "/.zarray", bytes("doc " + i));
            }
        }
        keys.add("missing");
        List<byte[]> values = store.getAll(keys);
        assertThat(values).hasSize(41);
        for (int i = 0; i < 40; i++) {
            assertThat(values.get(i)).as(keys.get(i)).isEqualTo(i % 3 != 0 ? bytes("doc " + i) : null);
        }
        assertThat(values.get(40)).isNull();
        assertThat(store.getAll(List.of())).isEmpty();
    }

    @Test
    void resolveGivesASubStoreOfTheKeysBelow() {
        store.put("g/a/0", bytes("0"));
        store.put("g/.zarray", bytes("meta"));
        store.put("gh", bytes("sibling"));
        Store sub = store.resolve("g");
        assertThat(sub.uri()).isEqualTo(store.uri() + "/g");
        assertThat(sub.isObjectStore()).isEqualTo(store.isObjectStore());
        assertThat(sub.get("a/0")).isEqualTo(bytes("0"));
        assertThat(sub.list("")).containsExactly(".zarray", "a/0");
        assertThat(sub.get("gh")).isNull();
        sub.put("b/1", bytes("1"));
        assertThat(store.get("g/b/1")).isEqualTo(bytes("1"));
        Store deeper = sub.resolve("b");
        assertThat(deeper.uri()).isEqualTo(store.uri() + "/g/b");
        assertThat(deeper.list("")).containsExactly("1");
        sub.deletePrefix("");
        assertThat(store.list("")).containsExactly("gh");
        assertThat(store.resolve("").list("")).containsExactly("gh");
        assertThatThrownBy(() -> store.resolve("../x")).isInstanceOf(InvalidArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/x", "a/../b", "a//b", "a/", "./a", "..", "a/./b"})
    void invalidKeysAreRejectedNamingStoreAndKey(String key) {
        List<Runnable> calls = List.of(
                () -> store.get(key),
                () -> store.put(key, bytes("v")),
                () -> store.getRange(key, 0, 1),
                () -> store.exists(key),
                () -> store.delete(key),
                () -> store.deletePrefix(key),
                () -> store.list(key),
                () -> store.resolve(key));
        for (Runnable call : calls) {
            assertThatThrownBy(call::run)
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("'" + key + "'")
                    .hasMessageContaining(store.uri());
        }
        assertThat(store.list("")).isEmpty();
    }

    /** A value of three pieces (one of them over a megabyte, one a slice of a larger buffer), in order. */
    @Test
    void piecesAreStoredInOrder() {
        byte[] big = random(1024 * 1024 + 9, 45);
        byte[] expected = new byte[3 + big.length + 5];
        System.arraycopy(bytes("abc"), 0, expected, 0, 3);
        System.arraycopy(big, 0, expected, 3, big.length);
        System.arraycopy(bytes("12345"), 0, expected, 3 + big.length, 5);
        store.put("pieces/0.0", out -> {
            out.write(java.nio.ByteBuffer.wrap(bytes("abc")));
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(big);
            while (b.hasRemaining()) {
                out.write(b);
            }
            out.write(java.nio.ByteBuffer.wrap(bytes("xx12345yy"), 2, 5));
        });
        assertThat(store.get("pieces/0.0")).isEqualTo(expected);
        assertThat(store.list("")).containsExactly("pieces/0.0");
        store.put("pieces/empty", out -> {});
        assertThat(store.get("pieces/empty")).isNotNull().isEmpty();
    }

    /**
     * A writer that fails after some pieces leaves the previous value, or no value, and nothing else: its unchecked
     * exception reaches the caller as it is, an I/O failure as a {@link StorageException} naming the key.
     */
    @Test
    void aWriterThatFailsLeavesThePreviousValue() {
        store.put("w/0", bytes("before"));
        IllegalStateException boom = new IllegalStateException("the writer failed");
        Store.ValueWriter failing = out -> {
            out.write(java.nio.ByteBuffer.wrap(random(300_000, 46)));
            throw boom;
        };
        assertThatThrownBy(() -> store.put("w/0", failing)).isSameAs(boom);
        assertThatThrownBy(() -> store.put("w/1", failing)).isSameAs(boom);
        assertThatThrownBy(() -> store.put("w/2", out -> {
                    out.write(java.nio.ByteBuffer.wrap(bytes("part")));
                    throw new java.io.IOException("disk gone");
                }))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("w/2")
                .hasMessageContaining("disk gone");
        assertThat(store.get("w/0")).isEqualTo(bytes("before"));
        assertThat(store.exists("w/1")).isFalse();
        assertThat(store.exists("w/2")).isFalse();
        assertThat(store.list("")).containsExactly("w/0");
        assertTempFilesGone();
    }

    @Test
    void putAtTheRootFailsNamingTheStore() {
        assertThatThrownBy(() -> store.put("", bytes("v")))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(store.uri());
    }

    @Test
    void uriIsStableAndHasNoTrailingSlash() {
        String before = store.uri();
        store.put("k", bytes("v"));
        assertThat(store.uri()).isEqualTo(before).doesNotEndWith("/");
    }

    @Test
    void isObjectStoreMatchesTheBackend() {
        assertThat(store.isObjectStore()).isEqualTo(expectedObjectStore());
    }

    /**
     * The store whose put of {@link #arrangeFailingPut()}'s key fails: the store under test by default; a backend that
     * accepts any key (S3) gives the same store with credentials the server refuses.
     */
    protected Store storeForFailingPut() {
        return store;
    }

    @Test
    void failedPutLeavesNoValueAndNoTempFile() {
        String key = arrangeFailingPut();
        Store writer = storeForFailingPut();
        assertThatThrownBy(() -> writer.put(key, random(1000, 3)))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining(store.uri())
                .hasMessageContaining(key);
        assertThat(store.get(key)).isNull();
        assertThat(store.list("")).containsExactlyElementsOf(keysAfterFailingPut());
        assertTempFilesGone();
    }

    /** Fails when the backend has temporary files of puts left over (it looks below the store root). */
    protected void assertTempFilesGone() {}

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void readersSeeOnlyWholeValuesWhileAWriterOverwrites() throws Exception {
        byte[] a = random(3 * 1024 * 1024, 11);
        byte[] b = random(2 * 1024 * 1024 + 5, 12);
        store.put("atomic/0.0", a);
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger seenB = new AtomicInteger();
        AtomicReference<String> bad = new AtomicReference<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<?> reader = pool.submit(() -> {
                while (!done.get() && bad.get() == null) {
                    byte[] got = store.get("atomic/0.0");
                    reads.incrementAndGet();
                    if (got == null) {
                        bad.set("read no value");
                    } else if (Arrays.equals(got, b)) {
                        seenB.incrementAndGet();
                    } else if (!Arrays.equals(got, a)) {
                        bad.set("read " + got.length + " bytes that are neither value");
                    }
                }
            });
            Future<?> writer = pool.submit(() -> {
                try {
                    for (int i = 0; i < atomicityRounds() && bad.get() == null; i++) {
                        store.put("atomic/0.0", i % 2 == 0 ? b : a);
                    }
                } finally {
                    done.set(true);
                }
            });
            writer.get(170, TimeUnit.SECONDS);
            reader.get(10, TimeUnit.SECONDS);
        } finally {
            done.set(true);
            pool.shutdownNow();
        }
        assertThat(bad.get()).isNull();
        assertThat(reads.get()).isGreaterThan(1);
        assertThat(store.get("atomic/0.0")).isEqualTo(atomicityRounds() % 2 == 0 ? a : b);
        assertThat(store.list("")).containsExactly("atomic/0.0");
    }

    /**
     * Whether a listing taken while puts run shows only finished keys; true for every real backend. The S3 test
     * server (s3proxy) lists its own in-progress upload files, which real S3 never does.
     */
    protected boolean listingsAreAtomicDuringPuts() {
        return true;
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void concurrentPutsToDifferentKeysAllLand() throws Exception {
        int threads = 8;
        int perThread = 12;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<String> expected = new ArrayList<>();
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                for (int j = 0; j < perThread; j++) {
                    expected.add("shared/" + id + "." + j);
                    expected.add("own" + id + "/deep/" + j);
                }
                futures.add(pool.submit(() -> {
                    for (int j = 0; j < perThread; j++) {
                        store.put("shared/" + id + "." + j, bytes(id + "." + j));
                        store.put("own" + id + "/deep/" + j, random(1000 + j, id * 100L + j));
                    }
                }));
            }
            // A lister running beside the writers sees only finished keys, never a temporary file.
            List<String> seen = new ArrayList<>();
            for (Future<?> f : futures) {
                seen.addAll(store.list(""));
                f.get(170, TimeUnit.SECONDS);
            }
            if (listingsAreAtomicDuringPuts()) {
                assertThat(expected).containsAll(seen);
            }
        } finally {
            pool.shutdownNow();
        }
        expected.sort(null);
        assertThat(store.list("")).containsExactlyElementsOf(expected);
        for (int t = 0; t < threads; t++) {
            for (int j = 0; j < perThread; j++) {
                assertThat(store.get("shared/" + t + "." + j)).isEqualTo(bytes(t + "." + j));
                assertThat(store.get("own" + t + "/deep/" + j)).isEqualTo(random(1000 + j, t * 100L + j));
            }
        }
    }
}
