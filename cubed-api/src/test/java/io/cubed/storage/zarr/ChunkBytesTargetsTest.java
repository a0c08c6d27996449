package io.cubed.storage.zarr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import io.cubed.storage.ChunkStores;
import io.cubed.storage.zarr.codec.RawBytesSink;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * {@link ChunkBytes#sinkIntoTargets}'s pieces: a chunk of 2 x 10 float64 values whose rows pass through two targets
 * with a gap of 3 columns between them, and the same for targets that do not hold float64 values (no pieces at all, so
 * that a codec never starts a block in pieces it cannot finish).
 */
class ChunkBytesTargetsTest {
    private static RawBytesSink sink(DType dtype, ByteOrder order) {
        int[] shape = {2, 10};
        long[] at = {0, 0};
        Chunk left = Chunk.allocate(dtype, new int[] {2, 4});
        Chunk right = Chunk.allocate(dtype, new int[] {2, 3});
        long[][] offsets = {{0, 0}, {0, 7}};
        Chunk[] targets = {left, right};
        int[][][] boxes = new int[2][][];
        for (int t = 0; t < 2; t++) {
            boxes[t] = ChunkStores.overlap(at, shape, offsets[t], targets[t].shape());
        }
        return ChunkBytes.sinkIntoTargets(targets, order, shape, boxes);
    }

    @Test
    void float64RowsAreGivenInPiecesOfOneTargetOrOfNoneEach() {
        RawBytesSink s = sink(DType.FLOAT64, ByteOrder.LITTLE_ENDIAN);
        // Row 0: columns 0..3 in the left target, 4..6 in none, 7..9 in the right one; then row 1 alike.
        RawBytesSink.Piece p = s.doublesPiece(0, 160);
        assertThat(p.array()).isNotNull();
        assertThat(p.offset()).isZero();
        assertThat(p.bytes()).isEqualTo(32);
        p = s.doublesPiece(32, 128);
        assertThat(p.array()).isNull();
        assertThat(p.bytes()).isEqualTo(24);
        p = s.doublesPiece(56, 104);
        assertThat(p.array()).isNotNull();
        assertThat(p.offset()).isZero();
        assertThat(p.bytes()).isEqualTo(24);
        p = s.doublesPiece(80, 80);
        assertThat(p.offset()).isEqualTo(4); // row 1 of the left target
        assertThat(p.bytes()).isEqualTo(32);
        p = s.doublesPiece(136, 24);
        assertThat(p.offset()).isEqualTo(3); // row 1 of the right target
        assertThat(p.bytes()).isEqualTo(24);
        // A piece never runs past the length asked for.
        assertThat(s.doublesPiece(0, 16).bytes()).isEqualTo(16);
    }

    @Test
    void targetsThatDoNotHoldFloat64ValuesGiveNoPieceNotEvenASkippedOne() {
        assertThat(sink(DType.INT64, ByteOrder.LITTLE_ENDIAN).doublesPiece(32, 128))
                .isNull();
        assertThat(sink(DType.INT64, ByteOrder.LITTLE_ENDIAN).doublesPiece(0, 160))
                .isNull();
        assertThat(sink(DType.FLOAT64, ByteOrder.BIG_ENDIAN).doublesPiece(32, 128))
                .isNull();
    }
}
