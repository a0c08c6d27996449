package io.cubed.storage.zarr.blosc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A quick, non-asserting sanity measurement of encode and decode throughput for 8 MiB float64 chunks; it only logs
 * figures (the JIT and a shared machine make timings unfit for assertions). Correctness is still asserted.
 */
class BloscThroughputLogTest {
    private static final Logger LOG = LoggerFactory.getLogger(BloscThroughputLogTest.class);

    @Test
    void logsThroughputOfEightMibFloat64Chunks() {
        byte[] raw = BloscTestData.smooth(8 << 20, 42);
        for (BloscCname cname : new BloscCname[] {BloscCname.LZ4, BloscCname.BLOSCLZ, BloscCname.ZSTD}) {
            BloscCodec codec = new BloscCodec(cname, 5, BloscShuffle.SHUFFLE, 0, 8);
            byte[] encoded = codec.encode(raw);
            assertThat(codec.decode(encoded, raw.length)).isEqualTo(raw);
            int rounds = 12;
            long encodeNanos = Long.MAX_VALUE;
            long decodeNanos = Long.MAX_VALUE;
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime();
                encoded = codec.encode(raw);
                long t1 = System.nanoTime();
                byte[] back = codec.decode(encoded, raw.length);
                long t2 = System.nanoTime();
                encodeNanos = Math.min(encodeNanos, t1 - t0);
                decodeNanos = Math.min(decodeNanos, t2 - t1);
                assertThat(back.length).isEqualTo(raw.length);
            }
            LOG.info(String.format(
                    Locale.ROOT,
                    "blosc %s+shuffle float64 8 MiB: ratio %.2f, encode %.0f MB/s, decode %.0f MB/s (best of %d)",
                    cname.jsonName(),
                    raw.length / (double) encoded.length,
                    raw.length / (encodeNanos / 1e3),
                    raw.length / (decodeNanos / 1e3),
                    rounds));
        }
    }
}
