package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.fs.StoreLocation.Relation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every spelling of one place compares as the same place; nesting and siblings are told apart. */
class StoreLocationTest {
    @TempDir
    Path tmp;

    private static Relation relation(String a, String b) {
        return StoreLocation.of(a).relationTo(StoreLocation.of(b));
    }

    @Test
    void everyLocalSpellingOfOneArrayIsTheSamePlace() throws Exception {
        Path x = Files.createDirectories(tmp.resolve("data/x.zarr"));
        Files.createSymbolicLink(tmp.resolve("link.zarr"), x);
        Files.createSymbolicLink(tmp.resolve("datalink"), tmp.resolve("data"));
        Path cwd = Path.of("").toAbsolutePath();
        String relative = cwd.relativize(x).toString();
        List<String> spellings = List.of(
                x.toString(),
                x + "/",
                x + "//",
                tmp + "/data/./x.zarr",
                tmp + "/data/../data/x.zarr",
                tmp + "//data//x.zarr",
                relative,
                "./" + relative,
                relative + "/",
                x.toUri().toString(),
                "file://" + x,
                "file:" + x,
                tmp.resolve("link.zarr").toString(),
                tmp.resolve("datalink/x.zarr").toString(),
                tmp.resolve("datalink").toUri() + "x.zarr/");
        for (String a : spellings) {
            for (String b : spellings) {
                assertThat(relation(a, b)).as(a + " vs " + b).isEqualTo(Relation.SAME);
            }
        }
        assertThat(StoreLocation.of(relative).toString())
                .isEqualTo(x.toRealPath().toString());
    }

    @Test
    void pathsThatDoNotExistYetResolveThroughTheirExistingAncestors() throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data"));
        Files.createSymbolicLink(tmp.resolve("alias"), data);
        assertThat(relation(tmp + "/alias/new.zarr/inner", data + "/new.zarr")).isEqualTo(Relation.INSIDE);
        assertThat(relation(tmp + "/alias/new.zarr", data + "/new.zarr/")).isEqualTo(Relation.SAME);
    }

    @Test
    void nestingIsToldFromSiblingsWithACommonPrefix() {
        String x = tmp + "/x.zarr";
        assertThat(relation(x + "/inner.zarr", x)).isEqualTo(Relation.INSIDE);
        assertThat(relation(x + "/a/b/c", x + "/")).isEqualTo(Relation.INSIDE);
        assertThat(relation(tmp.toString(), x)).isEqualTo(Relation.CONTAINS);
        assertThat(relation(tmp + "/x.zarr2", x)).isEqualTo(Relation.APART);
        assertThat(relation(tmp + "/x", x)).isEqualTo(Relation.APART);
        assertThat(relation(tmp + "/y.zarr", x)).isEqualTo(Relation.APART);
        assertThat(relation("/", x)).isEqualTo(Relation.CONTAINS);
    }

    @ParameterizedTest(name = "{0} vs {1}: {2}")
    @CsvSource({
        "s3a://bucket/data/x.zarr, s3a://bucket/data/x.zarr/, SAME",
        "s3a://bucket/data/x.zarr, s3://bucket/data/x.zarr, SAME",
        "S3A://bucket/data/x.zarr, s3n://BUCKET//data/./x.zarr, SAME",
        "s3a://bucket/data/x.zarr/inner.zarr, s3a://bucket/data/x.zarr, INSIDE",
        "s3a://bucket/data, s3a://bucket/data/x.zarr, CONTAINS",
        "s3a://bucket/, s3a://bucket/data/x.zarr, CONTAINS",
        "s3a://other/data/x.zarr, s3a://bucket/data/x.zarr, APART",
        "s3a://bucket/data/x.zarr2, s3a://bucket/data/x.zarr, APART",
        "gs://bucket/data/x.zarr, s3a://bucket/data/x.zarr, APART",
        "abfss://c@acct.dfs.core.windows.net/x.zarr, abfs://c@acct.dfs.core.windows.net/x.zarr/, SAME",
        "hdfs://nn:8020/data/x.zarr, hdfs://nn:8020/data/x.zarr/, SAME",
        "hdfs:///data/x.zarr, hdfs://nn:8020/data/x.zarr, SAME",
        "hdfs://nn1:8020/data/x.zarr, hdfs://nn2:8020/data/x.zarr, APART",
        "memory://m/x.zarr, memory://m/x.zarr/, SAME",
        "memory://m/x.zarr/in, memory://m/x.zarr, INSIDE",
        "memory://m/x.zarr, memory://n/x.zarr, APART",
        // Keys are taken literally, as S3's client and Hadoop's Path take them: characters URIs refuse or decode are
        // part of the name.
        "s3a://bucket/data/with space.zarr, s3a://bucket/data/with space.zarr/, SAME",
        "s3a://bucket/data/with space.zarr/in, s3a://bucket/data/with space.zarr, INSIDE",
        "s3a://bucket/data/with space.zarr, s3a://bucket/data/with, APART",
        "s3a://bucket/r[1]^{x}|y\"z, s3a://bucket/r[1]^{x}|y\"z/, SAME",
        "s3a://bucket/ünï€ode.zarr, s3a://bucket/ünï€ode.zarr, SAME",
        "s3a://bucket/q#x/in, s3a://bucket/q#x, INSIDE",
        "s3a://bucket/q#x, s3a://bucket/q, APART",
        "s3a://bucket/a%2Fb, s3a://bucket/a, APART",
        "s3a://bucket/x%2Ezarr, s3a://bucket/x.zarr, APART",
    })
    void objectStoreUrlsCompareByBucketAndKey(String a, String b, Relation expected) {
        assertThat(relation(a, b)).isEqualTo(expected);
        Relation reverse =
                switch (expected) {
                    case INSIDE -> Relation.CONTAINS;
                    case CONTAINS -> Relation.INSIDE;
                    default -> expected;
                };
        assertThat(relation(b, a)).isEqualTo(reverse);
    }

    @Test
    void aLocalPathAndAnObjectStoreKeyAreApart() {
        assertThat(relation(tmp + "/bucket/x.zarr", "s3a://bucket/x.zarr")).isEqualTo(Relation.APART);
    }

    @Test
    void requireApartNamesBothPathsAsGivenAndAsResolved() throws Exception {
        Path x = Files.createDirectories(tmp.resolve("x.zarr"));
        Files.createSymbolicLink(tmp.resolve("same.zarr"), x);
        assertThatThrownBy(() -> StoreLocation.requireApart("copy", x.toString(), tmp + "/same.zarr/"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("copy: the destination " + tmp + "/same.zarr (" + x.toRealPath() + ") is the source " + x
                        + "; writing it would destroy or corrupt the source: choose a destination outside it");
        assertThatThrownBy(() -> StoreLocation.requireApart("copy", x.toString(), x + "/inner.zarr"))
                .hasMessageContaining("lies inside the source");
        assertThatThrownBy(() -> StoreLocation.requireApart("copy", x.toString(), tmp.toString()))
                .hasMessageContaining("contains the source");
        assertThatCode(() -> StoreLocation.requireApart("copy", x.toString(), tmp + "/y.zarr"))
                .doesNotThrowAnyException();
    }
}
