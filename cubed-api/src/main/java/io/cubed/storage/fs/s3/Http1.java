package io.cubed.storage.fs.s3;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * The HTTP/1.1 that S3 speaks, on blocking sockets kept alive between requests: a request writes its head and body in
 * one go, a response body is read straight into one array of the length it announces (no intermediate buffers, no
 * reactive machinery to warm up), and the connection goes back to a pool per host for the next request. One thread
 * per request in flight ({@link S3Client} runs them on its own pool). TLS through the JDK's default {@link
 * SSLSocketFactory}, with host name verification; an HTTP proxy with {@code CONNECT} for TLS. Thread-safe.
 *
 * <p>Why not the JDK's {@code java.net.http}: measured on the object-store bench (docs/cloud.md), its reactive
 * pipeline cost more CPU per response than the S3 server spent serving it, a new 16 kB buffer and a copy per read, and
 * about 0.3 s of class loading and compilation in a fresh JVM; a command that copies a few hundred chunks pays all of
 * it.
 */
final class Http1 {
    /** Connections idle longer than this are closed rather than reused: S3 closes idle connections after ~20 s. */
    static final long IDLE_NANOS = Duration.ofSeconds(10).toNanos();

    /** The buffer each connection reads its answers through, in bytes. */
    static final int READ_BUFFER_BYTES = 64 * 1024;

    private static final int HEAD_LIMIT = 64 * 1024;

    /** Pieces a request body is written in, so that a server that stops taking it is noticed. */
    private static final int WRITE_PIECE_BYTES = 64 * 1024;

    /**
     * Closes the connection of a request past its deadline, or whose body the server stopped taking: a blocked socket
     * write has no timeout of its own, and {@code SO_TIMEOUT} bounds one read, not a whole answer.
     */
    private static final java.util.concurrent.ScheduledThreadPoolExecutor WATCHDOG = watchdog();

    private final int connectTimeoutMillis;
    private final int readTimeoutMillis;
    private final long requestTimeoutMillis;
    private final InetSocketAddress proxy;
    private volatile SSLSocketFactory ssl;
    private final Map<String, ConcurrentLinkedDeque<Connection>> idle = new ConcurrentHashMap<>();

    /** An answer: its status, its headers (names in lower case) and its whole body (empty for HEAD). */
    record Response(int status, Map<String, List<String>> headers, byte[] body) {
        /** The first value of header {@code name} (lower case), or null. */
        String header(String name) {
            List<String> v = headers.get(name);
            return v == null || v.isEmpty() ? null : v.get(0);
        }

        long contentLength() {
            String v = header("content-length");
            try {
                return v == null ? -1 : Long.parseLong(v.trim());
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }

    /**
     * A client whose connections are made within {@code connectTimeout}, whose requests wait at most {@code
     * readTimeout} for the server to take or send a byte, and take at most {@code requestTimeout} each in all, from
     * connecting to the answer's last byte ({@link Duration#ZERO}: no limit).
     */
    Http1(Duration connectTimeout, Duration readTimeout, Duration requestTimeout, InetSocketAddress proxy) {
        this.connectTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis());
        this.readTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, readTimeout.toMillis());
        this.requestTimeoutMillis = requestTimeout.toMillis();
        this.proxy = proxy;
    }

    private static java.util.concurrent.ScheduledThreadPoolExecutor watchdog() {
        java.util.concurrent.ScheduledThreadPoolExecutor w =
                new java.util.concurrent.ScheduledThreadPoolExecutor(1, r -> {
                    Thread t = new Thread(r, "cubed-s3-watchdog");
                    t.setDaemon(true);
                    return t;
                });
        w.setRemoveOnCancelPolicy(true);
        return w;
    }

    /**
     * A request that took too long: no byte from the server, or none taken by it, for the read timeout, or the whole
     * request past the request timeout. The message names the endpoint, the request, how long it waited and the
     * setting that bounds it. A timeout, so transient: the request may be made again.
     */
    static final class Timeout extends SocketTimeoutException {
        private static final long serialVersionUID = 1L;

