/**
 * The {@code cubed} command line ({@link io.cubed.jobs.CubedCli}) and its jobs: {@code info}, {@code copy},
 * {@code rechunk} and {@code demo}. Each job is a small class that uses only the public API of {@code cubed-api}.
 */
package io.cubed.jobs;
