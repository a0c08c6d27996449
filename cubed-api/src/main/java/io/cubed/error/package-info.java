/**
 * The exception tree: {@link io.cubed.error.CubedException} and its subclasses. All are unchecked so that they cross
 * Spark task boundaries, lambdas and streams unchanged; every message names the array or URL, the operation and the
 * offending value. This package sits at the bottom of the layering and depends on nothing else in Cubed.
 */
package io.cubed.error;