        Timeout(String message, Throwable cause) {
            super(message);
            initCause(cause);
        }
    }

    /** What a request is doing, for the watchdog and for the message of its timeout. */
    private static final class Watch {
        final long startNanos = System.nanoTime();
        final long deadlineNanos;
        /** When the server last took a piece of the body; 0 once the request is sent. */
        volatile long writeProgressNanos;
        /** Why the watchdog closed the connection, or null. */
        volatile String expired;
        /** Whether the answer has been read: the connection is no longer the watchdog's to close. */
        boolean done;
        /** The connection the request is on now (a second one when the first turned out stale). */
        Connection connection;

        volatile java.util.concurrent.ScheduledFuture<?> check;

        Watch(long requestTimeoutMillis) {
            this.deadlineNanos = requestTimeoutMillis > 0
                    ? startNanos + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis)
                    : Long.MAX_VALUE;
        }

        long remainingMillis() {
            return deadlineNanos == Long.MAX_VALUE
                    ? Long.MAX_VALUE
                    : Math.max(
                            1, java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
        }
    }

    /** "500 ms", "2 s", "3.5 s": a duration as the messages show it. */
    static String show(long millis) {
        if (millis < 1000) {
            return millis + " ms";
        }
        return (millis % 1000 == 0 ? String.valueOf(millis / 1000) : String.valueOf(millis / 1000.0)) + " s";
    }

    /**
     * Sends one request to {@code scheme://host:port} and reads the whole answer. {@code target} is the request
     * target (path and query, encoded); {@code headers} are sent as they are, after {@code Host} and {@code
     * Content-Length}. A kept-alive connection that the server closed meanwhile is detected by the failure of its first
     * read, and the request is sent once more on a new connection.
     */
    Response exchange(
            String scheme,
            String host,
            int port,
            String method,
            String target,
            List<Map.Entry<String, String>> headers,
            byte[] body,
            int offset,
            int length)
            throws IOException {
        String key = scheme + "://" + host + ":" + port;
        Watch watch = new Watch(requestTimeoutMillis);
        Connection c = pooled(key);
        boolean reused = c != null;
        try {
            while (true) {
                if (c == null) {
                    c = open(scheme, host, port, watch);
                }
                try {
                    return exchangeOn(c, key, host, port, method, target, headers, body, offset, length, watch);
                } catch (StaleConnection e) {
                    c.close();
                    if (!reused || watch.expired != null) {
                        throw (IOException) e.getCause();
                    }
                    // The server had closed the kept-alive connection: once more, on a new one.
                    reused = false;
                    c = null;
                }
            }
        } catch (IOException e) {
            throw timedOut(e, watch, key, method, target);
        } finally {
            // Whatever happened, the watchdog is done with this request: a check running now sees it and schedules no
            // other, and the last one scheduled is cancelled.
            synchronized (watch) {
                watch.done = true;
            }
            java.util.concurrent.ScheduledFuture<?> f = watch.check;
            if (f != null) {
                f.cancel(false);
            }
        }
    }

    /**
     * {@code e} as the {@link Timeout} it is when the request timed out (its message saying where, what and how long),
     * else {@code e} itself.
     */
    private IOException timedOut(IOException e, Watch watch, String endpoint, String method, String target) {
        IOException cause = e instanceof StaleConnection && e.getCause() instanceof IOException io ? io : e;
        String expired = watch.expired;
        String request = method + " " + target + " to " + endpoint;
        if (expired != null) {
            return new Timeout(request + ": " + expired, cause);
        }
        if (cause instanceof SocketTimeoutException && !(cause instanceof Timeout)) {
            if (cause.getMessage() != null && cause.getMessage().startsWith("timed out connecting")) {
                return cause;
            }
            return new Timeout(
                    request + ": no answer for " + show(readTimeoutMillis) + " (fs.s3a.connection.timeout, the longest"
                            + " wait for a byte from the server); it accepted the connection but sent nothing more",
                    cause);
        }
        return e;
    }

