/**
 * Store backends: {@link io.cubed.storage.fs.LocalStore} (java.nio), {@link io.cubed.storage.fs.HadoopStore} (any
 * Hadoop FileSystem: hdfs, abfss, gs, s3, file), {@link io.cubed.storage.fs.InMemoryStore}, Cubed's own S3 client for
 * s3a ({@code fs.s3}), and {@link io.cubed.storage.fs.Stores}, which opens one from a URI string. The only package
 * (with {@code fs.s3}) that knows Hadoop.
 */
package io.cubed.storage.fs;
