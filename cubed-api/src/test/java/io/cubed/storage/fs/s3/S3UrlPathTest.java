package io.cubed.storage.fs.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.StoreLocation;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cubed's S3 client reads the path of an {@code s3a://} URL as S3A does, through Hadoop's {@code Path}: repeated
 * slashes are one, a trailing slash is dropped, {@code .} and {@code ..} are applied, any other character is part of the
 * key. The reference is Hadoop 3.3.4's {@code Path} itself (the key S3A's {@code pathToKey} takes: the URI's path
 * without its leading slash). Before, {@code s3a://bucket//x} was refused ("store key '/x' must not start or end with
 * '/'") where S3A reads and writes {@code s3a://bucket/x}.
 */
class S3UrlPathTest {
    private static final StoreOptions OPTIONS = StoreOptions.of(Map.of(
            "fs.s3a.endpoint", "http://127.0.0.1:9",
            "fs.s3a.access.key", "k",
            "fs.s3a.secret.key", "s"));

    /** The object key prefix S3A uses for {@code url}: Hadoop's {@code Path}, its URI's path without the leading '/'. */
    private static String hadoopKey(String url) {
        String path = new org.apache.hadoop.fs.Path(url).toUri().getPath();
        return path.startsWith("/") ? path.substring(1) : path;
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "s3a://bucket//x",
                "s3a://bucket///x",
                "s3a://bucket/x/",
                "s3a://bucket/x//",
                "s3a://bucket/a//b/c.zarr",
                "s3a://bucket/a///b",
                "s3a://bucket/a/./b",
                "s3a://bucket/a/../b",
                "s3a://bucket//",
                "s3a://bucket/",
                "s3a://bucket",
                "s3a://bucket/with space//r[1]^{x}|y/",
                "s3a://bucket/q#x//a%41/"
            })
    void thePrefixIsTheKeyHadoopsPathGives(String url) {
        S3Store s = S3Store.open(url, OPTIONS, 1, Map.of());
        String key = hadoopKey(url);
        assertThat(s.uri()).isEqualTo("s3a://bucket" + (key.isEmpty() ? "" : "/" + key));
        // The overlap checks (copy, rechunk, toZarr over their input) see the same place.
        assertThat(StoreLocation.of(url).relationTo(StoreLocation.of(s.uri()))).isEqualTo(StoreLocation.Relation.SAME);
        assertThat(StoreLocation.of(url).canonicalUrl()).isEqualTo(s.uri());
        // A store below it joins its keys onto the normalised prefix.
        assertThat(S3Store.open(url + "/in.zarr", OPTIONS, 1, Map.of()).uri())
                .isEqualTo("s3a://bucket/" + (key.isEmpty() ? "" : key + "/") + "in.zarr");
    }

    @Test
    void aDotDotAboveTheBucketIsRefused() {
        // Hadoop's Path keeps it as a key named "..", which no one means: refused, naming the URL.
        assertThat(hadoopKey("s3a://bucket/../x")).isEqualTo("../x");
        for (String url : new String[] {"s3a://bucket/../x", "s3a://bucket/a/../../x"}) {
            assertThatThrownBy(() -> S3Store.open(url, OPTIONS, 1, Map.of()))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("'" + url + "' goes above its root with '..'");
            assertThatThrownBy(() -> StoreLocation.of(url))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining(url);
        }
    }
}
