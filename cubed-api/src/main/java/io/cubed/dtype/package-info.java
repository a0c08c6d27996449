/**
 * Data types: {@link io.cubed.dtype.DType}, the 13 types of the Array API standard with their item sizes and their
 * Java array representation, and {@link io.cubed.dtype.Scalar}, one value of any of them. Nothing here knows about
 * storage formats.
 */
package io.cubed.dtype;
