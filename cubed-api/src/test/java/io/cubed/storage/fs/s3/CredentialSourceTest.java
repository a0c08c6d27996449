package io.cubed.storage.fs.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.StorageException;
import io.cubed.storage.StoreOptions;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CredentialSourceTest {
    private static Credentials credentials(Map<String, String> options, Map<String, String> env) {
        S3Settings s = new S3Settings("bucket", StoreOptions.of(options), env);
        return CredentialSource.of(s, env).get();
    }

    @Test
    void keysOfTheOptionsComeFirstWithTheirSessionToken() {
        Map<String, String> o =
                Map.of("fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK", "fs.s3a.session.token", "TOKEN");
        Credentials c = credentials(o, Map.of("AWS_ACCESS_KEY_ID", "ENV", "AWS_SECRET_ACCESS_KEY", "ENVS"));
        assertThat(c).isEqualTo(new Credentials("AK", "SK", "TOKEN"));
        assertThat(c.toString()).doesNotContain("SK").doesNotContain("TOKEN");
    }

    @Test
    void aBucketsOwnKeysWin() {
        Map<String, String> o = Map.of(
                "fs.s3a.access.key",
                "AK",
                "fs.s3a.secret.key",
                "SK",
                "fs.s3a.bucket.bucket.access.key",
                "BAK",
                "fs.s3a.bucket.bucket.secret.key",
                "BSK");
        assertThat(credentials(o, Map.of())).isEqualTo(new Credentials("BAK", "BSK", null));
    }

    @Test
    void theEnvironmentServesWhenTheOptionsHaveNoKeys() {
        Map<String, String> env =
                Map.of("AWS_ACCESS_KEY_ID", "EAK", "AWS_SECRET_ACCESS_KEY", "ESK", "AWS_SESSION_TOKEN", "ET");
        assertThat(credentials(Map.of(), env)).isEqualTo(new Credentials("EAK", "ESK", "ET"));
    }

    @Test
    void namedProvidersAreAskedInTheirOrder() {
        Map<String, String> o = new HashMap<>(
                Map.of("fs.s3a.access.key", "AK", "fs.s3a.secret.key", "SK", "fs.s3a.session.token", "T"));
        o.put("fs.s3a.aws.credentials.provider", CredentialSource.ENVIRONMENT + ", " + CredentialSource.SIMPLE);
        Map<String, String> env = Map.of("AWS_ACCESS_KEY_ID", "EAK", "AWS_SECRET_ACCESS_KEY", "ESK");
        assertThat(credentials(o, env)).isEqualTo(new Credentials("EAK", "ESK", null));
        // SimpleAWSCredentialsProvider takes no session token; TemporaryAWSCredentialsProvider does.
        assertThat(credentials(o, Map.of())).isEqualTo(new Credentials("AK", "SK", null));
        o.put("fs.s3a.aws.credentials.provider", CredentialSource.TEMPORARY);
        assertThat(credentials(o, Map.of())).isEqualTo(new Credentials("AK", "SK", "T"));
    }

    @Test
    void anonymousAccessSignsNothing() {
        Credentials c = credentials(Map.of("fs.s3a.aws.credentials.provider", CredentialSource.ANONYMOUS), Map.of());
        assertThat(c.anonymous()).isTrue();
    }

    @Test
    void noCredentialsFailsSayingWhereItLookedAndWhatToSet() {
        assertThatThrownBy(
                        () -> credentials(Map.of("fs.s3a.aws.credentials.provider", CredentialSource.SIMPLE), Map.of()))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("no AWS credentials for s3a://bucket")
                .hasMessageContaining(CredentialSource.SIMPLE);
    }

    @Test
    void aProviderOnlyS3aKnowsIsAskedThroughS3asChain() {
        Map<String, String> o = Map.of(
                "fs.s3a.aws.credentials.provider", FixedCredentialsProvider.class.getName(),
                "test.fixed.access", "FAK",
                "test.fixed.secret", "FSK",
                "test.fixed.token", "FT");
        assertThat(credentials(o, Map.of())).isEqualTo(new Credentials("FAK", "FSK", "FT"));
    }
}
