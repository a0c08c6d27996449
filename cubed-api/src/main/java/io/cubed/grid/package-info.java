/**
 * Grid arithmetic: how an array's shape is cut into chunks ({@link io.cubed.grid.ChunkGrid}), chunk coordinates
 * versus element indexes, and the regions a chunk covers. Pure arithmetic on immutable values; no I/O.
 */
package io.cubed.grid;
