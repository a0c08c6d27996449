package io.cubed.storage.zarr;

/** The compressors {@link Compressor#requireUsable} found usable in this JVM, so that each is probed once. */
final class UsableCodecs {
    static final java.util.Set<Compressor> CHECKED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private UsableCodecs() {}
}
