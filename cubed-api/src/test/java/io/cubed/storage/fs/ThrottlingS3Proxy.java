package io.cubed.storage.fs;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A loopback HTTP proxy between s3a and an S3 server that answers {@code 503 SlowDown} to the first {@code n} GETs and
 * the first {@code n} PUTs of chunk keys (a last path segment such as {@code 1.0}) and forwards everything else,
 * counting what it refused. It forwards the signed {@code Host} header unchanged, which the JDK's {@link HttpClient}
 * allows only with the system property {@code jdk.httpclient.allowRestrictedHeaders=host}, read once when the JVM's
 * first client is made: the build sets it for integration tests (Cubed's S3 client makes clients in earlier tests),
 * and loading this class sets it too for a JVM that has made none.
 */
final class ThrottlingS3Proxy implements AutoCloseable {
    static {
        System.setProperty("jdk.httpclient.allowRestrictedHeaders", "host");
    }

    private static final Pattern CHUNK_KEY = Pattern.compile(".*/\\d+(\\.\\d+)*");
    private static final Set<String> NOT_FORWARDED =
            Set.of("host", "content-length", "connection", "expect", "transfer-encoding", "upgrade");
    private static final byte[] SLOW_DOWN = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code>"
                    + "<Message>Please reduce your request rate.</Message></Error>")
            .getBytes(StandardCharsets.UTF_8);

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(8);
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    private final String upstream;
    private final int throttledPerMethod;
    final AtomicInteger chunkGets = new AtomicInteger();
    final AtomicInteger chunkPuts = new AtomicInteger();
    final AtomicInteger refusedGets = new AtomicInteger();
    final AtomicInteger refusedPuts = new AtomicInteger();
    final AtomicInteger forwarded = new AtomicInteger();

    ThrottlingS3Proxy(int upstreamPort, int throttledPerMethod) throws IOException {
        this.upstream = "http://127.0.0.1:" + upstreamPort;
        this.throttledPerMethod = throttledPerMethod;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/", this::handle);
        server.setExecutor(threads);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String method = ex.getRequestMethod();
            String path = ex.getRequestURI().getRawPath();
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readAllBytes();
            }
            boolean chunk = CHUNK_KEY.matcher(path).matches();
            if (chunk && refuse(method)) {
                ex.getResponseHeaders().set("Content-Type", "application/xml");
                ex.sendResponseHeaders(503, SLOW_DOWN.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(SLOW_DOWN);
                }
                return;
            }
            forward(ex, method, body);
        }
    }

    /** Counts a chunk request and says whether it is one of the first ones of its method, to be refused. */
    private boolean refuse(String method) {
        AtomicInteger seen;
        AtomicInteger refused;
        if (method.equals("GET")) {
            seen = chunkGets;
            refused = refusedGets;
        } else if (method.equals("PUT")) {
            seen = chunkPuts;
            refused = refusedPuts;
        } else {
            return false;
        }
        if (seen.incrementAndGet() > throttledPerMethod) {
            return false;
        }
        refused.incrementAndGet();
        return true;
    }

    private void forward(HttpExchange ex, String method, byte[] body) throws IOException {
        forwarded.incrementAndGet();
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(upstream + ex.getRequestURI()))
                .method(
                        method,
                        body.length == 0
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
        for (Map.Entry<String, List<String>> h : ex.getRequestHeaders().entrySet()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (!NOT_FORWARDED.contains(name)) {
                for (String v : h.getValue()) {
                    req.header(h.getKey(), v);
                }
            }
        }
        req.header("Host", ex.getRequestHeaders().getFirst("Host"));
        HttpResponse<byte[]> resp;
        try {
            resp = client.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted forwarding " + method + " " + ex.getRequestURI(), e);
        }
        for (Map.Entry<String, List<String>> h : resp.headers().map().entrySet()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            boolean keepLength = method.equals("HEAD") && name.equals("content-length");
            if (name.startsWith(":") || (NOT_FORWARDED.contains(name) && !keepLength)) {
                continue;
            }
            for (String v : h.getValue()) {
                ex.getResponseHeaders().add(h.getKey(), v);
            }
        }
        byte[] out = resp.body();
        boolean noBody = method.equals("HEAD") || resp.statusCode() == 204 || resp.statusCode() == 304;
        ex.sendResponseHeaders(resp.statusCode(), noBody || out.length == 0 ? -1 : out.length);
        if (!noBody && out.length > 0) {
            try (OutputStream o = ex.getResponseBody()) {
                o.write(out);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
