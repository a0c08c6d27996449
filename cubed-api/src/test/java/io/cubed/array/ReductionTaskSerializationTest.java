package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.Cubed;
import io.cubed.chunk.Chunk;
import io.cubed.chunk.ReduceFunction;
import io.cubed.dtype.DType;
import io.cubed.plan.OpNode;
import io.cubed.plan.Plan;
import io.cubed.plan.Spec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key and chunk functions of every operation on this pages survive Java serialization (Spark ships them). */
class ReductionTaskSerializationTest {
    @TempDir
    Path tmp;

    @Test
    void everyOperationsFunctionsRoundTrip() throws Exception {
        Spec spec = Spec.builder().workDir(tmp.toString()).build();
        CubedArray x = Creation.ones(new long[] {6, 4}, new int[] {2, 2}, DType.FLOAT64, spec);
        CubedArray labels =
                Cubed.asarray(Chunk.wrap(DType.INT32, new int[] {6}, new int[] {0, 1, 0, 1, 2, 2}), spec, 3);
        List<CubedArray> arrays = List.of(
                Statistical.var(x, ReductionOptions.axis(0)),
                Searching.argmax(x),
                Statistical.cumulativeSum(x, ReductionOptions.axis(0)),
                Utility.diff(x, 0, 2),
                LinearAlgebra.matmul(x, LinearAlgebra.matrixTranspose(x)),
                LinearAlgebra.tensordot(x, x, 2),
                LinearAlgebra.vecdot(Creation.ones(new long[] {6, 4}, new int[] {2, 2}, DType.COMPLEX64, spec), x),
                Reduction.groupbyReduction(x, labels, ReduceFunction.MEAN, 0, 3, ReductionOptions.all()));
        int ops = 0;
        for (CubedArray a : arrays) {
            for (OpNode op : Plan.of(List.of(a.node())).ops()) {
                assertThat(roundTrip(op.keyFunction())).as(op.toString()).isNotNull();
                assertThat(roundTrip(op.function())).as(op.toString()).isNotNull();
                ops++;
            }
        }
        assertThat(ops).isGreaterThan(12);
    }

    private static Object roundTrip(Object o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }
}
