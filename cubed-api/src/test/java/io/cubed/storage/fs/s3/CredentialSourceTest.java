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

    /** A metadata service on 127.0.0.1 answering as EC2's (IMDSv2) or a container endpoint, counting its requests. */
    private static final class MetadataServer implements AutoCloseable {
        final com.sun.net.httpserver.HttpServer server;
        final java.util.List<String> requests = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

        MetadataServer(String accessKey, String expiration) throws java.io.IOException {
            server = com.sun.net.httpserver.HttpServer.create(
                    new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", ex -> {
                String what = ex.getRequestMethod() + " " + ex.getRequestURI().getPath();
                requests.add(what + " token=" + ex.getRequestHeaders().getFirst("X-aws-ec2-metadata-token") + " auth="
                        + ex.getRequestHeaders().getFirst("Authorization"));
                String body;
                int status = 200;
                if (what.equals("PUT /latest/api/token")) {
                    body = "TOKEN-1";
                } else if (what.equals("GET /latest/meta-data/iam/security-credentials/")) {
                    body = "my-role\n";
                } else if (what.equals("GET /latest/meta-data/iam/security-credentials/my-role")
                        || what.equals("GET /creds")) {
                    body = "{\"Code\" : \"Success\", \"AccessKeyId\" : \"" + accessKey + "\", \"SecretAccessKey\" :"
                            + " \"SK\\/x\", \"Token\" : \"SESSION\", \"Expiration\" : \"" + expiration + "\"}";
                } else {
                    body = "not here";
                    status = 404;
                }
                byte[] b = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                ex.sendResponseHeaders(status, b.length);
                ex.getResponseBody().write(b);
                ex.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    @Test
    void withoutKeysTheInstanceProfilesCredentialsComeFromTheMetadataServiceAndAreKeptUntilNearExpiry()
            throws Exception {
        String later = java.time.Instant.now().plusSeconds(3600).toString();
        try (MetadataServer imds = new MetadataServer("INSTANCE-AK", later)) {
            Map<String, String> env = Map.of("AWS_EC2_METADATA_SERVICE_ENDPOINT", imds.url());
            S3Settings s = new S3Settings("bucket", StoreOptions.empty(), env);
            CredentialSource source = CredentialSource.of(s, env);
            assertThat(source.get()).isEqualTo(new Credentials("INSTANCE-AK", "SK/x", "SESSION"));
            assertThat(source.get()).isEqualTo(new Credentials("INSTANCE-AK", "SK/x", "SESSION"));
            assertThat(imds.requests)
                    .as("IMDSv2: a token, then the role and its credentials with it; fetched once")
                    .containsExactly(
                            "PUT /latest/api/token token=null auth=null",
                            "GET /latest/meta-data/iam/security-credentials/ token=TOKEN-1 auth=null",
                            "GET /latest/meta-data/iam/security-credentials/my-role token=TOKEN-1 auth=null");
        }
        String soon = java.time.Instant.now().plusSeconds(60).toString();
        try (MetadataServer imds = new MetadataServer("SHORT-AK", soon)) {
            Map<String, String> env = Map.of("AWS_EC2_METADATA_SERVICE_ENDPOINT", imds.url());
            CredentialSource source = CredentialSource.of(new S3Settings("bucket", StoreOptions.empty(), env), env);
            source.get();
            source.get();
            assertThat(imds.requests)
                    .as("credentials within 5 minutes of expiry are fetched again")
                    .hasSize(6);
        }
    }

    @Test
    void aContainersCredentialsComeFromItsEndpointWithItsToken() throws Exception {
        try (MetadataServer endpoint = new MetadataServer(
                "CONTAINER-AK", java.time.Instant.now().plusSeconds(3600).toString())) {
            Map<String, String> env = Map.of(
                    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
                    endpoint.url() + "/creds",
                    "AWS_CONTAINER_AUTHORIZATION_TOKEN",
                    "Bearer abc");
            Credentials c = CredentialSource.of(new S3Settings("bucket", StoreOptions.empty(), env), env)
                    .get();
            assertThat(c).isEqualTo(new Credentials("CONTAINER-AK", "SK/x", "SESSION"));
            assertThat(endpoint.requests).containsExactly("GET /creds token=null auth=Bearer abc");
        }
    }

    @Test
    void noMetadataServiceIsNoCredentialsAndTheErrorSaysWhereItLooked() throws Exception {
        int closed;
        try (java.net.ServerSocket socket =
                new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        Map<String, String> env = Map.of("AWS_EC2_METADATA_SERVICE_ENDPOINT", "http://127.0.0.1:" + closed);
        assertThatThrownBy(() -> credentials(Map.of(), env))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("no AWS credentials for s3a://bucket")
                .hasMessageContaining("AWS_ACCESS_KEY_ID")
                .hasMessageContaining("instance profile");
    }
}
