package io.cubed.storage.fs.s3;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 for S3 requests signed in the {@code Authorization} header: the canonical request, the
 * string to sign and the signing key derived from the secret key, the day, the region and the service. The derived
 * key is kept per day and region, so most requests cost two SHA-256 hashes and two HMACs. Stateless otherwise and
 * safe for use by many threads.
 */
final class SigV4 {
    /** The hex SHA-256 of an empty payload. */
    static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    /** The payload hash of a request whose body is not signed (allowed over TLS, which protects it). */
    static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";

    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final String service;
    /** The signing key last derived, with the secret, day and region it was derived for. */
    private volatile DerivedKey derived;

    private record DerivedKey(String secret, String day, String region, byte[] key) {}

    SigV4(String service) {
        this.service = service;
    }

    /** {@code time} as {@code x-amz-date} gives it: {@code yyyyMMdd'T'HHmmss'Z'} in UTC. */
    static String amzDate(ZonedDateTime time) {
        return time.withZoneSameInstant(ZoneOffset.UTC).format(AMZ_DATE);
    }

    /**
     * The {@code Authorization} header value of a request.
     *
     * @param method the HTTP method, upper case
     * @param canonicalPath the path as sent, already URI-encoded ({@link #encodePath})
     * @param query the query parameters, not encoded (encoded and sorted here); empty for none
     * @param headers the headers to sign, names in any case (must include {@code host}, {@code x-amz-date} and {@code
     *     x-amz-content-sha256}); values are trimmed
     * @param payloadHash the hex SHA-256 of the body, or {@link #UNSIGNED_PAYLOAD}
     */
    String authorization(
            Credentials credentials,
            String region,
            String amzDate,
            String method,
            String canonicalPath,
            Map<String, String> query,
            Map<String, String> headers,
            String payloadHash) {
        TreeMap<String, String> signed = new TreeMap<>();
        headers.forEach((k, v) ->
                signed.put(k.toLowerCase(java.util.Locale.ROOT), v.trim().replaceAll(" +", " ")));
        StringBuilder canonical = new StringBuilder(256)
                .append(method)
                .append('\n')
                .append(canonicalPath)
                .append('\n')
                .append(canonicalQuery(query))
                .append('\n');
        StringBuilder names = new StringBuilder();
        for (Map.Entry<String, String> h : signed.entrySet()) {
            canonical.append(h.getKey()).append(':').append(h.getValue()).append('\n');
            if (names.length() > 0) {
                names.append(';');
            }
            names.append(h.getKey());
        }
        canonical.append('\n').append(names).append('\n').append(payloadHash);
        String day = amzDate.substring(0, 8);
        String scope = day + "/" + region + "/" + service + "/aws4_request";
        String toSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n"
                + hex(sha256(canonical.toString().getBytes(StandardCharsets.UTF_8)));
        byte[] signature = hmac(signingKey(credentials.secretKey(), day, region), toSign);
        return "AWS4-HMAC-SHA256 Credential=" + credentials.accessKey() + "/" + scope + ",SignedHeaders=" + names
                + ",Signature=" + hex(signature);
    }

    private byte[] signingKey(String secret, String day, String region) {
        DerivedKey d = derived;
        if (d != null && d.day.equals(day) && d.region.equals(region) && d.secret.equals(secret)) {
            return d.key;
        }
        byte[] k = hmac(("AWS4" + secret).getBytes(StandardCharsets.UTF_8), day);
        k = hmac(k, region);
        k = hmac(k, service);
        k = hmac(k, "aws4_request");
        derived = new DerivedKey(secret, day, region, k);
        return k;
    }

    /** The canonical query string: every name and value encoded, sorted by name then value, joined by '&'. */
    static String canonicalQuery(Map<String, String> query) {
        if (query.isEmpty()) {
            return "";
        }
        TreeMap<String, String> sorted = new TreeMap<>();
        query.forEach((k, v) -> sorted.put(encode(k, true), encode(v == null ? "" : v, true)));
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : sorted.entrySet()) {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(e.getKey()).append('=').append(e.getValue());
        }
        return sb.toString();
    }

    /** {@code path} URI-encoded as S3 wants it in the request line and the canonical request: '/' kept. */
    static String encodePath(String path) {
        return encode(path, false);
    }

    /**
     * RFC 3986 encoding: unreserved characters ({@code A-Z a-z 0-9 - _ . ~}) as they are, every other byte of the
     * UTF-8 form as {@code %XY} in upper case; {@code '/'} too when {@code slash} is set.
     */
    static String encode(String s, boolean slash) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(bytes.length + 16);
        for (byte b : bytes) {
            int c = b & 0xff;
            if ((c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '_'
                    || c == '.'
                    || c == '~'
                    || (c == '/' && !slash)) {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(HEX[c >> 4])).append(Character.toUpperCase(HEX[c & 0xf]));
            }
        }
        return sb.toString();
    }

    static byte[] sha256(byte[] data) {
        return sha256(data, 0, data.length);
    }

    static byte[] sha256(byte[] data, int offset, int length) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(data, offset, length);
            return md.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no HmacSHA256", e);
        }
    }

    static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX[bytes[i] & 0xf];
        }
        return new String(out);
    }
}
