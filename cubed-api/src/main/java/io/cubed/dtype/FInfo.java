package io.cubed.dtype;

/**
 * Machine limits of a floating-point data type, as the Array API's {@code finfo} returns them: all values are given as
 * doubles holding the exact value of the type's limit.
 *
 * @param bits number of bits of the real floating-point type (32 or 64; for complex types, of one component)
 * @param eps difference between 1.0 and the next larger representable number
 * @param max largest finite representable number
 * @param min smallest (most negative) finite representable number, {@code -max}
 * @param smallestNormal smallest positive normal number
 * @param dtype the real floating-point type described ({@link DType#FLOAT32} for {@link DType#COMPLEX64})
 */
public record FInfo(int bits, double eps, double max, double min, double smallestNormal, DType dtype) {}
