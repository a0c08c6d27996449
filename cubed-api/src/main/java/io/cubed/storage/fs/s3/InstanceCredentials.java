package io.cubed.storage.fs.s3;

import io.cubed.error.StorageException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The credentials of the machine or container a JVM runs on, as the AWS SDKs find them: a container's (ECS, EKS Pod
 * Identity) from {@code AWS_CONTAINER_CREDENTIALS_RELATIVE_URI} or {@code AWS_CONTAINER_CREDENTIALS_FULL_URI} (with
 * {@code AWS_CONTAINER_AUTHORIZATION_TOKEN} or {@code _FILE}), else the EC2 instance profile's through the instance
 * metadata service, version 2 (a session token first, then the role and its credentials; {@code
 * AWS_EC2_METADATA_SERVICE_ENDPOINT} names another endpoint, {@code AWS_EC2_METADATA_DISABLED=true} turns it off).
 * What EMR and Databricks nodes use. Kept until five minutes before they expire, then fetched again; a machine without
 * a metadata service answers nothing within a second, and that is reported as no credentials.
 */
final class InstanceCredentials implements CredentialSource {
    private static final Duration REFRESH_BEFORE = Duration.ofMinutes(5);
    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final Map<String, String> env;
    private final Http1 http = new Http1(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ZERO, null);
    private Credentials cached;
    private Instant expires = Instant.MIN;

    InstanceCredentials(Map<String, String> env) {
        this.env = env;
    }

    @Override
    public synchronized Credentials get() {
        if (cached != null && Instant.now().isBefore(expires.minus(REFRESH_BEFORE))) {
            return cached;
        }
        try {
            Map<String, String> f = env.get("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") != null
                            || env.get("AWS_CONTAINER_CREDENTIALS_FULL_URI") != null
                    ? container()
                    : instance();
            if (f == null) {
                return null;
            }
            String access = f.get("AccessKeyId");
            String secret = f.get("SecretAccessKey");
            if (access == null || secret == null) {
                throw new StorageException("the instance's credentials came without AccessKeyId or SecretAccessKey"
                        + (f.get("Code") == null ? "" : " (" + f.get("Code") + ": " + f.get("Message") + ")"));
            }
            cached = new Credentials(access, secret, f.get("Token"));
            expires = f.get("Expiration") == null ? Instant.MAX : Instant.parse(f.get("Expiration"));
            return cached;
        } catch (IOException | RuntimeException e) {
            if (e instanceof StorageException s) {
                throw s;
            }
            throw new StorageException("cannot fetch the instance's credentials: " + e.getMessage(), e);
        }
    }

    /** The fields of the container credentials endpoint's answer. */
    private Map<String, String> container() throws IOException {
        String relative = env.get("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
        URI uri = URI.create(
                relative != null ? "http://169.254.170.2" + relative : env.get("AWS_CONTAINER_CREDENTIALS_FULL_URI"));
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        String token = env.get("AWS_CONTAINER_AUTHORIZATION_TOKEN");
        String tokenFile = env.get("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
        if (tokenFile != null) {
            token = java.nio.file.Files.readString(java.nio.file.Path.of(tokenFile))
                    .strip();
        }
        if (token != null) {
            headers.add(Map.entry("Authorization", token));
        }
        return fields(text(uri, "GET", uri.getRawPath(), headers, 200));
    }

    /** The fields of the instance metadata service's credentials of the instance profile's role; null when none. */
    private Map<String, String> instance() throws IOException {
        if ("true".equalsIgnoreCase(env.get("AWS_EC2_METADATA_DISABLED"))) {
            return null;
        }
        URI base = URI.create(env.getOrDefault("AWS_EC2_METADATA_SERVICE_ENDPOINT", "http://169.254.169.254"));
        String token;
        try {
            token = text(
                    base,
                    "PUT",
                    "/latest/api/token",
                    List.of(Map.entry("X-aws-ec2-metadata-token-ttl-seconds", "21600")),
                    200);
        } catch (IOException e) {
            // No metadata service: not an EC2 instance.
            return null;
        }
        List<Map.Entry<String, String>> auth = List.of(Map.entry("X-aws-ec2-metadata-token", token.strip()));
        String roles = text(base, "GET", "/latest/meta-data/iam/security-credentials/", auth, 200)
                .strip();
        if (roles.isEmpty()) {
            return null;
        }
        String role = roles.split("\\s+")[0];
        return fields(text(base, "GET", "/latest/meta-data/iam/security-credentials/" + role, auth, 200));
    }

    private String text(URI base, String method, String path, List<Map.Entry<String, String>> headers, int ok)
            throws IOException {
        int port = base.getPort() >= 0 ? base.getPort() : base.getScheme().equals("https") ? 443 : 80;
        Http1.Response r = http.exchange(
                base.getScheme(),
                base.getHost(),
                port,
                method,
                path,
                headers,
                method.equals("PUT") ? new byte[0] : null,
                0,
                0);
        if (r.status() != ok) {
            throw new IOException("HTTP " + r.status() + " from " + base + path);
        }
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    /** The string fields of a flat JSON object. */
    static Map<String, String> fields(String json) {
        Map<String, String> f = new java.util.HashMap<>();
        Matcher m = FIELD.matcher(json);
        while (m.find()) {
            f.put(
                    m.group(1),
                    m.group(2).replace("\\/", "/").replace("\\\"", "\"").replace("\\\\", "\\"));
        }
        return f;
    }
}
