package io.cubed.storage.zarr.blosc;

import java.util.Arrays;

/**
 * Decoder of the BloscLZ stream format (a FastLZ level-1 derivative). A stream is a sequence of instructions, the first
 * always a literal run: a control byte below 32 announces {@code ctrl+1} literal bytes; otherwise its top 3 bits give
 * the match length and its low 5 bits the high bits of the backward distance, followed by length extension bytes and
 * the low distance byte, or a 16-bit far distance. Sizes and offsets are in bytes.
 */
final class BloscLzDecoder {
    /** Largest biased distance of a near match; far matches add it to their 16-bit distance. */
    static final int MAX_DISTANCE = 8191;

    private BloscLzDecoder() {}

    /**
     * Decodes the {@code length} bytes at {@code in[inOff]} into {@code out[outOff]}, writing at most {@code maxOut}
     * bytes; returns the number of bytes written, or -1 when the stream is corrupt.
     */
    static int decompress(byte[] in, int inOff, int length, byte[] out, int outOff, int maxOut) {
        if (length == 0) {
            return 0;
        }
        int ip = inOff;
        int ipEnd = inOff + length;
        int op = outOff;
        int opEnd = outOff + maxOut;
        int ctrl = in[ip++] & 31;
        while (true) {
            if (ctrl >= 32) {
                int len = (ctrl >>> 5) - 1;
                int ofs = (ctrl & 31) << 8;
                if (len == 6) {
                    int code;
                    do {
                        if (ip >= ipEnd || len > maxOut) {
                            return -1;
                        }
                        code = in[ip++] & 0xFF;
                        len += code;
                    } while (code == 255);
                }
                if (ip >= ipEnd) {
                    return -1;
                }
                int code = in[ip++] & 0xFF;
                len += 3;
                int distance = ofs + code;
                if (code == 255 && ofs == (31 << 8)) {
                    if (ip + 2 > ipEnd) {
                        return -1;
                    }
                    distance = ((in[ip] & 0xFF) << 8 | (in[ip + 1] & 0xFF)) + MAX_DISTANCE;
                    ip += 2;
                }
                int ref = op - distance - 1;
                if (ref < outOff || len > opEnd - op) {
                    return -1;
                }
                if (distance == 0) {
                    Arrays.fill(out, op, op + len, out[ref]);
                } else if (op - ref >= len) {
                    System.arraycopy(out, ref, out, op, len);
                } else {
                    copyOverlapping(out, ref, op, len);
                }
                op += len;
            } else {
                int run = ctrl + 1;
                if (run > opEnd - op || run > ipEnd - ip) {
                    return -1;
                }
                System.arraycopy(in, ip, out, op, run);
                ip += run;
                op += run;
            }
            if (ip >= ipEnd) {
                break;
            }
            ctrl = in[ip++] & 0xFF;
        }
        return op - outOff;
    }

    /** Copies {@code len} bytes from {@code ref} to {@code op > ref} in {@code b}, repeating the period {@code op-ref}. */
    private static void copyOverlapping(byte[] b, int ref, int op, int len) {
        int period = op - ref;
        int done = 0;
        while (done < len) {
            int n = Math.min(period, len - done);
            System.arraycopy(b, ref, b, op + done, n);
            done += n;
            period += n;
        }
    }
}
