package io.cubed.primitive;

/** The counts {@link ElementwiseTiles} keeps of the chunks it computed in tiles, for tests in other packages. */
public final class TileCounts {
    private TileCounts() {}

    /** Output chunks computed tile by tile in this JVM so far. */
    public static long tiled() {
        return ElementwiseTiles.tiledChunks();
    }

    /** Chunks handed over tile by tile to a consumer taking them box by box in this JVM so far. */
    public static long boxed() {
        return ElementwiseTiles.boxedChunks();
    }
}
