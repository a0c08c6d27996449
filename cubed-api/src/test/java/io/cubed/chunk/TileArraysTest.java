package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import org.junit.jupiter.api.Test;

/** Result arrays reused from tile to tile inside a scope, new ones outside it, and the kernels' results in a scope. */
class TileArraysTest {
    @Test
    void outsideAScopeEveryArrayIsNew() {
        double[] a = TileArrays.doubles(100);
        double[] b = TileArrays.doubles(100);
        assertThat(a).isNotSameAs(b).containsOnly(0.0);
        assertThat(TileArrays.floats(3)).containsExactly(0f, 0f, 0f);
    }

    @Test
    void aScopeHandsATilesArraysToTheNextTile() {
        try (TileArrays.Scope scope = TileArrays.open()) {
            double[] a = TileArrays.doubles(64);
            double[] b = TileArrays.doubles(64);
            float[] f = TileArrays.floats(64);
            assertThat(a).isNotSameAs(b);
            a[0] = 1;
            scope.nextTile();
            double[] c = TileArrays.doubles(64);
            double[] d = TileArrays.doubles(64);
            double[] e = TileArrays.doubles(64); // a third one: new
            assertThat(java.util.List.of(c, d)).containsExactlyInAnyOrder(a, b);
            assertThat(e).isNotSameAs(a).isNotSameAs(b);
            assertThat(TileArrays.floats(64)).isSameAs(f);
            assertThat(TileArrays.doubles(32))
                    .as("another length: new")
                    .isNotSameAs(a)
                    .isNotSameAs(b);
            if (Boolean.getBoolean("cubed.recycler.poison")) {
                assertThat(Double.isNaN(c[0]) && Double.isNaN(d[0]))
                        .as("reused arrays are poisoned")
                        .isTrue();
            }
            try (TileArrays.Scope inner = TileArrays.open()) {
                inner.nextTile(); // nested: does nothing
            }
            double[] g = TileArrays.doubles(64);
            assertThat(g != a && g != b && g != e)
                    .as("still in the outer tile: not one in use")
                    .isTrue();
        }
        double[] after = TileArrays.doubles(64);
        assertThat(after).containsOnly(0.0);
    }

    @Test
    void kernelsInAScopeGiveTheSameValuesTileAfterTile() {
        Chunk row = Chunk.wrap(DType.FLOAT64, new int[] {1, 20}, new double[20]);
        for (int j = 0; j < 20; j++) {
            row.doubles()[j] = j * 0.5 - 3;
        }
        try (TileArrays.Scope scope = TileArrays.open()) {
            for (int tile = 0; tile < 3; tile++) {
                double[] xd = new double[60];
                for (int i = 0; i < 60; i++) {
                    xd[i] = i * 1.25 + tile;
                }
                Chunk x = Chunk.wrap(DType.FLOAT64, new int[] {3, 20}, xd);
                Chunk y = Elementwise.binary(
                        BinaryFunction.ADD,
                        Elementwise.binary(
                                BinaryFunction.POW,
                                Elementwise.binary(BinaryFunction.SUBTRACT, x, row),
                                Scalar.ofLong(2)),
                        Elementwise.unary(UnaryFunction.SQRT, Elementwise.unary(UnaryFunction.ABS, x)));
                Chunk z = Elementwise.astype(y, DType.FLOAT32);
                for (int i = 0; i < 60; i++) {
                    double d = xd[i] - row.doubles()[i % 20];
                    double expected = d * d + Math.sqrt(Math.abs(xd[i]));
                    assertThat(y.doubles()[i]).as("tile %d, %d", tile, i).isEqualTo(expected);
                    assertThat(z.floats()[i]).isEqualTo((float) expected);
                }
                scope.nextTile();
            }
        }
    }
}
