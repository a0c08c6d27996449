package io.cubed.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A saved plan names its input and output by one spelling of each, so that {@code cubed copy --resume} given {@code
 * s3a://bucket//x.zarr/} finds the plan saved for {@code s3a://bucket/x.zarr}: the spelling Hadoop's {@code Path} gives
 * (the reference here), which S3A and Cubed's S3 client read. Before, only one trailing slash was removed.
 */
class ResumeUrlTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "s3a://bucket/x.zarr",
                "s3a://bucket//x.zarr/",
                "s3a://bucket/data///x.zarr//",
                "s3a://bucket/data/./x.zarr",
                "s3a://bucket/data/other/../x.zarr",
                "s3a://bucket/with space/[1]#x.zarr/"
            })
    void anObjectStoreUrlIsSpelledAsHadoopsPathSpellsIt(String url) {
        assertThat(Resume.canonicalUrl(url)).isEqualTo(new org.apache.hadoop.fs.Path(url).toString());
    }
}
