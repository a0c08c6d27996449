package io.cubed.array;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.chunk.BinaryFunction;
import io.cubed.chunk.DTypeRule;
import io.cubed.chunk.UnaryFunction;
import io.cubed.dtype.DType;
import io.cubed.dtype.Scalar;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The tables {@link UnaryFunction} and {@link BinaryFunction} drive the public surface of {@link Elementwise}: every
 * row has a loop for every data type its domain accepts, and its methods with the expected signatures; every public
 * method of {@link Elementwise} is a row's (or one of the generic entry points, {@code clip}, {@code astype}).
 */
class ElementwiseTableTest {
    private static final Set<String> NOT_ROWS = Set.of("unary", "binary", "clip", "astype");

    @Test
    void everyRowHasALoopForEveryTypeOfItsDomain() {
        List<String> missing = new ArrayList<>();
        for (UnaryFunction f : UnaryFunction.values()) {
            for (DType t : DType.values()) {
                if (f.domain().accepts(t) && !f.hasKernel(t)) {
                    missing.add(f + " " + t);
                }
            }
        }
        for (BinaryFunction f : BinaryFunction.values()) {
            for (DType t : DType.values()) {
                if (f.domain().accepts(t) && !f.hasKernel(t)) {
                    missing.add(f + " " + t);
                }
            }
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void namesFollowTheStandardAndJavaConventions() {
        assertThat(UnaryFunction.BITWISE_INVERT.pythonName()).isEqualTo("bitwise_invert");
        assertThat(UnaryFunction.BITWISE_INVERT.javaName()).isEqualTo("bitwiseInvert");
        assertThat(UnaryFunction.LOG1P.javaName()).isEqualTo("log1p");
        assertThat(BinaryFunction.BITWISE_RIGHT_SHIFT.javaName()).isEqualTo("bitwiseRightShift");
        assertThat(BinaryFunction.fromPythonName("floor_divide")).isEqualTo(BinaryFunction.FLOOR_DIVIDE);
    }

    @Test
    void dtypeRules() {
        assertThat(UnaryFunction.ABS.resultType(DType.COMPLEX64)).isEqualTo(DType.FLOAT32);
        assertThat(UnaryFunction.ABS.resultType(DType.INT16)).isEqualTo(DType.INT16);
        assertThat(UnaryFunction.ISNAN.resultType(DType.FLOAT32)).isEqualTo(DType.BOOL);
        assertThat(UnaryFunction.RECIPROCAL.dtypeRule()).isEqualTo(DTypeRule.FLOATING);
        assertThat(UnaryFunction.RECIPROCAL.resultType(DType.INT8)).isEqualTo(DType.FLOAT64);
        assertThat(UnaryFunction.RECIPROCAL.resultType(DType.UINT64)).isEqualTo(DType.FLOAT64);
        assertThat(UnaryFunction.RECIPROCAL.resultType(DType.FLOAT32)).isEqualTo(DType.FLOAT32);
        assertThat(UnaryFunction.RECIPROCAL.resultType(DType.COMPLEX64)).isEqualTo(DType.COMPLEX64);
        assertThat(UnaryFunction.RECIPROCAL.workingType(DType.INT32)).isEqualTo(DType.FLOAT64);
        assertThat(UnaryFunction.SQRT.workingType(DType.FLOAT32)).isEqualTo(DType.FLOAT32);
        assertThat(BinaryFunction.LESS.resultType(DType.INT8)).isEqualTo(DType.BOOL);
        assertThat(BinaryFunction.ADD.resultType(DType.UINT16)).isEqualTo(DType.UINT16);
    }

    @Test
    void everyUnaryRowIsOnePublicMethod() throws Exception {
        for (UnaryFunction f : UnaryFunction.values()) {
            Method m = Elementwise.class.getMethod(f.javaName(), CubedArray.class);
            assertThat(Modifier.isStatic(m.getModifiers())).as(f.javaName()).isTrue();
            assertThat(m.getReturnType()).isEqualTo(CubedArray.class);
        }
    }

    @Test
    void everyBinaryRowIsThreePublicMethods() throws Exception {
        for (BinaryFunction f : BinaryFunction.values()) {
            for (Class<?>[] params : List.of(
                    new Class<?>[] {CubedArray.class, CubedArray.class},
                    new Class<?>[] {CubedArray.class, Scalar.class},
                    new Class<?>[] {Scalar.class, CubedArray.class})) {
                Method m = Elementwise.class.getMethod(f.javaName(), params);
                assertThat(Modifier.isStatic(m.getModifiers()))
                        .as(f.javaName() + Arrays.toString(params))
                        .isTrue();
            }
        }
    }

    @Test
    void everyPublicMethodIsARow() {
        Set<String> rows = new TreeSet<>(NOT_ROWS);
        for (UnaryFunction f : UnaryFunction.values()) {
            rows.add(f.javaName());
        }
        for (BinaryFunction f : BinaryFunction.values()) {
            rows.add(f.javaName());
        }
        Set<String> methods = new TreeSet<>();
        for (Method m : Elementwise.class.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers())) {
                methods.add(m.getName());
            }
        }
        assertThat(methods).isEqualTo(rows);
        // 38 unary functions, 28 binary ones with three forms each, four clips (array, scalar and mixed bounds),
        // astype and four generic entry points.
        long count = Arrays.stream(Elementwise.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()))
                .count();
        assertThat(count).isEqualTo(UnaryFunction.values().length + 3L * BinaryFunction.values().length + 4 + 1 + 4);
        assertThat(UnaryFunction.values()).hasSize(38);
        assertThat(BinaryFunction.values()).hasSize(28);
    }
}
