package io.cubed.storage.zarr.blosc;

import java.util.Arrays;

/**
 * A greedy, hash-based LZ77 encoder writing the BloscLZ stream format that {@link BloscLzDecoder} and c-blosc read.
 * It always starts and ends a stream with a literal run, as c-blosc's decoder expects. Sizes are in bytes.
 */
final class BloscLzEncoder {
    private static final int HASH_LOG = 14;
    private static final int MAX_LITERAL_RUN = 32;
    /** Matches must start fewer than this many bytes back (the far format holds 16 bits over the near range). */
    private static final int MAX_FAR_DISTANCE = 65535 + BloscLzDecoder.MAX_DISTANCE - 1;
    /** Shortest match worth encoding with a 2-byte near reference. */
    private static final int MIN_NEAR_MATCH = 4;
    /** Shortest match worth encoding with a 4-byte far reference. */
    private static final int MIN_FAR_MATCH = 8;
    /** Input positions at least this close to the end are emitted as literals. */
    private static final int TAIL = 12;

    /** Hash table of input positions plus one (0 means empty); one per encoder, so an encoder is not thread-safe. */
    private final int[] table = new int[1 << HASH_LOG];

    /**
     * Compresses the {@code length} bytes at {@code src[srcOff]} into {@code dst[dstOff]}, writing at most
     * {@code maxOut} bytes; returns the compressed size, or 0 when the input is too small or does not fit.
     */
    int compress(byte[] src, int srcOff, int length, byte[] dst, int dstOff, int maxOut) {
        if (length < 16 || maxOut < 66) {
            return 0;
        }
        Arrays.fill(table, 0);
        int end = srcOff + length;
        int ipLimit = end - TAIL;
        int matchLimit = end - 1;
        int op = dstOff;
        int opLimit = dstOff + maxOut;
        int anchor = srcOff;
        int ip = srcOff;
        int misses = 0;
        while (ip < ipLimit) {
            int seq = LittleEndian.getInt(src, ip);
            int h = (seq * -1640531535) >>> (32 - HASH_LOG);
            int candidate = table[h] - 1 + srcOff;
            table[h] = ip - srcOff + 1;
            int distance = ip - candidate;
            if (candidate < srcOff || distance >= MAX_FAR_DISTANCE || LittleEndian.getInt(src, candidate) != seq) {
                // Skip faster through data that does not compress.
                ip += 1 + (misses++ >> 5);
                continue;
            }
            int len = 4 + matchLength(src, ip + 4, candidate + 4, matchLimit);
            boolean near = distance - 1 < BloscLzDecoder.MAX_DISTANCE;
            if (len < (near ? MIN_NEAR_MATCH : MIN_FAR_MATCH)) {
                ip++;
                misses++;
                continue;
            }
            misses = 0;
            op = emitLiterals(src, anchor, ip, dst, op, opLimit);
            if (op < 0) {
                return 0;
            }
            op = emitMatch(len, distance - 1, near, dst, op, opLimit);
            if (op < 0) {
                return 0;
            }
            ip += len;
            anchor = ip;
            if (ip < ipLimit) {
                int p = ip - 2;
                table[(LittleEndian.getInt(src, p) * -1640531535) >>> (32 - HASH_LOG)] = p - srcOff + 1;
            }
        }
        op = emitLiterals(src, anchor, end, dst, op, opLimit);
        if (op < 0) {
            return 0;
        }
        dst[dstOff] |= (byte) (1 << 5);
        return op - dstOff;
    }

    /** Number of equal bytes at {@code a} and {@code b < a}, not reaching {@code limit} from {@code a}. */
    private static int matchLength(byte[] src, int a, int b, int limit) {
        int start = a;
        while (a + 8 <= limit) {
            long diff = LittleEndian.getLong(src, a) ^ LittleEndian.getLong(src, b);
            if (diff != 0) {
                return a - start + (Long.numberOfTrailingZeros(diff) >>> 3);
            }
            a += 8;
            b += 8;
        }
        while (a < limit && src[a] == src[b]) {
            a++;
            b++;
        }
        return a - start;
    }

    /** Writes {@code src[from..to)} as literal runs at {@code op}; returns the new output position, or -1 if full. */
    private static int emitLiterals(byte[] src, int from, int to, byte[] dst, int op, int opLimit) {
        int remaining = to - from;
        int runs = (remaining + MAX_LITERAL_RUN - 1) / MAX_LITERAL_RUN;
        if (remaining + runs > opLimit - op) {
            return -1;
        }
        while (remaining > 0) {
            int run = Math.min(MAX_LITERAL_RUN, remaining);
            dst[op++] = (byte) (run - 1);
            System.arraycopy(src, from, dst, op, run);
            op += run;
            from += run;
            remaining -= run;
        }
        return op;
    }

    /**
     * Writes a match of {@code len >= 3} bytes at biased distance {@code biased} (distance minus one); returns the new
     * output position, or -1 if the output is full.
     */
    private static int emitMatch(int len, int biased, boolean near, byte[] dst, int op, int opLimit) {
        int code = len - 2;
        int extension = code >= 7 ? (code - 7) / 255 + 1 : 0;
        int far = near ? 0 : 3;
        if (2 + extension + far > opLimit - op) {
            return -1;
        }
        int d = near ? biased : biased - BloscLzDecoder.MAX_DISTANCE;
        int high = near ? d >>> 8 : 31;
        if (code < 7) {
            dst[op++] = (byte) ((code << 5) + high);
        } else {
            dst[op++] = (byte) ((7 << 5) + high);
            int rest = code - 7;
            for (; rest >= 255; rest -= 255) {
                dst[op++] = (byte) 255;
            }
            dst[op++] = (byte) rest;
        }
        if (near) {
            dst[op++] = (byte) d;
        } else {
            dst[op++] = (byte) 255;
            dst[op++] = (byte) (d >>> 8);
            dst[op++] = (byte) d;
        }
        return op;
    }
}
