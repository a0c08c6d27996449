/**
 * Store backends: {@link io.cubed.storage.fs.LocalStore} (java.nio), {@link io.cubed.storage.fs.HadoopStore} (any
 * Hadoop FileSystem: s3a, hdfs, abfss, gs, file), {@link io.cubed.storage.fs.InMemoryStore}, and
 * {@link io.cubed.storage.fs.Stores}, which opens one from a URI string. The only package that knows Hadoop.
 */
package io.cubed.storage.fs;
