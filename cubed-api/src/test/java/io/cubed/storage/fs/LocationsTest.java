package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every entry to storage reads a location as Hadoop's {@code new Path(String)} does ({@link Locations}): the reference
 * here is Hadoop's own {@code Path}, asked what directory each spelling names.
 */
class LocationsTest {
    private static final StoreOptions HADOOP = StoreOptions.empty().with(Stores.BACKEND_OPTION, "hadoop");
    private static final StoreOptions RECORDING =
            StoreOptions.empty().with("fs.recording.impl", RecordingFileSystem.class.getName());

    /** Directory names below the test directory: spaces, escapes, URI syntax, dot segments, non-ASCII. */
    private static final List<String> SPELLINGS = List.of(
            "my run/x.zarr", "a%41", "a%20b", "100%", "a#b", "a?b", "x//y", "x/", "./x", "y/../x", "é/日本", "[a]^{b}|c");

    @TempDir
    Path tmp;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The local directory Hadoop's {@code Path} reads {@code location} as. */
    private static Path hadoopReading(String location) {
        return Path.of(new org.apache.hadoop.fs.Path(location).toUri().getPath());
    }

    @Test
    void aHadoopFileSystemIsHandedThePathHadoopReads() {
        for (int i = 0; i < SPELLINGS.size(); i++) {
            String s = SPELLINGS.get(i);
            // Each spelling in a directory of its own ("x//y" is "x/y", inside "x/").
            String url = "recording://nn" + tmp + "/" + i + "/" + s;
            org.apache.hadoop.fs.Path expected = new org.apache.hadoop.fs.Path(new org.apache.hadoop.fs.Path(url), "k");
            try (Store store = Stores.open(url, RECORDING)) {
                assertThat(io.cubed.storage.RetryingStore.unwrapAll(store)).isInstanceOf(HadoopStore.class);
                store.put("k", bytes(s));
                RecordingFileSystem.SEEN.clear();
                assertThat(store.get("k")).as(url).isEqualTo(bytes(s));
                assertThat(RecordingFileSystem.SEEN).as(url).contains(expected);
                assertThat(hadoopReading(url).resolve("k")).as(url).hasBinaryContent(bytes(s));
                assertThat(store.list("")).as(url).containsExactly("k");
                try (Store again = Stores.open(store.uri(), RECORDING)) {
                    assertThat(again.get("k"))
                            .as("reopened from its uri() " + store.uri())
                            .isEqualTo(bytes(s));
                }
            }
        }
    }

    @Test
    void keysAreLiteralBelowAHadoopRoot() {
        String url = "recording://nn" + tmp + "/a b%41";
        try (Store store = Stores.open(url, RECORDING)) {
            store.put("c%41/d e", bytes("v"));
            assertThat(tmp.resolve("a b%41/c%41/d e")).hasBinaryContent(bytes("v"));
            assertThat(store.list("")).containsExactly("c%41/d e");
            assertThat(store.resolve("c%41").get("d e")).isEqualTo(bytes("v"));
        }
    }

    @Test
    void localPathsAndFileUrlsNameTheDirectoryHadoopReadsOnEitherBackend() {
        int n = 0;
        for (int i = 0; i < SPELLINGS.size(); i++) {
            String s = SPELLINGS.get(i);
            String dir = tmp + "/" + i + "/" + s;
            for (String url : List.of(dir, "file:" + dir, "file://" + dir)) {
                for (StoreOptions options : List.of(StoreOptions.empty(), HADOOP)) {
                    String value = s + " " + (n++);
                    try (Store store = Stores.open(url, options)) {
                        store.put("k", bytes(value));
                        assertThat(hadoopReading(url).resolve("k"))
                                .as(url + " " + options)
                                .hasBinaryContent(bytes(value));
                        try (Store again = Stores.open(store.uri(), options)) {
                            assertThat(again.get("k"))
                                    .as("reopened from its uri() " + store.uri())
                                    .isEqualTo(bytes(value));
                        }
                        assertThat(Locations.localPath(url)).isEqualTo(hadoopReading(url));
                    }
                }
            }
        }
    }

    @Test
    void aLocalStoreShowsItsDirectoryAsWritten() {
        Path dir = tmp.resolve("my run %41 é");
        assertThat(new LocalStore(dir).uri()).isEqualTo("file://" + dir);
        assertThat(Locations.fileUrl(Path.of("/"))).isEqualTo("file:///");
        try (Store s = Stores.open(dir.toString(), HADOOP)) {
            assertThat(s.uri()).isEqualTo("file://" + dir);
        }
    }

    @Test
    void spellingsOfOneDirectoryAreOneLocationAndEscapesAreNames() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("my run/x.zarr"));
        StoreLocation plain = StoreLocation.of(dir.toString());
        for (String url : List.of("file://" + dir, "file:" + dir, "file://" + tmp + "/my run//x.zarr/")) {
            assertThat(StoreLocation.of(url)).as(url).isEqualTo(plain);
        }
        assertThat(StoreLocation.of("file://" + tmp + "/my%20run/x.zarr")).isNotEqualTo(plain);
        assertThat(StoreLocation.of(plain.canonicalUrl())).isEqualTo(plain);
        assertThat(plain.canonicalUrl()).isEqualTo("file://" + dir.toRealPath());
    }

    @Test
    void unreadableLocationsAreRefusedNamingThemAndWhy() {
        assertThatThrownBy(() -> Stores.open("file:data/x.zarr"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("'file:data/x.zarr'")
                .hasMessageContaining("relative path 'data/x.zarr'")
                .hasMessageContaining("absolute path");
        assertThatThrownBy(() -> Stores.open("file:"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("'file:' has no path");
        assertThatThrownBy(() -> Stores.open("file://host/data/x", HADOOP))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("'file://host/data/x' names the host 'host'");
        assertThatThrownBy(() -> Stores.open("recording://nn/../x", RECORDING))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("'recording://nn/../x' goes above its root");
        assertThatThrownBy(() -> HadoopStore.open("data/x.zarr", StoreOptions.empty()))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("'data/x.zarr'")
                .hasMessageContaining("no scheme");
        assertThatThrownBy(() -> HadoopStore.open("recording:x.zarr", RECORDING))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("cannot open store 'recording:x.zarr'")
                .hasMessageContaining("Relative path in absolute URI");
        assertThatThrownBy(() -> StoreLocation.of("file:data/x.zarr"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("'file:data/x.zarr'");
    }

    @Test
    void aHadoopUrlWithoutAPathIsTheRootOfItsFileSystem() {
        assertThat(HadoopStore.rootOf("hdfs://nn:8020")).isEqualTo(new org.apache.hadoop.fs.Path("hdfs://nn:8020/"));
        assertThat(HadoopStore.rootOf("hdfs://nn:8020/data/my run/"))
                .isEqualTo(new org.apache.hadoop.fs.Path("hdfs://nn:8020/data/my run"));
    }
}
