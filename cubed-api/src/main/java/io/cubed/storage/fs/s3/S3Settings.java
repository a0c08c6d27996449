package io.cubed.storage.fs.s3;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.StoreOptions;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings of an S3 bucket for Cubed's S3 client, read from the store options under S3A's names, so that a
 * configuration made for Hadoop's S3A serves as it is: {@code fs.s3a.bucket.BUCKET.NAME} overrides {@code
 * fs.s3a.NAME}, as in S3A. Immutable.
 *
 * <p>Read here: {@code endpoint} (a host, or a URL with its scheme; default AWS), {@code endpoint.region}, {@code
 * path.style.access}, {@code connection.ssl.enabled}, {@code connection.establish.timeout} and {@code
 * connection.timeout} (ms), {@code connection.request.timeout} (s), the credentials ({@link CredentialSource}), server-side encryption ({@code
 * encryption.algorithm} or the older {@code server-side-encryption-algorithm}: {@code AES256}/{@code SSE-S3}, {@code
 * SSE-KMS} and {@code SSE-C}, with {@code encryption.key}), {@code acl.default}, {@code requester.pays.enabled},
 * {@code proxy.host} and {@code proxy.port}, and {@code user.agent.prefix}.
 */
final class S3Settings {
    private static final Pattern AWS_HOST = Pattern.compile(
            "s3[.-](?:dualstack\\.)?([a-z0-9-]+)\\.amazonaws\\.com(?:\\.cn)?", Pattern.CASE_INSENSITIVE);
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern DNS_BUCKET = Pattern.compile("[a-z0-9][a-z0-9-]{1,61}[a-z0-9]");

    private final String bucket;
    private final StoreOptions options;
    private final Map<String, String> env;

    S3Settings(String bucket, StoreOptions options, Map<String, String> env) {
        this.bucket = bucket;
        this.options = options;
        this.env = env;
    }

    String bucket() {
        return bucket;
    }

    StoreOptions options() {
        return options;
    }

    Map<String, String> environment() {
        return env;
    }

    /** {@code fs.s3a.bucket.BUCKET.name}, else {@code fs.s3a.name}, else null; trimmed. */
    String get(String name) {
        String v = options.get("fs.s3a.bucket." + bucket + "." + name);
        if (v == null) {
            v = options.get("fs.s3a." + name);
        }
        return v == null ? null : v.trim();
    }

    boolean flag(String name, boolean fallback) {
        String v = get(name);
        if (v == null || v.isEmpty()) {
            return fallback;
        }
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new InvalidArgumentException("fs.s3a." + name + " must be true or false, got '" + v + "'");
    }

    /** A duration in ms, or with Hadoop's units ({@code 50ms}, {@code 2s}, {@code 1m}). */
    Duration millis(String name, long fallback) {
        return duration(name, Duration.ofMillis(fallback), "ms");
    }

    /**
     * A duration in seconds, or with Hadoop's units ({@code 500ms}, {@code 2s}, {@code 1m}), for the settings S3A reads
     * in seconds ({@code connection.request.timeout} in Hadoop 3.3.4).
     */
    Duration seconds(String name, long fallback) {
        return duration(name, Duration.ofSeconds(fallback), "s");
    }

    private Duration duration(String name, Duration fallback, String unitless) {
        String v = get(name);
        if (v == null || v.isEmpty()) {
            return fallback;
        }
        Matcher m = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?", Pattern.CASE_INSENSITIVE)
                .matcher(v);
        if (!m.matches()) {
            throw new InvalidArgumentException(
                    "fs.s3a." + name + " must be a duration in " + unitless + " (or 500ms, 2s, 1m), got '" + v + "'");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? unitless : m.group(2).toLowerCase(Locale.ROOT);
        return switch (unit) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofMillis(n);
        };
    }

    /** The endpoint with its scheme (no path): the configured one, else AWS's for {@link #region}. */
    URI endpoint(String region) {
        String e = get("endpoint");
        boolean ssl = flag("connection.ssl.enabled", true);
        if (e == null || e.isEmpty()) {
            return URI.create("https://s3." + region + ".amazonaws.com");
        }
        String url = e.contains("://") ? e : (ssl ? "https://" : "http://") + e;
        URI u = URI.create(url);
        if (u.getHost() == null || (u.getScheme() != null && !u.getScheme().matches("(?i)https?"))) {
            throw new InvalidArgumentException("fs.s3a.endpoint must be a host or an http(s) URL, got '" + e + "'");
        }
        return URI.create(u.getScheme().toLowerCase(Locale.ROOT) + "://" + u.getRawAuthority());
    }

    /** True when the endpoint is AWS's own (set or by default), where a bucket's region may need to be learnt. */
    boolean awsEndpoint() {
        String e = get("endpoint");
        if (e == null || e.isEmpty()) {
            return true;
        }
        String host = URI.create(e.contains("://") ? e : "https://" + e).getHost();
        return host != null && host.toLowerCase(Locale.ROOT).endsWith(".amazonaws.com")
                || host != null && host.toLowerCase(Locale.ROOT).endsWith(".amazonaws.com.cn");
    }

    /**
     * The region requests are signed for: {@code endpoint.region}, else the one in an AWS endpoint's host name, else
     * {@code AWS_REGION} or {@code AWS_DEFAULT_REGION}, else us-east-1.
     */
    String region() {
        String r = get("endpoint.region");
        if (r != null && !r.isEmpty()) {
            return r;
        }
        String e = get("endpoint");
        if (e != null && !e.isEmpty()) {
            String host = URI.create(e.contains("://") ? e : "https://" + e).getHost();
            Matcher m = host == null ? null : AWS_HOST.matcher(host);
            if (m != null && m.matches()) {
                return m.group(1).toLowerCase(Locale.ROOT);
            }
        }
        for (String name : new String[] {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
            String v = env.get(name);
            if (v != null && !v.isEmpty()) {
                return v;
            }
        }
        return "us-east-1";
    }

    /**
     * Whether requests name the bucket in the path ({@code host/bucket/key}) rather than the host name ({@code
     * bucket.host/key}): when set, and always for a bucket whose name is no DNS label (dots break TLS host names)
     * and for endpoints given as an IP address or {@code localhost}.
     */
    boolean pathStyle(URI endpoint) {
        if (flag("path.style.access", false)) {
            return true;
        }
        String host = endpoint.getHost();
        return !DNS_BUCKET.matcher(bucket).matches()
                || IPV4.matcher(host).matches()
                || host.startsWith("[")
                || host.equalsIgnoreCase("localhost");
    }
}
