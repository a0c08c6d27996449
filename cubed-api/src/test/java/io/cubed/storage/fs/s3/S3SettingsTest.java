package io.cubed.storage.fs.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.StoreOptions;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class S3SettingsTest {
    private static S3Settings settings(String bucket, Map<String, String> options, Map<String, String> env) {
        return new S3Settings(bucket, StoreOptions.of(options), env);
    }

    @Test
    void aPerBucketOptionOverridesTheGeneralOne() {
        S3Settings s = settings(
                "data",
                Map.of(
                        "fs.s3a.endpoint",
                        "s3.eu-west-1.amazonaws.com",
                        "fs.s3a.bucket.data.endpoint",
                        "s3.us-west-2.amazonaws.com"),
                Map.of());
        assertThat(s.get("endpoint")).isEqualTo("s3.us-west-2.amazonaws.com");
        assertThat(settings("other", Map.of("fs.s3a.endpoint", "e", "fs.s3a.bucket.data.endpoint", "f"), Map.of())
                        .get("endpoint"))
                .isEqualTo("e");
    }

    @Test
    void theRegionComesFromTheOptionTheEndpointTheEnvironmentOrUsEast1() {
        assertThat(settings("b", Map.of("fs.s3a.endpoint.region", "ap-south-1"), Map.of("AWS_REGION", "x"))
                        .region())
                .isEqualTo("ap-south-1");
        assertThat(settings("b", Map.of("fs.s3a.endpoint", "s3.eu-central-1.amazonaws.com"), Map.of())
                        .region())
                .isEqualTo("eu-central-1");
        assertThat(settings("b", Map.of("fs.s3a.endpoint", "https://s3-us-west-1.amazonaws.com"), Map.of())
                        .region())
                .isEqualTo("us-west-1");
        assertThat(settings("b", Map.of(), Map.of("AWS_DEFAULT_REGION", "eu-north-1"))
                        .region())
                .isEqualTo("eu-north-1");
        assertThat(settings("b", Map.of("fs.s3a.endpoint", "http://127.0.0.1:9000"), Map.of())
                        .region())
                .isEqualTo("us-east-1");
    }

    @Test
    void endpointsTakeTheSchemeTheSslSettingSays() {
        assertThat(settings("b", Map.of(), Map.of()).endpoint("eu-west-1"))
                .isEqualTo(URI.create("https://s3.eu-west-1.amazonaws.com"));
        assertThat(settings(
                                "b",
                                Map.of("fs.s3a.endpoint", "minio:9000", "fs.s3a.connection.ssl.enabled", "false"),
                                Map.of())
                        .endpoint("us-east-1"))
                .isEqualTo(URI.create("http://minio:9000"));
        assertThat(settings("b", Map.of("fs.s3a.endpoint", "HTTP://127.0.0.1:9000/ignored"), Map.of())
                        .endpoint("us-east-1"))
                .isEqualTo(URI.create("http://127.0.0.1:9000"));
        assertThatThrownBy(() -> settings("b", Map.of("fs.s3a.endpoint", "ftp://x"), Map.of())
                        .endpoint("us-east-1"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("fs.s3a.endpoint")
                .hasMessageContaining("ftp://x");
    }

    @Test
    void pathStyleWhenAskedForAndWhereVirtualHostsCannotWork() {
        URI aws = URI.create("https://s3.eu-west-1.amazonaws.com");
        assertThat(settings("data", Map.of(), Map.of()).pathStyle(aws)).isFalse();
        assertThat(settings("data", Map.of("fs.s3a.path.style.access", "true"), Map.of())
                        .pathStyle(aws))
                .isTrue();
        assertThat(settings("my.dotted.bucket", Map.of(), Map.of()).pathStyle(aws))
                .isTrue();
        assertThat(settings("data", Map.of(), Map.of()).pathStyle(URI.create("http://127.0.0.1:9000")))
                .isTrue();
        assertThat(settings("data", Map.of(), Map.of()).pathStyle(URI.create("http://localhost:9000")))
                .isTrue();
    }

    @Test
    void durationsTakeHadoopUnitsAndFlagsOnlyBooleans() {
        S3Settings s = settings(
                "b",
                Map.of(
                        "fs.s3a.connection.timeout",
                        "2s",
                        "fs.s3a.connection.establish.timeout",
                        "1500",
                        "fs.s3a.path.style.access",
                        "yes"),
                Map.of());
        assertThat(s.millis("connection.timeout", 1)).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.millis("connection.establish.timeout", 1)).isEqualTo(Duration.ofMillis(1500));
        assertThat(s.millis("unset", 7)).isEqualTo(Duration.ofMillis(7));
        assertThatThrownBy(() -> s.flag("path.style.access", false))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("fs.s3a.path.style.access")
                .hasMessageContaining("yes");
    }

    @Test
    void awsEndpointsAreTheDefaultAndAmazonawsHosts() {
        assertThat(settings("b", Map.of(), Map.of()).awsEndpoint()).isTrue();
        assertThat(settings("b", Map.of("fs.s3a.endpoint", "s3.cn-north-1.amazonaws.com.cn"), Map.of())
                        .awsEndpoint())
                .isTrue();
        assertThat(settings("b", Map.of("fs.s3a.endpoint", "http://127.0.0.1:9000"), Map.of())
                        .awsEndpoint())
                .isFalse();
    }
}
