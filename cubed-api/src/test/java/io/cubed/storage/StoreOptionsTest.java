package io.cubed.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Credentials are recognised by Spark's and Hadoop's redaction patterns and never shown. */
class StoreOptionsTest {
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
        "fs.s3a.secret.key, true",
        "fs.s3a.access.key, true",
        "fs.s3a.session.token, true",
        "fs.s3a.bucket.my-bucket.secret.key, true",
        "fs.s3a.server-side-encryption.key, true",
        "fs.s3a.encryption.key, true",
        "fs.azure.account.key.myaccount.dfs.core.windows.net, true",
        "fs.azure.account.oauth2.client.secret, true",
        "fs.gs.auth.service.account.private.key, true",
        "hadoop.security.credential.provider.password, true",
        "fs.adl.oauth2.refresh.token, true",
        "spark.ssl.keyStorePassword, true",
        "fs.s3a.endpoint, false",
        "fs.s3a.path.style.access, false",
        "fs.s3a.aws.credentials.provider, false",
        "cubed.store.retry.attempts, false",
    })
    void sensitiveKeysAreThoseSparkAndHadoopRedact(String key, boolean sensitive) {
        assertThat(StoreOptions.isSensitive(key)).isEqualTo(sensitive);
    }

    @org.junit.jupiter.api.Test
    void redactedOptionsKeepKeysAndHideValues() {
        StoreOptions o = StoreOptions.of(Map.of(
                "fs.s3a.endpoint",
                "http://127.0.0.1:9000",
                "fs.s3a.secret.key",
                "s3cr3t",
                "fs.s3a.access.key",
                "AKIA"));
        assertThat(o.redacted().asMap())
                .containsEntry("fs.s3a.endpoint", "http://127.0.0.1:9000")
                .containsEntry("fs.s3a.secret.key", StoreOptions.REDACTED)
                .containsEntry("fs.s3a.access.key", StoreOptions.REDACTED);
        assertThat(o.toString()).doesNotContain("s3cr3t").doesNotContain("AKIA");
    }
}
