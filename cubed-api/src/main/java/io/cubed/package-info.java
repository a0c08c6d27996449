/**
 * The entry point {@link io.cubed.Cubed}: arrays from Zarr and Java data, and computing or storing several arrays in
 * one computation; {@link io.cubed.SpecConfig}: a spec's settings from the command line, the environment, the Spark
 * conf and a properties file, with one precedence. Sits on top of every other package.
 *
 * <p>Which file holds what: {@code Cubed} the entry point; {@code SpecConfig} the resolved settings, their keys and
 * types, and the spec built from them; {@code SettingKeys} the catalog of settings and Cubed's defaults; {@code
 * SettingSources} the reading of the sources in precedence order; {@code SettingCheck} the check of a value against
 * its kind.
 */
package io.cubed;
