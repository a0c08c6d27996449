/**
 * The entry point {@link io.cubed.Cubed}: arrays from Zarr and Java data, and computing or storing several arrays in
 * one computation. Sits on top of every other package.
 */
package io.cubed;
