package io.cubed.storage.fs;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Field;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.shaded.org.eclipse.jetty.io.Content;
import org.gaul.shaded.org.eclipse.jetty.server.Handler;
import org.gaul.shaded.org.eclipse.jetty.server.Request;
import org.gaul.shaded.org.eclipse.jetty.server.Response;
import org.gaul.shaded.org.eclipse.jetty.server.Server;
import org.gaul.shaded.org.eclipse.jetty.util.Callback;

/**
 * The outermost Jetty handler of {@link S3TestServer}: Jetty calls it once per HTTP request, before s3proxy's servlet
 * sees the request. It counts the request's {@link S3Operation} (and the keys it names) in an {@link
 * S3RequestRecorder}, marks it in flight until Jetty completes its response, and then holds it for the configured
 * latency before passing it on; no lock of the blob store is held while it waits, so concurrent requests wait at the
 * same time, as S3's first-byte latency overlaps.
 */
final class MeteringHandler extends Handler.Wrapper {
    /** The largest bulk-delete body read for its keys (S3 allows 1000 keys of up to 1024 bytes each). */
    private static final int MAX_DELETE_BODY_BYTES = 4 << 20;

    private static final Pattern DELETED_KEY = Pattern.compile("<Key>(.*?)</Key>", Pattern.DOTALL);
    private static final Pattern XML_ENTITY = Pattern.compile("&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);");

    private final String bucket;
    private final S3RequestRecorder recorder;
    private volatile int latencyMillis;

    private MeteringHandler(Handler served, String bucket, S3RequestRecorder recorder, int latencyMillis) {
        super(served);
        this.bucket = bucket;
        this.recorder = recorder;
        setLatencyMillis(latencyMillis);
    }

    /**
     * Puts a metering handler in front of all of {@code proxy}'s handlers; before {@code proxy} starts. s3proxy does
     * not expose its Jetty server, so this reads it from S3Proxy's private field {@code server} (s3proxy 4.1.0) and
     * fails loudly when that field is gone.
     */
    static MeteringHandler install(S3Proxy proxy, String bucket, S3RequestRecorder recorder, int latencyMillis) {
        Server server;
        try {
            Field field = S3Proxy.class.getDeclaredField("server");
            field.setAccessible(true);
            server = (Server) field.get(proxy);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("this s3proxy does not keep its Jetty server in S3Proxy.server", e);
        }
        MeteringHandler handler = new MeteringHandler(server.getHandler(), bucket, recorder, latencyMillis);
        server.setHandler(handler);
        return handler;
    }

    int latencyMillis() {
        return latencyMillis;
    }

    void setLatencyMillis(int millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("latency must be at least 0 ms, not " + millis);
        }
        latencyMillis = millis;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String rawPath = request.getHttpURI().getPath();
        String[] path = (rawPath == null ? "/" : rawPath).split("/", 3);
        boolean ours = path.length > 1 && decode(path[1]).equals(bucket);
        String key = path.length > 2 && !path[2].isEmpty() ? decode(path[2]) : null;
        String copySource = request.getHeaders().get("x-amz-copy-source");
        S3Operation op = S3Operation.classify(
                request.getMethod(),
                key != null,
                parameterNames(request.getHttpURI().getQuery()),
                copySource != null);
        long startedAt = recorder.started(op, ours ? key : null);
        if (ours && S3RequestRecorder.isChunk(op, key)) {
            Request.addCompletionListener(request, failure -> recorder.finishedChunk(startedAt));
        } else {
            Request.addCompletionListener(request, failure -> recorder.finished());
        }
        if (ours && op == S3Operation.COPY_OBJECT) {
            String source = copySourceKey(copySource);
            if (source != null) {
                recorder.namedKey(op, source);
            }
        }
        int latency = latencyMillis;
        if (latency > 0) {
            Thread.sleep(latency);
        }
        return super.handle(
                ours && op == S3Operation.DELETE_OBJECTS ? new DeletedKeys(request) : request, response, callback);
    }

    /** The key of an {@code x-amz-copy-source} ({@code [/]bucket/key[?versionId=v]}) in this bucket, else null. */
    private String copySourceKey(String header) {
        int query = header.indexOf('?');
        String source = decode(query < 0 ? header : header.substring(0, query));
        source = source.startsWith("/") ? source.substring(1) : source;
        int slash = source.indexOf('/');
        return slash > 0 && source.substring(0, slash).equals(bucket) ? source.substring(slash + 1) : null;
    }

    private static Set<String> parameterNames(String query) {
        Set<String> names = new HashSet<>();
        if (query != null && !query.isEmpty()) {
            for (String parameter : query.split("&", -1)) {
                int eq = parameter.indexOf('=');
                names.add(decode(eq < 0 ? parameter : parameter.substring(0, eq)));
            }
        }
        return names;
    }

    /** A path segment decoded as s3proxy decodes it ({@link URLDecoder}), or as it is when it is malformed. */
    private static String decode(String segment) {
        try {
            return URLDecoder.decode(segment, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return segment;
        }
    }

    /** The keys of a DeleteObjects body: each {@code <Key>} element's text, XML entities replaced. */
    static List<String> deletedKeys(String body) {
        List<String> keys = new ArrayList<>();
        Matcher m = DELETED_KEY.matcher(body);
        while (m.find()) {
            keys.add(XML_ENTITY.matcher(m.group(1)).replaceAll(e -> Matcher.quoteReplacement(unescape(e.group(1)))));
        }
        return keys;
    }

    private static String unescape(String entity) {
        return switch (entity) {
            case "amp" -> "&";
            case "lt" -> "<";
            case "gt" -> ">";
            case "quot" -> "\"";
            case "apos" -> "'";
            default -> Character.toString(
                    entity.startsWith("#x")
                            ? Integer.parseInt(entity.substring(2), 16)
                            : Integer.parseInt(entity.substring(1)));
        };
    }

    /**
     * A bulk-delete request that copies its body as s3proxy reads it and counts the keys the body names once it is
     * whole (its last chunk, or as many bytes as its Content-Length), before s3proxy answers.
     */
    private final class DeletedKeys extends Request.Wrapper {
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private boolean counted;

        DeletedKeys(Request request) {
            super(request);
        }

        @Override
        public Content.Chunk read() {
            Content.Chunk chunk = super.read();
            if (chunk != null) {
                copy(chunk);
            }
            return chunk;
        }

        private synchronized void copy(Content.Chunk chunk) {
            if (counted) {
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                counted = true;
                return;
            }
            ByteBuffer bytes = chunk.getByteBuffer().duplicate();
            if (body.size() + bytes.remaining() > MAX_DELETE_BODY_BYTES) {
                counted = true;
                return;
            }
            byte[] copy = new byte[bytes.remaining()];
            bytes.get(copy);
            body.write(copy, 0, copy.length);
            long length = getLength();
            if (chunk.isLast() || (length >= 0 && body.size() >= length)) {
                counted = true;
                for (String key : deletedKeys(body.toString(StandardCharsets.UTF_8))) {
                    recorder.namedKey(S3Operation.DELETE_OBJECTS, key);
                }
            }
        }
    }
}
