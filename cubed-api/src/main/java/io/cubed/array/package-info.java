/**
 * The lazy array API: {@link io.cubed.array.CubedArray} and the Array API function groups ({@link
 * io.cubed.array.Creation}, {@link io.cubed.array.Blockwise}, …). Functions build plan nodes and never compute;
 * {@code compute}, {@code toZarr} and {@code store} run the plan.
 */
package io.cubed.array;