    /**
     * Keeps an eye on the connection of {@code watch}: closes it at the request's deadline, or when the server has
     * taken nothing of the body for the read timeout. Called holding {@code watch}'s lock, as every check runs.
     */
    private void guard(Watch watch) {
        long now = System.nanoTime();
        long at = watch.deadlineNanos;
        long w = watch.writeProgressNanos;
        if (w != 0) {
            at = Math.min(at, w + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(readTimeoutMillis));
        }
        if (at == Long.MAX_VALUE) {
            watch.check = null;
            return;
        }
        watch.check = WATCHDOG.schedule(
                () -> {
                    synchronized (watch) {
                        if (watch.done) {
                            return;
                        }
                        long t = System.nanoTime();
                        long progress = watch.writeProgressNanos;
                        if (t - watch.deadlineNanos >= 0) {
                            watch.expired = "it did not complete within " + show(requestTimeoutMillis)
                                    + " (fs.s3a.connection.request.timeout, the longest a request may take)";
                            watch.connection.close();
                        } else if (progress != 0
                                && t - progress
                                        >= java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(readTimeoutMillis)) {
                            watch.expired = "the server took none of the request body for " + show(readTimeoutMillis)
                                    + " (fs.s3a.connection.timeout, the longest wait for the server to take or send a"
                                    + " byte)";
                            watch.connection.close();
                        } else {
                            guard(watch);
                        }
                    }
                },
                Math.max(0, at - now),
                java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /** A pooled connection still fresh enough to reuse, or null. */
    private Connection pooled(String key) {
        ConcurrentLinkedDeque<Connection> q = idle.get(key);
        if (q == null) {
            return null;
        }
        long now = System.nanoTime();
        for (Connection c = q.pollFirst(); c != null; c = q.pollFirst()) {
            if (now - c.idleSince < IDLE_NANOS && !c.socket.isClosed()) {
                return c;
            }
            c.close();
        }
        return null;
    }

    private Response exchangeOn(
            Connection c,
            String key,
            String host,
            int port,
            String method,
            String target,
            List<Map.Entry<String, String>> headers,
            byte[] body,
            int offset,
            int length,
            Watch watch)
            throws IOException {
        StringBuilder head = new StringBuilder(512);
        String requestTarget = proxy != null && !c.tls ? "http://" + hostHeader(host, port, false) + target : target;
        head.append(method).append(' ').append(requestTarget).append(" HTTP/1.1\r\n");
        head.append("Host: ").append(hostHeader(host, port, c.tls)).append("\r\n");
        if (body != null || method.equals("PUT") || method.equals("POST")) {
            head.append("Content-Length: ").append(body == null ? 0 : length).append("\r\n");
        }
        for (Map.Entry<String, String> h : headers) {
            head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        head.append("\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.UTF_8);
        synchronized (watch) {
            java.util.concurrent.ScheduledFuture<?> previous = watch.check;
            if (previous != null) {
                previous.cancel(false);
            }
            watch.connection = c;
            watch.writeProgressNanos = System.nanoTime();
            guard(watch);
        }
        try {
            if (body != null && length > 0 && length <= 16 * 1024) {
                byte[] all = new byte[headBytes.length + length];
                System.arraycopy(headBytes, 0, all, 0, headBytes.length);
                System.arraycopy(body, offset, all, headBytes.length, length);
                c.out.write(all);
            } else {
                c.out.write(headBytes);
                for (int done = 0; body != null && done < length; done += WRITE_PIECE_BYTES) {
                    c.out.write(body, offset + done, Math.min(WRITE_PIECE_BYTES, length - done));
                    watch.writeProgressNanos = System.nanoTime();
                }
            }
            c.out.flush();
        } catch (IOException e) {
            throw new StaleConnection(e);
        } finally {
            // Sent (or failed): from here on the read timeout bounds each read, the watchdog only the deadline.
            watch.writeProgressNanos = 0;
        }
        Response r;
        try {
            r = read(c, method);
        } catch (StaleConnection e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
        synchronized (watch) {
            // Answered: the watchdog leaves the connection alone from now on (closed already if it expired).
            watch.done = true;
        }
        if (c.reusable && watch.expired == null) {
            c.idleSince = System.nanoTime();
            idle.computeIfAbsent(key, k -> new ConcurrentLinkedDeque<>()).addFirst(c);
        } else {
            c.close();
        }
        return r;
    }

    /** {@code Host}'s value: the port only when it is not the scheme's own. */
    private static String hostHeader(String host, int port, boolean tls) {
        return (tls && port == 443) || (!tls && port == 80) ? host : host + ":" + port;
    }

    /** Reads one answer: status line, headers, and the body by its length, in chunks, or to the end of the stream. */
    private Response read(Connection c, String method) throws IOException {
        String status;
        try {
            status = c.line();
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            throw new StaleConnection(e);
        }
        if (status == null) {
            throw new StaleConnection(new EOFException("the server closed the connection before answering"));
        }
        int code;
        try {
            String[] parts = status.split(" ", 3);
            code = Integer.parseInt(parts[1]);
            if (!parts[0].startsWith("HTTP/1.")) {
                throw new NumberFormatException(parts[0]);
            }
        } catch (RuntimeException e) {
            throw new IOException("not an HTTP/1.1 answer: '" + status + "'");
        }
        Map<String, List<String>> headers = new java.util.TreeMap<>();
        int headBytes = status.length();
        for (String line = c.line(); line != null && !line.isEmpty(); line = c.line()) {
            headBytes += line.length();
            if (headBytes > HEAD_LIMIT) {
                throw new IOException("an answer whose head exceeds " + HEAD_LIMIT + " bytes");
            }
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(
                                line.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(line.substring(colon + 1).trim());
            }
        }
        if (code == 100) {
            return read(c, method);
        }
        Response r = new Response(code, headers, new byte[0]);
        String connection = r.header("connection");
        c.reusable = connection == null || !connection.equalsIgnoreCase("close");
        if (method.equals("HEAD") || code == 204 || code == 304) {
            return r;
        }
        String te = r.header("transfer-encoding");
        byte[] body;
        if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
            body = c.chunked();
        } else {
            long n = r.contentLength();
            if (n >= 0) {
                if (n > Integer.MAX_VALUE - 8) {
                    throw new IOException("an answer of " + n + " bytes: too large for one array");
                }
                body = new byte[(int) n];
                c.readFully(body);
            } else {
                body = c.in.readAllBytes();
                c.reusable = false;
            }
        }
        return new Response(code, headers, body);
    }

    private Connection open(String scheme, String host, int port, Watch watch) throws IOException {
        boolean tls = scheme.equals("https");
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout(readTimeoutMillis);
            InetSocketAddress to = proxy != null ? proxy : new InetSocketAddress(host, port);
            try {
                s.connect(to, (int) Math.min(connectTimeoutMillis, watch.remainingMillis()));
            } catch (java.net.ConnectException | java.net.SocketTimeoutException | java.net.UnknownHostException e) {
                // The same kind (retries tell transient failures by it), saying where it could not connect.
                String where =
                        scheme + "://" + host + ":" + port + (proxy != null ? " through the proxy " + proxy : "");
                String why = e.getMessage() == null ? "" : " (" + e.getMessage() + ")";
                IOException named = e instanceof java.net.ConnectException
                        ? new java.net.ConnectException("cannot connect to " + where + why)
                        : e instanceof java.net.SocketTimeoutException
                                ? new java.net.SocketTimeoutException("timed out connecting to " + where + why)
                                : new java.net.UnknownHostException(host + " (the host of " + where + ")");
                named.initCause(e);
                throw named;
            }
            if (tls && proxy != null) {
                tunnel(s, host, port);
            }
            if (tls) {
                SSLSocket t = (SSLSocket) sslFactory().createSocket(s, host, port, true);
                SSLParameters p = t.getSSLParameters();
                p.setEndpointIdentificationAlgorithm("HTTPS");
                if (!host.isEmpty() && !Character.isDigit(host.charAt(0)) && !host.startsWith("[")) {
                    p.setServerNames(List.of(new SNIHostName(host)));
                }
                t.setSSLParameters(p);
                t.startHandshake();
                return new Connection(t, true);
            }
            return new Connection(s, false);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** Asks the proxy on {@code s} for a tunnel to {@code host:port}. */
    private static void tunnel(Socket s, String host, int port) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(("CONNECT " + host + ":" + port + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0 || head.length() > HEAD_LIMIT) {
                throw new IOException("the proxy closed the connection while opening a tunnel to " + host);
            }
            head.append((char) b);
        }
        String status = head.substring(0, Math.max(0, head.indexOf("\r\n")));
        if (!status.matches("HTTP/1\\.\\d 200.*")) {
            throw new IOException("the proxy refused a tunnel to " + host + ":" + port + ": " + status);
        }
    }

    private SSLSocketFactory sslFactory() {
        SSLSocketFactory f = ssl;
        if (f == null) {
            f = (SSLSocketFactory) SSLSocketFactory.getDefault();
            ssl = f;
        }
        return f;
    }

    /** Connections idle in the pool now, kept for reuse (for tests). */
    int idleConnections() {
        int n = 0;
        for (ConcurrentLinkedDeque<Connection> q : idle.values()) {
            n += q.size();
        }
        return n;
    }

    /** Closes every idle connection. */
    void closeIdle() {
        for (ConcurrentLinkedDeque<Connection> q : idle.values()) {
            for (Connection c = q.pollFirst(); c != null; c = q.pollFirst()) {
                c.close();
            }
        }
    }

    /** A failure of a kept-alive connection before the server answered: the request may be sent again. */
    private static final class StaleConnection extends IOException {
        private static final long serialVersionUID = 1L;

        StaleConnection(IOException cause) {
            super(cause.toString(), cause);
        }
    }

    /** One connection and its buffered input. */
    private static final class Connection {
        final Socket socket;
        final boolean tls;
        final BufferedInputStream in;
        final OutputStream out;
        volatile long idleSince;
        boolean reusable = true;

        Connection(Socket socket, boolean tls) throws IOException {
            this.socket = socket;
            this.tls = tls;
            this.in = new BufferedInputStream(socket.getInputStream(), READ_BUFFER_BYTES);
            this.out = socket.getOutputStream();
        }

        /** A line without its CRLF, or null at the end of the stream before any byte. */
        String line() throws IOException {
            StringBuilder sb = new StringBuilder(64);
            while (true) {
                int b = in.read();
                if (b < 0) {
                    if (sb.length() == 0) {
                        return null;
                    }
                    throw new EOFException("the answer ended in the middle of a line");
                }
                if (b == '\n') {
                    int n = sb.length();
                    return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
                }
                if (sb.length() > HEAD_LIMIT) {
                    throw new IOException("a line of the answer exceeds " + HEAD_LIMIT + " bytes");
                }
                sb.append((char) b);
            }
        }

        void readFully(byte[] b) throws IOException {
            int n = 0;
            while (n < b.length) {
                int r = in.read(b, n, b.length - n);
                if (r < 0) {
                    throw new EOFException(
                            "the answer ended after " + n + " of the " + b.length + " bytes it announced");
                }
                n += r;
            }
        }

        /** A chunked body, its trailers skipped. */
        byte[] chunked() throws IOException {
            java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
            while (true) {
                String size = line();
                if (size == null) {
                    throw new EOFException("the answer ended inside a chunked body");
                }
                int semi = size.indexOf(';');
                long n;
                try {
                    n = Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
                } catch (NumberFormatException e) {
                    throw new IOException("a malformed chunk size '" + size + "'", e);
                }
                if (n == 0) {
                    for (String t = line(); t != null && !t.isEmpty(); t = line()) {
                        // trailers: none of them matters here
                    }
                    return all.toByteArray();
                }
                if (n > Integer.MAX_VALUE - 8 - all.size()) {
                    throw new IOException("a chunked answer too large for one array");
                }
                byte[] part = new byte[(int) n];
                readFully(part);
                all.write(part);
                String end = line();
                if (end == null || !end.isEmpty()) {
                    throw new IOException("a chunk not followed by CRLF");
                }
            }
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // Closing a connection that failed: nothing more to do.
            }
        }
    }
}
