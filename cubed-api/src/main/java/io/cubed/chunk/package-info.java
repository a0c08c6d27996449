/**
 * Chunks in memory ({@link io.cubed.chunk.Chunk}: a data type, a shape and one primitive Java array in C order) and
 * the kernels that work on one chunk. No I/O happens here: storage turns bytes into chunks and back.
 */
package io.cubed.chunk;
