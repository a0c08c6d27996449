package io.cubed.dtype;

import java.math.BigInteger;

/**
 * Machine limits of an integer data type, as the Array API's {@code iinfo} returns them.
 *
 * <p>{@code max} and {@code min} are the limits as Java longs. For {@link DType#UINT64} the maximum 2<sup>64</sup>-1
 * does not fit a signed long: {@code max} then holds its bits, i.e. {@code -1}; use {@link #maxExact()} for the exact
 * value of any type.
 *
 * @param bits number of bits of the type
 * @param max largest representable value (for uint64, its bits: -1)
 * @param min smallest representable value (0 for unsigned types)
 * @param dtype the integer type described
 */
public record IInfo(int bits, long max, long min, DType dtype) {

    /** The exact largest representable value, e.g. 18446744073709551615 for uint64. */
    public BigInteger maxExact() {
        BigInteger m = BigInteger.valueOf(max);
        return m.signum() < 0 ? m.add(BigInteger.ONE.shiftLeft(64)) : m;
    }
}
