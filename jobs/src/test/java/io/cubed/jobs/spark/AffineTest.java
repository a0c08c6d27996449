package io.cubed.jobs.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.Chunk;
import io.cubed.dtype.DType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

class AffineTest {
    @Test
    void survivesSerializationAndComputesAxPlusB() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new Affine(2, 1));
        }
        Affine f;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            f = (Affine) in.readObject();
        }
        Chunk x = Chunk.wrap(DType.FLOAT64, new int[] {3}, new double[] {0, 1.5, -4});
        assertThat(f.apply(new Chunk[] {x}, new long[] {0}).doubles()).containsExactly(1, 4, -7);
    }
}
