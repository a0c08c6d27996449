/**
 * Data types: {@link io.cubed.dtype.DType}, the 13 types of the Array API standard with their item sizes and their
 * Java array representation, {@link io.cubed.dtype.Scalar}, one value of any of them, and
 * {@link io.cubed.dtype.DTypes}, the standard's data type functions (type promotion, Python-scalar rules, can_cast,
 * finfo/iinfo, isdtype). Nothing here knows about storage formats.
 */
package io.cubed.dtype;
