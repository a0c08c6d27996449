package io.cubed.storage.fs.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cubed.error.StorageException;
import io.cubed.storage.RetryingStore;
import io.cubed.storage.Store;
import io.cubed.storage.StoreOptions;
import io.cubed.storage.fs.Stores;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An endpoint that accepts connections and never answers (a hung proxy, a stopped server whose socket is still open):
 * each request fails after {@code fs.s3a.connection.timeout} without a byte from the server, and after {@code
 * fs.s3a.connection.request.timeout} in all when one is set (S3A's names; in Hadoop 3.3.4 the first defaults to 200 s,
 * the second to none and is read in seconds when it has no unit). The failure names the endpoint, the request and how
 * long it waited; the connection is closed, never handed to the next request, and nothing is stored. Before, a PUT
 * whose body the server stopped taking waited forever (a socket write has no timeout), the request timeout was
 * ignored, and the message was "Read timed out".
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class HungEndpointTest {
    private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** How a test server treats each connection. */
    private enum Behaviour {
        /** Reads the request, answers nothing. */
        READ_AND_HANG,
        /** Reads nothing, answers nothing. */
        HANG,
        /** Answers a GET's status and headers at once, then one byte of the body every 100 ms, never the rest. */
        TRICKLE
    }

    /** A server on 127.0.0.1 that accepts connections and treats them as {@code behaviour} says. */
    private final class HungServer implements AutoCloseable {
        final ServerSocket socket;
        final List<Socket> accepted = new CopyOnWriteArrayList<>();
        /** Connections the client closed (the server read the end of its stream). */
        final CountDownLatch closedByClient = new CountDownLatch(1);

        volatile long requestBytes;

        HungServer(Behaviour behaviour) throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            open.add(this);
            Thread t = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket s = socket.accept();
                        accepted.add(s);
                        Thread serve = new Thread(() -> serve(s, behaviour), "hung-server-connection");
                        serve.setDaemon(true);
                        serve.start();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            t.setDaemon(true);
            t.start();
        }

        private void serve(Socket s, Behaviour behaviour) {
            try {
                InputStream in = s.getInputStream();
                if (behaviour == Behaviour.HANG) {
                    // Never reads: once the socket buffers are full the client can send no more.
                    Thread.sleep(60_000);
                    return;
                }
                if (behaviour == Behaviour.TRICKLE) {
                    OutputStream out = s.getOutputStream();
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    for (int i = 0; i < 1000; i++) {
                        out.write('x');
                        out.flush();
                        Thread.sleep(100);
                    }
                    return;
                }
                byte[] buffer = new byte[8192];
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    requestBytes += n;
                }
                closedByClient.countDown();
            } catch (IOException | InterruptedException e) {
                closedByClient.countDown();
            }
        }

        String endpoint() {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    private static StoreOptions options(HungServer server, String... more) {
        StoreOptions o = StoreOptions.of(Map.of(
                "fs.s3a.endpoint", server.endpoint(),
                "fs.s3a.access.key", "k",
                "fs.s3a.secret.key", "s",
                "fs.s3a.connection.timeout", "500"));
        for (int i = 0; i < more.length; i += 2) {
            o = o.with(more[i], more[i + 1]);
        }
        return o;
    }

    @Test
    void aPutWithNoAnswerFailsAfterTheConnectionTimeoutNamingEndpointRequestAndWait() throws Exception {
        HungServer server = new HungServer(Behaviour.READ_AND_HANG);
        S3Store store = S3Store.open("s3a://bucket/data", options(server), 1, Map.of());
        long start = System.nanoTime();
        assertThatThrownBy(() -> store.put("x.zarr/.zarray", "{}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("cannot write 'x.zarr/.zarray' in s3a://bucket/data")
                .hasMessageContaining("PUT /bucket/data/x.zarr/.zarray to " + server.endpoint())
                .hasMessageContaining("no answer for 500 ms (fs.s3a.connection.timeout");
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(waited).isBetween(450L, 5_000L);
        // The connection is closed (the server sees its end), not pooled for the next request.
        assertThat(server.closedByClient.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(server.requestBytes).isGreaterThan(0);
        assertThat(store.idleConnections()).isZero();
    }

    @Test
    void aPutWhoseBodyTheServerStopsTakingFailsInsteadOfWaitingForever() throws Exception {
        HungServer server = new HungServer(Behaviour.HANG);
        S3Store store = S3Store.open("s3a://bucket", options(server), 1, Map.of());
        // Far more than the loopback socket buffers hold: the write blocks once they are full.
        byte[] chunk = new byte[64 << 20];
        long start = System.nanoTime();
        assertThatThrownBy(() -> store.put("x.zarr/0.0", chunk))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("cannot write 'x.zarr/0.0' in s3a://bucket")
                .hasMessageContaining("PUT /bucket/x.zarr/0.0 to " + server.endpoint())
                .hasMessageContaining("the server took none of the request body for 500 ms (fs.s3a.connection.timeout");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(450L, 10_000L);
        assertThat(store.idleConnections()).isZero();
    }

    @Test
    void aRequestTimeoutBoundsAnAnswerThatTricklesIn() throws Exception {
        HungServer server = new HungServer(Behaviour.TRICKLE);
        // Unitless, as S3A 3.3.4 reads it: seconds.
        S3Store store =
                S3Store.open("s3a://bucket", options(server, "fs.s3a.connection.request.timeout", "1"), 1, Map.of());
        long start = System.nanoTime();
        assertThatThrownBy(() -> store.get("x.zarr/.zarray"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("cannot read 'x.zarr/.zarray' in s3a://bucket")
                .hasMessageContaining("GET /bucket/x.zarr/.zarray to " + server.endpoint())
                .hasMessageContaining("did not complete within 1 s (fs.s3a.connection.request.timeout");
        // A byte every 100 ms never trips the 500 ms read timeout; the request timeout ends it after 1 s.
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(950L, 5_000L);
    }

    @Test
    void retriesMultiplyTheWaitAndTheLastErrorSaysHowManyWereMade() throws Exception {
        HungServer server = new HungServer(Behaviour.READ_AND_HANG);
        Store store = Stores.open(
                "s3a://bucket/r", options(server, RetryingStore.ATTEMPTS, "3", RetryingStore.BASE_DELAY_MS, "10"));
        open.add(store);
        long start = System.nanoTime();
        assertThatThrownBy(() -> store.get("k"))
                .isInstanceOf(StorageException.class)
                .hasMessageContaining("failed after 3 attempts")
                .hasMessageContaining("GET /bucket/r/k to " + server.endpoint())
                .hasMessageContaining("no answer for 500 ms");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(1_450L, 10_000L);
    }

    @Test
    void theRequestTimeoutIsReadAsS3AReadsIt() {
        S3Settings s = new S3Settings(
                "b",
                StoreOptions.of(Map.of(
                        "fs.s3a.connection.request.timeout", "30",
                        "fs.s3a.bucket.c.connection.request.timeout", "1500ms")),
                Map.of());
        assertThat(s.seconds("connection.request.timeout", 0)).isEqualTo(Duration.ofSeconds(30));
        assertThat(new S3Settings("c", s.options(), Map.of()).seconds("connection.request.timeout", 0))
                .isEqualTo(Duration.ofMillis(1500));
        assertThat(new S3Settings("b", StoreOptions.empty(), Map.of()).seconds("connection.request.timeout", 0))
                .isEqualTo(Duration.ZERO);
    }
}
