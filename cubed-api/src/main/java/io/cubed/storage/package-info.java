/**
 * The storage interfaces everything above talks to: {@link io.cubed.storage.Store} (atomic key-value bytes under a
 * root URI), {@link io.cubed.storage.StoreOptions} (serializable options that travel to tasks) and
 * {@link io.cubed.storage.ChunkStore} (an array read and written chunk by chunk), and {@link
 * io.cubed.storage.ChunkIo}, the store requests a task slot keeps in flight. Formats live in
 * {@code storage.zarr} and backends in {@code storage.fs}; both build on this package.
 */
package io.cubed.storage;
