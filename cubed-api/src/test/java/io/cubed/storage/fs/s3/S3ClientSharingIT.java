package io.cubed.storage.fs.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.storage.Store;
import io.cubed.storage.fs.ForkedS3TestServer;
import io.cubed.storage.fs.S3TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stores of the arrays of one bucket share one client and its pool of connections: after 8 arrays each read with
 * 16 requests in flight, one after another, the JVM keeps about 16 connections open for reuse, not 16 per array.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class S3ClientSharingIT {
    @Test
    void theStoresOfOneBucketShareOneClientAndItsConnections() throws Exception {
        try (S3TestServer s3 =
                S3TestServer.builder().bucket("sharing").latencyMillis(50).start()) {
            List<S3Store> stores = new ArrayList<>();
            for (int a = 0; a < 8; a++) {
                stores.add(S3Store.open(s3.url("array-" + a + ".zarr"), s3.options(), 16));
            }
            for (S3Store s : stores) {
                for (int k = 0; k < 16; k++) {
                    s.put("0." + k, new byte[100]);
                }
            }
            for (S3Store s : stores) {
                List<CompletableFuture<Store.Bytes>> reads = new ArrayList<>();
                for (int k = 0; k < 16; k++) {
                    reads.add(s.getAsync("0." + k));
                }
                for (CompletableFuture<Store.Bytes> r : reads) {
                    assertThat(r.get().length()).isEqualTo(100);
                }
            }
            assertThat(stores.get(7).requestStats()).isSameAs(stores.get(0).requestStats());
            // 16 requests in flight at most at any time: at most 16 connections (each a 64 KiB buffer and a socket).
            assertThat(stores.get(0).idleConnections()).isBetween(2, 16);
            // A store of another bucket, or with other settings, has a client of its own.
            S3Store other = S3Store.open(s3.url("array-0.zarr"), s3.options().with("fs.s3a.attempts.maximum", "2"), 16);
            assertThat(other.requestStats()).isNotSameAs(stores.get(0).requestStats());
        }
    }

    @Test
    void aRequestInFlightOnANewConnectionHoldsNoMoreThanTheOverheadTheStoreDeclares() throws Exception {
        // The server in a JVM of its own, so that this JVM's heap holds the client's side only; 128 requests, so that
        // what other objects here do between the two measurements moves the figure per request by a few kB at most
        // (with the server in this JVM and 32 requests, 570 kB freed elsewhere once took it from 65.3 kB to 47.8 kB);
        // and every thread of the request pool busy just before, so that none of them, left idle by earlier tests,
        // ends (after 30 s idle, with what it holds) while the test measures, and the requests measured run on
        // threads that exist: the figure is the requests' own, whatever ran before.
        int requests = 128;
        try (ForkedS3TestServer s3 = ForkedS3TestServer.start("overhead")) {
            int warm = Math.max(requests, S3Client.requestThreads());
            S3Store writer = S3Store.open(s3.url("a.zarr"), s3.options(), warm, System.getenv());
            for (int k = 0; k < requests; k++) {
                writer.put("0." + k, new byte[10]);
            }
            s3.setLatencyMillis(500);
            List<CompletableFuture<Store.Bytes>> warming = new ArrayList<>();
            for (int k = 0; k < warm; k++) {
                warming.add(writer.getAsync("0." + (k % requests)));
            }
            for (CompletableFuture<Store.Bytes> r : warming) {
                assertThat(r.get().length()).isEqualTo(10);
            }
            // A client of its own, with no connection yet.
            S3Store store = S3Store.open(s3.url("a.zarr"), s3.options(), requests, System.getenv());
            s3.setLatencyMillis(3000);
            long before = io.cubed.memory.HeapProbe.liveHeap();
            List<CompletableFuture<Store.Bytes>> reads = new ArrayList<>();
            for (int k = 0; k < requests; k++) {
                reads.add(store.getAsync("0." + k));
            }
            Thread.sleep(1500); // every request sent, its answer held back by the server
            long during = io.cubed.memory.HeapProbe.liveHeap();
            for (CompletableFuture<Store.Bytes> r : reads) {
                assertThat(r.get().length()).isEqualTo(10);
            }
            long perRequest = (during - before) / requests;
            System.out.println("S3ClientSharingIT: " + perRequest + " bytes per request in flight");
            // Within what the in-flight term counts for it, and not much less than its connection's 64 KiB read
            // buffer, which it must hold: 67.3-68.3 kB alone, 64.1-66.1 kB in full suites, where something else in the
            // JVM freed up to 410 kB between the two measurements (not traced).
            assertThat(perRequest).isBetween(56L * 1024, (long) store.requestOverheadBytes());
            assertThat(writer.idleConnections()).isPositive(); // the writer's pool stays reachable throughout
        }
    }
}
