package io.cubed.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import io.cubed.dtype.DType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Complex elementary functions on special values: the full grid of {0, -0, 1, -1, inf, -inf, nan} for the real and
 * the imaginary part, for sqrt, exp, log, sin, cos, tan, sinh, cosh, tanh, asin, acos, atan, asinh, acosh and atanh.
 *
 * <p>The expected values in {@link #TABLE} are NumPy 1.24's (on glibc), computed once with {@code
 * getattr(np, name)(z)} on complex128 and written here as literals. Rows marked {@code S} are those for which the Python
 * Array API standard lists the result ("Special cases" of each function, C99 Annex G, with the symmetries it states:
 * conj, odd functions, and asin, atan, sin, tan, cos defined through asinh, atanh, sinh, tanh, cosh); NumPy's values
 * agree with the standard on every one of them (where the standard leaves a sign unspecified, NumPy's sign is the
 * expected one). The other rows are where the standard is silent (NaN results, finite inputs), and NumPy decides.
 *
 * <p>Comparison: exact (the sign of a zero included, any NaN equal to any NaN) for every part of a row whose input
 * has an infinite or NaN part, and for zero, infinite and NaN parts everywhere; finite nonzero results of finite
 * inputs (computed by Java's libm, not glibc's) within 4 ulps. complex64 is checked on the rows with an infinite or NaN
 * input part, against the expected values rounded to float.
 */
class ComplexSpecialValuesTest {
    private static final Map<String, UnaryFunction> FUNCTIONS = Map.ofEntries(
            Map.entry("sqrt", UnaryFunction.SQRT),
            Map.entry("exp", UnaryFunction.EXP),
            Map.entry("log", UnaryFunction.LOG),
            Map.entry("sin", UnaryFunction.SIN),
            Map.entry("cos", UnaryFunction.COS),
            Map.entry("tan", UnaryFunction.TAN),
            Map.entry("sinh", UnaryFunction.SINH),
            Map.entry("cosh", UnaryFunction.COSH),
            Map.entry("tanh", UnaryFunction.TANH),
            Map.entry("asin", UnaryFunction.ASIN),
            Map.entry("acos", UnaryFunction.ACOS),
            Map.entry("atan", UnaryFunction.ATAN),
            Map.entry("asinh", UnaryFunction.ASINH),
            Map.entry("acosh", UnaryFunction.ACOSH),
            Map.entry("atanh", UnaryFunction.ATANH));

    /** function, input real, input imaginary, NumPy 1.24's real and imaginary part; S: listed by the standard. */
    private static final String TABLE =
            """
            sqrt   0.0   0.0   0.0                   0.0                   S
            sqrt   0.0   -0.0  0.0                   -0.0                  S
            sqrt   0.0   1.0   0.7071067811865476    0.7071067811865476
            sqrt   0.0   -1.0  0.7071067811865476    -0.7071067811865476
            sqrt   0.0   inf   inf                   inf                   S
            sqrt   0.0   -inf  inf                   -inf                  S
            sqrt   0.0   nan   nan                   nan                   S
            sqrt   -0.0  0.0   0.0                   0.0                   S
            sqrt   -0.0  -0.0  0.0                   -0.0                  S
            sqrt   -0.0  1.0   0.7071067811865476    0.7071067811865476
            sqrt   -0.0  -1.0  0.7071067811865476    -0.7071067811865476
            sqrt   -0.0  inf   inf                   inf                   S
            sqrt   -0.0  -inf  inf                   -inf                  S
            sqrt   -0.0  nan   nan                   nan                   S
            sqrt   1.0   0.0   1.0                   0.0
            sqrt   1.0   -0.0  1.0                   -0.0
            sqrt   1.0   1.0   1.09868411346781      0.45508986056222733
            sqrt   1.0   -1.0  1.09868411346781      -0.45508986056222733
            sqrt   1.0   inf   inf                   inf                   S
            sqrt   1.0   -inf  inf                   -inf                  S
            sqrt   1.0   nan   nan                   nan                   S
            sqrt   -1.0  0.0   0.0                   1.0
            sqrt   -1.0  -0.0  0.0                   -1.0
            sqrt   -1.0  1.0   0.45508986056222733   1.09868411346781
            sqrt   -1.0  -1.0  0.45508986056222733   -1.09868411346781
            sqrt   -1.0  inf   inf                   inf                   S
            sqrt   -1.0  -inf  inf                   -inf                  S
            sqrt   -1.0  nan   nan                   nan                   S
            sqrt   inf   0.0   inf                   0.0
            sqrt   inf   -0.0  inf                   -0.0
            sqrt   inf   1.0   inf                   0.0                   S
            sqrt   inf   -1.0  inf                   -0.0                  S
            sqrt   inf   inf   inf                   inf                   S
            sqrt   inf   -inf  inf                   -inf                  S
            sqrt   inf   nan   inf                   nan                   S
            sqrt   -inf  0.0   0.0                   inf
            sqrt   -inf  -0.0  0.0                   -inf
            sqrt   -inf  1.0   0.0                   inf                   S
            sqrt   -inf  -1.0  0.0                   -inf                  S
            sqrt   -inf  inf   inf                   inf                   S
            sqrt   -inf  -inf  inf                   -inf                  S
            sqrt   -inf  nan   nan                   inf                   S
            sqrt   nan   0.0   nan                   nan                   S
            sqrt   nan   -0.0  nan                   nan                   S
            sqrt   nan   1.0   nan                   nan                   S
            sqrt   nan   -1.0  nan                   nan                   S
            sqrt   nan   inf   inf                   inf                   S
            sqrt   nan   -inf  inf                   -inf                  S
            sqrt   nan   nan   nan                   nan                   S
            exp    0.0   0.0   1.0                   0.0                   S
            exp    0.0   -0.0  1.0                   -0.0                  S
            exp    0.0   1.0   0.5403023058681398    0.8414709848078965
            exp    0.0   -1.0  0.5403023058681398    -0.8414709848078965
            exp    0.0   inf   nan                   nan                   S
            exp    0.0   -inf  nan                   nan                   S
            exp    0.0   nan   nan                   nan                   S
            exp    -0.0  0.0   1.0                   0.0                   S
            exp    -0.0  -0.0  1.0                   -0.0                  S
            exp    -0.0  1.0   0.5403023058681398    0.8414709848078965
            exp    -0.0  -1.0  0.5403023058681398    -0.8414709848078965
            exp    -0.0  inf   nan                   nan                   S
            exp    -0.0  -inf  nan                   nan                   S
            exp    -0.0  nan   nan                   nan                   S
            exp    1.0   0.0   2.718281828459045     0.0
            exp    1.0   -0.0  2.718281828459045     -0.0
            exp    1.0   1.0   1.4686939399158851    2.2873552871788423
            exp    1.0   -1.0  1.4686939399158851    -2.2873552871788423
            exp    1.0   inf   nan                   nan                   S
            exp    1.0   -inf  nan                   nan                   S
            exp    1.0   nan   nan                   nan                   S
            exp    -1.0  0.0   0.36787944117144233   0.0
            exp    -1.0  -0.0  0.36787944117144233   -0.0
            exp    -1.0  1.0   0.19876611034641298   0.3095598756531122
            exp    -1.0  -1.0  0.19876611034641298   -0.3095598756531122
            exp    -1.0  inf   nan                   nan                   S
            exp    -1.0  -inf  nan                   nan                   S
            exp    -1.0  nan   nan                   nan                   S
            exp    inf   0.0   inf                   0.0                   S
            exp    inf   -0.0  inf                   -0.0                  S
            exp    inf   1.0   inf                   inf                   S
            exp    inf   -1.0  inf                   -inf                  S
            exp    inf   inf   inf                   nan                   S
            exp    inf   -inf  inf                   nan                   S
            exp    inf   nan   inf                   nan                   S
            exp    -inf  0.0   0.0                   0.0                   S
            exp    -inf  -0.0  0.0                   -0.0                  S
            exp    -inf  1.0   0.0                   0.0                   S
            exp    -inf  -1.0  0.0                   -0.0                  S
            exp    -inf  inf   0.0                   0.0                   S
            exp    -inf  -inf  0.0                   -0.0                  S
            exp    -inf  nan   0.0                   0.0                   S
            exp    nan   0.0   nan                   0.0                   S
            exp    nan   -0.0  nan                   -0.0                  S
            exp    nan   1.0   nan                   nan                   S
            exp    nan   -1.0  nan                   nan                   S
            exp    nan   inf   nan                   nan                   S
            exp    nan   -inf  nan                   nan                   S
            exp    nan   nan   nan                   nan                   S
            log    0.0   0.0   -inf                  0.0                   S
            log    0.0   -0.0  -inf                  -0.0                  S
            log    0.0   1.0   0.0                   1.5707963267948966
            log    0.0   -1.0  0.0                   -1.5707963267948966
            log    0.0   inf   inf                   1.5707963267948966    S
            log    0.0   -inf  inf                   -1.5707963267948966   S
            log    0.0   nan   nan                   nan                   S
            log    -0.0  0.0   -inf                  3.141592653589793     S
            log    -0.0  -0.0  -inf                  -3.141592653589793    S
            log    -0.0  1.0   0.0                   1.5707963267948966
            log    -0.0  -1.0  0.0                   -1.5707963267948966
            log    -0.0  inf   inf                   1.5707963267948966    S
            log    -0.0  -inf  inf                   -1.5707963267948966   S
            log    -0.0  nan   nan                   nan                   S
            log    1.0   0.0   0.0                   0.0
            log    1.0   -0.0  0.0                   -0.0
            log    1.0   1.0   0.34657359027997264   0.7853981633974483
            log    1.0   -1.0  0.34657359027997264   -0.7853981633974483
            log    1.0   inf   inf                   1.5707963267948966    S
            log    1.0   -inf  inf                   -1.5707963267948966   S
            log    1.0   nan   nan                   nan                   S
            log    -1.0  0.0   0.0                   3.141592653589793
            log    -1.0  -0.0  0.0                   -3.141592653589793
            log    -1.0  1.0   0.34657359027997264   2.356194490192345
            log    -1.0  -1.0  0.34657359027997264   -2.356194490192345
            log    -1.0  inf   inf                   1.5707963267948966    S
            log    -1.0  -inf  inf                   -1.5707963267948966   S
            log    -1.0  nan   nan                   nan                   S
            log    inf   0.0   inf                   0.0
            log    inf   -0.0  inf                   -0.0
            log    inf   1.0   inf                   0.0                   S
            log    inf   -1.0  inf                   -0.0                  S
            log    inf   inf   inf                   0.7853981633974483    S
            log    inf   -inf  inf                   -0.7853981633974483   S
            log    inf   nan   inf                   nan                   S
            log    -inf  0.0   inf                   3.141592653589793
            log    -inf  -0.0  inf                   -3.141592653589793
            log    -inf  1.0   inf                   3.141592653589793     S
            log    -inf  -1.0  inf                   -3.141592653589793    S
            log    -inf  inf   inf                   2.356194490192345     S
            log    -inf  -inf  inf                   -2.356194490192345    S
            log    -inf  nan   inf                   nan                   S
            log    nan   0.0   nan                   nan                   S
            log    nan   -0.0  nan                   nan                   S
            log    nan   1.0   nan                   nan                   S
            log    nan   -1.0  nan                   nan                   S
            log    nan   inf   inf                   nan                   S
            log    nan   -inf  inf                   nan                   S
            log    nan   nan   nan                   nan                   S
            sin    0.0   0.0   0.0                   0.0                   S
            sin    0.0   -0.0  0.0                   -0.0                  S
            sin    0.0   1.0   0.0                   1.1752011936438014
            sin    0.0   -1.0  0.0                   -1.1752011936438014
            sin    0.0   inf   0.0                   inf                   S
            sin    0.0   -inf  0.0                   -inf                  S
            sin    0.0   nan   0.0                   nan                   S
            sin    -0.0  0.0   -0.0                  0.0                   S
            sin    -0.0  -0.0  -0.0                  -0.0                  S
            sin    -0.0  1.0   -0.0                  1.1752011936438014
            sin    -0.0  -1.0  -0.0                  -1.1752011936438014
            sin    -0.0  inf   -0.0                  inf                   S
            sin    -0.0  -inf  -0.0                  -inf                  S
            sin    -0.0  nan   -0.0                  nan                   S
            sin    1.0   0.0   0.8414709848078965    0.0
            sin    1.0   -0.0  0.8414709848078965    -0.0
            sin    1.0   1.0   1.2984575814159773    0.6349639147847361
            sin    1.0   -1.0  1.2984575814159773    -0.6349639147847361
            sin    1.0   inf   inf                   inf                   S
            sin    1.0   -inf  inf                   -inf                  S
            sin    1.0   nan   nan                   nan                   S
            sin    -1.0  0.0   -0.8414709848078965   0.0
            sin    -1.0  -0.0  -0.8414709848078965   -0.0
            sin    -1.0  1.0   -1.2984575814159773   0.6349639147847361
            sin    -1.0  -1.0  -1.2984575814159773   -0.6349639147847361
            sin    -1.0  inf   -inf                  inf                   S
            sin    -1.0  -inf  -inf                  -inf                  S
            sin    -1.0  nan   nan                   nan                   S
            sin    inf   0.0   nan                   0.0                   S
            sin    inf   -0.0  nan                   -0.0                  S
            sin    inf   1.0   nan                   nan                   S
            sin    inf   -1.0  nan                   nan                   S
            sin    inf   inf   nan                   inf                   S
            sin    inf   -inf  nan                   inf                   S
            sin    inf   nan   nan                   nan
            sin    -inf  0.0   nan                   0.0                   S
            sin    -inf  -0.0  nan                   -0.0                  S
            sin    -inf  1.0   nan                   nan                   S
            sin    -inf  -1.0  nan                   nan                   S
            sin    -inf  inf   nan                   inf                   S
            sin    -inf  -inf  nan                   inf                   S
            sin    -inf  nan   nan                   nan
            sin    nan   0.0   nan                   0.0                   S
            sin    nan   -0.0  nan                   -0.0                  S
            sin    nan   1.0   nan                   nan                   S
            sin    nan   -1.0  nan                   nan                   S
            sin    nan   inf   nan                   inf                   S
            sin    nan   -inf  nan                   inf                   S
            sin    nan   nan   nan                   nan                   S
            cos    0.0   0.0   1.0                   -0.0                  S
            cos    0.0   -0.0  1.0                   0.0                   S
            cos    0.0   1.0   1.5430806348152437    -0.0
            cos    0.0   -1.0  1.5430806348152437    0.0
            cos    0.0   inf   inf                   -0.0                  S
            cos    0.0   -inf  inf                   0.0                   S
            cos    0.0   nan   nan                   0.0                   S
            cos    -0.0  0.0   1.0                   0.0                   S
            cos    -0.0  -0.0  1.0                   -0.0                  S
            cos    -0.0  1.0   1.5430806348152437    0.0
            cos    -0.0  -1.0  1.5430806348152437    -0.0
            cos    -0.0  inf   inf                   0.0                   S
            cos    -0.0  -inf  inf                   -0.0                  S
            cos    -0.0  nan   nan                   -0.0                  S
            cos    1.0   0.0   0.5403023058681398    -0.0
            cos    1.0   -0.0  0.5403023058681398    0.0
            cos    1.0   1.0   0.8337300251311491    -0.9888977057628651
            cos    1.0   -1.0  0.8337300251311491    0.9888977057628651
            cos    1.0   inf   inf                   -inf                  S
            cos    1.0   -inf  inf                   inf                   S
            cos    1.0   nan   nan                   nan                   S
            cos    -1.0  0.0   0.5403023058681398    0.0
            cos    -1.0  -0.0  0.5403023058681398    -0.0
            cos    -1.0  1.0   0.8337300251311491    0.9888977057628651
            cos    -1.0  -1.0  0.8337300251311491    -0.9888977057628651
            cos    -1.0  inf   inf                   inf                   S
            cos    -1.0  -inf  inf                   -inf                  S
            cos    -1.0  nan   nan                   nan                   S
            cos    inf   0.0   nan                   0.0                   S
            cos    inf   -0.0  nan                   0.0                   S
            cos    inf   1.0   nan                   nan                   S
            cos    inf   -1.0  nan                   nan                   S
            cos    inf   inf   inf                   nan                   S
            cos    inf   -inf  inf                   nan                   S
            cos    inf   nan   nan                   nan                   S
            cos    -inf  0.0   nan                   0.0                   S
            cos    -inf  -0.0  nan                   0.0                   S
            cos    -inf  1.0   nan                   nan                   S
            cos    -inf  -1.0  nan                   nan                   S
            cos    -inf  inf   inf                   nan                   S
            cos    -inf  -inf  inf                   nan                   S
            cos    -inf  nan   nan                   nan                   S
            cos    nan   0.0   nan                   0.0                   S
            cos    nan   -0.0  nan                   0.0                   S
            cos    nan   1.0   nan                   nan                   S
            cos    nan   -1.0  nan                   nan                   S
            cos    nan   inf   inf                   nan                   S
            cos    nan   -inf  inf                   nan                   S
            cos    nan   nan   nan                   nan                   S
            tan    0.0   0.0   0.0                   0.0                   S
            tan    0.0   -0.0  0.0                   -0.0                  S
            tan    0.0   1.0   0.0                   0.7615941559557649
            tan    0.0   -1.0  0.0                   -0.7615941559557649
            tan    0.0   inf   0.0                   1.0
            tan    0.0   -inf  0.0                   -1.0
            tan    0.0   nan   0.0                   nan                   S
            tan    -0.0  0.0   -0.0                  0.0                   S
            tan    -0.0  -0.0  -0.0                  -0.0                  S
            tan    -0.0  1.0   -0.0                  0.7615941559557649
            tan    -0.0  -1.0  -0.0                  -0.7615941559557649
            tan    -0.0  inf   -0.0                  1.0
            tan    -0.0  -inf  -0.0                  -1.0
            tan    -0.0  nan   -0.0                  nan                   S
            tan    1.0   0.0   1.557407724654902     0.0
            tan    1.0   -0.0  1.557407724654902     -0.0
            tan    1.0   1.0   0.2717525853195118    1.0839233273386946
            tan    1.0   -1.0  0.2717525853195118    -1.0839233273386946
            tan    1.0   inf   0.0                   1.0                   S
            tan    1.0   -inf  0.0                   -1.0                  S
            tan    1.0   nan   nan                   nan                   S
            tan    -1.0  0.0   -1.557407724654902    0.0
            tan    -1.0  -0.0  -1.557407724654902    -0.0
            tan    -1.0  1.0   -0.2717525853195118   1.0839233273386946
            tan    -1.0  -1.0  -0.2717525853195118   -1.0839233273386946
            tan    -1.0  inf   -0.0                  1.0                   S
            tan    -1.0  -inf  -0.0                  -1.0                  S
            tan    -1.0  nan   nan                   nan                   S
            tan    inf   0.0   nan                   0.0                   S
            tan    inf   -0.0  nan                   -0.0                  S
            tan    inf   1.0   nan                   nan                   S
            tan    inf   -1.0  nan                   nan                   S
            tan    inf   inf   0.0                   1.0                   S
            tan    inf   -inf  0.0                   -1.0                  S
            tan    inf   nan   nan                   nan                   S
            tan    -inf  0.0   nan                   0.0                   S
            tan    -inf  -0.0  nan                   -0.0                  S
            tan    -inf  1.0   nan                   nan                   S
            tan    -inf  -1.0  nan                   nan                   S
            tan    -inf  inf   -0.0                  1.0                   S
            tan    -inf  -inf  -0.0                  -1.0                  S
            tan    -inf  nan   nan                   nan                   S
            tan    nan   0.0   nan                   0.0                   S
            tan    nan   -0.0  nan                   -0.0                  S
            tan    nan   1.0   nan                   nan                   S
            tan    nan   -1.0  nan                   nan                   S
            tan    nan   inf   0.0                   1.0                   S
            tan    nan   -inf  0.0                   -1.0                  S
            tan    nan   nan   nan                   nan                   S
            sinh   0.0   0.0   0.0                   0.0                   S
            sinh   0.0   -0.0  0.0                   -0.0                  S
            sinh   0.0   1.0   0.0                   0.8414709848078965
            sinh   0.0   -1.0  0.0                   -0.8414709848078965
            sinh   0.0   inf   0.0                   nan                   S
            sinh   0.0   -inf  0.0                   nan                   S
            sinh   0.0   nan   0.0                   nan                   S
            sinh   -0.0  0.0   -0.0                  0.0                   S
            sinh   -0.0  -0.0  -0.0                  -0.0                  S
            sinh   -0.0  1.0   -0.0                  0.8414709848078965
            sinh   -0.0  -1.0  -0.0                  -0.8414709848078965
            sinh   -0.0  inf   -0.0                  nan                   S
            sinh   -0.0  -inf  -0.0                  nan                   S
            sinh   -0.0  nan   -0.0                  nan                   S
            sinh   1.0   0.0   1.1752011936438014    0.0
            sinh   1.0   -0.0  1.1752011936438014    -0.0
            sinh   1.0   1.0   0.6349639147847361    1.2984575814159773
            sinh   1.0   -1.0  0.6349639147847361    -1.2984575814159773
            sinh   1.0   inf   nan                   nan                   S
            sinh   1.0   -inf  nan                   nan                   S
            sinh   1.0   nan   nan                   nan                   S
            sinh   -1.0  0.0   -1.1752011936438014   0.0
            sinh   -1.0  -0.0  -1.1752011936438014   -0.0
            sinh   -1.0  1.0   -0.6349639147847361   1.2984575814159773
            sinh   -1.0  -1.0  -0.6349639147847361   -1.2984575814159773
            sinh   -1.0  inf   nan                   nan                   S
            sinh   -1.0  -inf  nan                   nan                   S
            sinh   -1.0  nan   nan                   nan                   S
            sinh   inf   0.0   inf                   0.0                   S
            sinh   inf   -0.0  inf                   -0.0                  S
            sinh   inf   1.0   inf                   inf                   S
            sinh   inf   -1.0  inf                   -inf                  S
            sinh   inf   inf   inf                   nan                   S
            sinh   inf   -inf  inf                   nan                   S
            sinh   inf   nan   inf                   nan                   S
            sinh   -inf  0.0   -inf                  0.0                   S
            sinh   -inf  -0.0  -inf                  -0.0                  S
            sinh   -inf  1.0   -inf                  inf                   S
            sinh   -inf  -1.0  -inf                  -inf                  S
            sinh   -inf  inf   inf                   nan                   S
            sinh   -inf  -inf  inf                   nan                   S
            sinh   -inf  nan   inf                   nan                   S
            sinh   nan   0.0   nan                   0.0                   S
            sinh   nan   -0.0  nan                   -0.0                  S
            sinh   nan   1.0   nan                   nan                   S
            sinh   nan   -1.0  nan                   nan                   S
            sinh   nan   inf   nan                   nan
            sinh   nan   -inf  nan                   nan
            sinh   nan   nan   nan                   nan                   S
            cosh   0.0   0.0   1.0                   0.0                   S
            cosh   0.0   -0.0  1.0                   -0.0                  S
            cosh   0.0   1.0   0.5403023058681398    0.0
            cosh   0.0   -1.0  0.5403023058681398    -0.0
            cosh   0.0   inf   nan                   0.0                   S
            cosh   0.0   -inf  nan                   0.0                   S
            cosh   0.0   nan   nan                   0.0                   S
            cosh   -0.0  0.0   1.0                   -0.0                  S
            cosh   -0.0  -0.0  1.0                   0.0                   S
            cosh   -0.0  1.0   0.5403023058681398    -0.0
            cosh   -0.0  -1.0  0.5403023058681398    0.0
            cosh   -0.0  inf   nan                   0.0                   S
            cosh   -0.0  -inf  nan                   0.0                   S
            cosh   -0.0  nan   nan                   0.0                   S
            cosh   1.0   0.0   1.5430806348152437    0.0
            cosh   1.0   -0.0  1.5430806348152437    -0.0
            cosh   1.0   1.0   0.8337300251311491    0.9888977057628651
            cosh   1.0   -1.0  0.8337300251311491    -0.9888977057628651
            cosh   1.0   inf   nan                   nan                   S
            cosh   1.0   -inf  nan                   nan                   S
            cosh   1.0   nan   nan                   nan                   S
            cosh   -1.0  0.0   1.5430806348152437    -0.0
            cosh   -1.0  -0.0  1.5430806348152437    0.0
            cosh   -1.0  1.0   0.8337300251311491    -0.9888977057628651
            cosh   -1.0  -1.0  0.8337300251311491    0.9888977057628651
            cosh   -1.0  inf   nan                   nan                   S
            cosh   -1.0  -inf  nan                   nan                   S
            cosh   -1.0  nan   nan                   nan                   S
            cosh   inf   0.0   inf                   0.0                   S
            cosh   inf   -0.0  inf                   -0.0                  S
            cosh   inf   1.0   inf                   inf                   S
            cosh   inf   -1.0  inf                   -inf                  S
            cosh   inf   inf   inf                   nan                   S
            cosh   inf   -inf  inf                   nan                   S
            cosh   inf   nan   inf                   nan                   S
            cosh   -inf  0.0   inf                   -0.0                  S
            cosh   -inf  -0.0  inf                   0.0                   S
            cosh   -inf  1.0   inf                   -inf                  S
            cosh   -inf  -1.0  inf                   inf                   S
            cosh   -inf  inf   inf                   nan                   S
            cosh   -inf  -inf  inf                   nan                   S
            cosh   -inf  nan   inf                   nan                   S
            cosh   nan   0.0   nan                   0.0                   S
            cosh   nan   -0.0  nan                   -0.0                  S
            cosh   nan   1.0   nan                   nan                   S
            cosh   nan   -1.0  nan                   nan                   S
            cosh   nan   inf   nan                   nan                   S
            cosh   nan   -inf  nan                   nan                   S
            cosh   nan   nan   nan                   nan                   S
            tanh   0.0   0.0   0.0                   0.0                   S
            tanh   0.0   -0.0  0.0                   -0.0                  S
            tanh   0.0   1.0   0.0                   1.557407724654902
            tanh   0.0   -1.0  0.0                   -1.557407724654902
            tanh   0.0   inf   0.0                   nan                   S
            tanh   0.0   -inf  0.0                   nan                   S
            tanh   0.0   nan   0.0                   nan                   S
            tanh   -0.0  0.0   -0.0                  0.0                   S
            tanh   -0.0  -0.0  -0.0                  -0.0                  S
            tanh   -0.0  1.0   -0.0                  1.557407724654902
            tanh   -0.0  -1.0  -0.0                  -1.557407724654902
            tanh   -0.0  inf   -0.0                  nan                   S
            tanh   -0.0  -inf  -0.0                  nan                   S
            tanh   -0.0  nan   -0.0                  nan                   S
            tanh   1.0   0.0   0.7615941559557649    0.0
            tanh   1.0   -0.0  0.7615941559557649    -0.0
            tanh   1.0   1.0   1.0839233273386946    0.2717525853195118
            tanh   1.0   -1.0  1.0839233273386946    -0.2717525853195118
            tanh   1.0   inf   nan                   nan                   S
            tanh   1.0   -inf  nan                   nan                   S
            tanh   1.0   nan   nan                   nan                   S
            tanh   -1.0  0.0   -0.7615941559557649   0.0
            tanh   -1.0  -0.0  -0.7615941559557649   -0.0
            tanh   -1.0  1.0   -1.0839233273386946   0.2717525853195118
            tanh   -1.0  -1.0  -1.0839233273386946   -0.2717525853195118
            tanh   -1.0  inf   nan                   nan                   S
            tanh   -1.0  -inf  nan                   nan                   S
            tanh   -1.0  nan   nan                   nan                   S
            tanh   inf   0.0   1.0                   0.0
            tanh   inf   -0.0  1.0                   -0.0
            tanh   inf   1.0   1.0                   0.0                   S
            tanh   inf   -1.0  1.0                   -0.0                  S
            tanh   inf   inf   1.0                   0.0                   S
            tanh   inf   -inf  1.0                   -0.0                  S
            tanh   inf   nan   1.0                   0.0                   S
            tanh   -inf  0.0   -1.0                  0.0
            tanh   -inf  -0.0  -1.0                  -0.0
            tanh   -inf  1.0   -1.0                  0.0                   S
            tanh   -inf  -1.0  -1.0                  -0.0                  S
            tanh   -inf  inf   -1.0                  0.0                   S
            tanh   -inf  -inf  -1.0                  -0.0                  S
            tanh   -inf  nan   -1.0                  0.0                   S
            tanh   nan   0.0   nan                   0.0                   S
            tanh   nan   -0.0  nan                   -0.0                  S
            tanh   nan   1.0   nan                   nan                   S
            tanh   nan   -1.0  nan                   nan                   S
            tanh   nan   inf   nan                   nan                   S
            tanh   nan   -inf  nan                   nan                   S
            tanh   nan   nan   nan                   nan                   S
            asin   0.0   0.0   0.0                   0.0                   S
            asin   0.0   -0.0  0.0                   -0.0                  S
            asin   0.0   1.0   0.0                   0.8813735870195429
            asin   0.0   -1.0  0.0                   -0.8813735870195429
            asin   0.0   inf   0.0                   inf
            asin   0.0   -inf  0.0                   -inf
            asin   0.0   nan   0.0                   nan                   S
            asin   -0.0  0.0   -0.0                  0.0                   S
            asin   -0.0  -0.0  -0.0                  -0.0                  S
            asin   -0.0  1.0   -0.0                  0.8813735870195429
            asin   -0.0  -1.0  -0.0                  -0.8813735870195429
            asin   -0.0  inf   -0.0                  inf
            asin   -0.0  -inf  -0.0                  -inf
            asin   -0.0  nan   -0.0                  nan                   S
            asin   1.0   0.0   1.5707963267948966    0.0
            asin   1.0   -0.0  1.5707963267948966    -0.0
            asin   1.0   1.0   0.6662394324925153    1.0612750619050357
            asin   1.0   -1.0  0.6662394324925153    -1.0612750619050357
            asin   1.0   inf   0.0                   inf                   S
            asin   1.0   -inf  0.0                   -inf                  S
            asin   1.0   nan   nan                   nan                   S
            asin   -1.0  0.0   -1.5707963267948966   0.0
            asin   -1.0  -0.0  -1.5707963267948966   -0.0
            asin   -1.0  1.0   -0.6662394324925153   1.0612750619050357
            asin   -1.0  -1.0  -0.6662394324925153   -1.0612750619050357
            asin   -1.0  inf   -0.0                  inf                   S
            asin   -1.0  -inf  -0.0                  -inf                  S
            asin   -1.0  nan   nan                   nan                   S
            asin   inf   0.0   1.5707963267948966    inf
            asin   inf   -0.0  1.5707963267948966    -inf
            asin   inf   1.0   1.5707963267948966    inf                   S
            asin   inf   -1.0  1.5707963267948966    -inf                  S
            asin   inf   inf   0.7853981633974483    inf                   S
            asin   inf   -inf  0.7853981633974483    -inf                  S
            asin   inf   nan   nan                   inf                   S
            asin   -inf  0.0   -1.5707963267948966   inf
            asin   -inf  -0.0  -1.5707963267948966   -inf
            asin   -inf  1.0   -1.5707963267948966   inf                   S
            asin   -inf  -1.0  -1.5707963267948966   -inf                  S
            asin   -inf  inf   -0.7853981633974483   inf                   S
            asin   -inf  -inf  -0.7853981633974483   -inf                  S
            asin   -inf  nan   nan                   inf                   S
            asin   nan   0.0   nan                   nan                   S
            asin   nan   -0.0  nan                   nan                   S
            asin   nan   1.0   nan                   nan                   S
            asin   nan   -1.0  nan                   nan                   S
            asin   nan   inf   nan                   inf
            asin   nan   -inf  nan                   -inf
            asin   nan   nan   nan                   nan                   S
            acos   0.0   0.0   1.5707963267948966    -0.0                  S
            acos   0.0   -0.0  1.5707963267948966    0.0                   S
            acos   0.0   1.0   1.5707963267948966    -0.8813735870195429
            acos   0.0   -1.0  1.5707963267948966    0.8813735870195429
            acos   0.0   inf   1.5707963267948966    -inf                  S
            acos   0.0   -inf  1.5707963267948966    inf                   S
            acos   0.0   nan   1.5707963267948966    nan                   S
            acos   -0.0  0.0   1.5707963267948966    -0.0                  S
            acos   -0.0  -0.0  1.5707963267948966    0.0                   S
            acos   -0.0  1.0   1.5707963267948966    -0.8813735870195429
            acos   -0.0  -1.0  1.5707963267948966    0.8813735870195429
            acos   -0.0  inf   1.5707963267948966    -inf                  S
            acos   -0.0  -inf  1.5707963267948966    inf                   S
            acos   -0.0  nan   1.5707963267948966    nan                   S
            acos   1.0   0.0   0.0                   -0.0
            acos   1.0   -0.0  0.0                   0.0
            acos   1.0   1.0   0.9045568943023813    -1.0612750619050357
            acos   1.0   -1.0  0.9045568943023813    1.0612750619050357
            acos   1.0   inf   1.5707963267948966    -inf                  S
            acos   1.0   -inf  1.5707963267948966    inf                   S
            acos   1.0   nan   nan                   nan                   S
            acos   -1.0  0.0   3.141592653589793     -0.0
            acos   -1.0  -0.0  3.141592653589793     0.0
            acos   -1.0  1.0   2.2370357592874117    -1.0612750619050357
            acos   -1.0  -1.0  2.2370357592874117    1.0612750619050357
            acos   -1.0  inf   1.5707963267948966    -inf                  S
            acos   -1.0  -inf  1.5707963267948966    inf                   S
            acos   -1.0  nan   nan                   nan                   S
            acos   inf   0.0   0.0                   -inf
            acos   inf   -0.0  0.0                   inf
            acos   inf   1.0   0.0                   -inf                  S
            acos   inf   -1.0  0.0                   inf                   S
            acos   inf   inf   0.7853981633974483    -inf                  S
            acos   inf   -inf  0.7853981633974483    inf                   S
            acos   inf   nan   nan                   -inf                  S
            acos   -inf  0.0   3.141592653589793     -inf
            acos   -inf  -0.0  3.141592653589793     inf
            acos   -inf  1.0   3.141592653589793     -inf                  S
            acos   -inf  -1.0  3.141592653589793     inf                   S
            acos   -inf  inf   2.356194490192345     -inf                  S
            acos   -inf  -inf  2.356194490192345     inf                   S
            acos   -inf  nan   nan                   -inf                  S
            acos   nan   0.0   nan                   nan                   S
            acos   nan   -0.0  nan                   nan                   S
            acos   nan   1.0   nan                   nan                   S
            acos   nan   -1.0  nan                   nan                   S
            acos   nan   inf   nan                   -inf                  S
            acos   nan   -inf  nan                   inf                   S
            acos   nan   nan   nan                   nan                   S
            atan   0.0   0.0   0.0                   0.0                   S
            atan   0.0   -0.0  0.0                   -0.0                  S
            atan   0.0   1.0   0.0                   inf                   S
            atan   0.0   -1.0  0.0                   -inf                  S
            atan   0.0   inf   1.5707963267948966    0.0
            atan   0.0   -inf  1.5707963267948966    -0.0
            atan   0.0   nan   nan                   nan                   S
            atan   -0.0  0.0   -0.0                  0.0                   S
            atan   -0.0  -0.0  -0.0                  -0.0                  S
            atan   -0.0  1.0   -0.0                  inf                   S
            atan   -0.0  -1.0  -0.0                  -inf                  S
            atan   -0.0  inf   -1.5707963267948966   0.0
            atan   -0.0  -inf  -1.5707963267948966   -0.0
            atan   -0.0  nan   nan                   nan                   S
            atan   1.0   0.0   0.7853981633974483    0.0
            atan   1.0   -0.0  0.7853981633974483    -0.0
            atan   1.0   1.0   1.0172219678978514    0.40235947810852507
            atan   1.0   -1.0  1.0172219678978514    -0.40235947810852507
            atan   1.0   inf   1.5707963267948966    0.0                   S
            atan   1.0   -inf  1.5707963267948966    -0.0                  S
            atan   1.0   nan   nan                   nan                   S
            atan   -1.0  0.0   -0.7853981633974483   0.0
            atan   -1.0  -0.0  -0.7853981633974483   -0.0
            atan   -1.0  1.0   -1.0172219678978514   0.40235947810852507
            atan   -1.0  -1.0  -1.0172219678978514   -0.40235947810852507
            atan   -1.0  inf   -1.5707963267948966   0.0                   S
            atan   -1.0  -inf  -1.5707963267948966   -0.0                  S
            atan   -1.0  nan   nan                   nan                   S
            atan   inf   0.0   1.5707963267948966    0.0
            atan   inf   -0.0  1.5707963267948966    -0.0
            atan   inf   1.0   1.5707963267948966    0.0                   S
            atan   inf   -1.0  1.5707963267948966    -0.0                  S
            atan   inf   inf   1.5707963267948966    0.0                   S
            atan   inf   -inf  1.5707963267948966    -0.0                  S
            atan   inf   nan   1.5707963267948966    0.0                   S
            atan   -inf  0.0   -1.5707963267948966   0.0
            atan   -inf  -0.0  -1.5707963267948966   -0.0
            atan   -inf  1.0   -1.5707963267948966   0.0                   S
            atan   -inf  -1.0  -1.5707963267948966   -0.0                  S
            atan   -inf  inf   -1.5707963267948966   0.0                   S
            atan   -inf  -inf  -1.5707963267948966   -0.0                  S
            atan   -inf  nan   -1.5707963267948966   0.0                   S
            atan   nan   0.0   nan                   0.0                   S
            atan   nan   -0.0  nan                   -0.0                  S
            atan   nan   1.0   nan                   nan                   S
            atan   nan   -1.0  nan                   nan                   S
            atan   nan   inf   nan                   0.0                   S
            atan   nan   -inf  nan                   -0.0                  S
            atan   nan   nan   nan                   nan                   S
            asinh  0.0   0.0   0.0                   0.0                   S
            asinh  0.0   -0.0  0.0                   -0.0                  S
            asinh  0.0   1.0   0.0                   1.5707963267948966
            asinh  0.0   -1.0  0.0                   -1.5707963267948966
            asinh  0.0   inf   inf                   1.5707963267948966
            asinh  0.0   -inf  inf                   -1.5707963267948966
            asinh  0.0   nan   nan                   nan                   S
            asinh  -0.0  0.0   -0.0                  0.0                   S
            asinh  -0.0  -0.0  -0.0                  -0.0                  S
            asinh  -0.0  1.0   -0.0                  1.5707963267948966
            asinh  -0.0  -1.0  -0.0                  -1.5707963267948966
            asinh  -0.0  inf   -inf                  1.5707963267948966
            asinh  -0.0  -inf  -inf                  -1.5707963267948966
            asinh  -0.0  nan   nan                   nan                   S
            asinh  1.0   0.0   0.8813735870195429    0.0
            asinh  1.0   -0.0  0.8813735870195429    -0.0
            asinh  1.0   1.0   1.0612750619050357    0.6662394324925153
            asinh  1.0   -1.0  1.0612750619050357    -0.6662394324925153
            asinh  1.0   inf   inf                   1.5707963267948966    S
            asinh  1.0   -inf  inf                   -1.5707963267948966   S
            asinh  1.0   nan   nan                   nan                   S
            asinh  -1.0  0.0   -0.8813735870195429   0.0
            asinh  -1.0  -0.0  -0.8813735870195429   -0.0
            asinh  -1.0  1.0   -1.0612750619050357   0.6662394324925153
            asinh  -1.0  -1.0  -1.0612750619050357   -0.6662394324925153
            asinh  -1.0  inf   -inf                  1.5707963267948966    S
            asinh  -1.0  -inf  -inf                  -1.5707963267948966   S
            asinh  -1.0  nan   nan                   nan                   S
            asinh  inf   0.0   inf                   0.0
            asinh  inf   -0.0  inf                   -0.0
            asinh  inf   1.0   inf                   0.0                   S
            asinh  inf   -1.0  inf                   -0.0                  S
            asinh  inf   inf   inf                   0.7853981633974483    S
            asinh  inf   -inf  inf                   -0.7853981633974483   S
            asinh  inf   nan   inf                   nan
            asinh  -inf  0.0   -inf                  0.0
            asinh  -inf  -0.0  -inf                  -0.0
            asinh  -inf  1.0   -inf                  0.0                   S
            asinh  -inf  -1.0  -inf                  -0.0                  S
            asinh  -inf  inf   -inf                  0.7853981633974483    S
            asinh  -inf  -inf  -inf                  -0.7853981633974483   S
            asinh  -inf  nan   -inf                  nan
            asinh  nan   0.0   nan                   0.0                   S
            asinh  nan   -0.0  nan                   -0.0                  S
            asinh  nan   1.0   nan                   nan                   S
            asinh  nan   -1.0  nan                   nan                   S
            asinh  nan   inf   inf                   nan                   S
            asinh  nan   -inf  inf                   nan                   S
            asinh  nan   nan   nan                   nan                   S
            acosh  0.0   0.0   0.0                   1.5707963267948966    S
            acosh  0.0   -0.0  0.0                   -1.5707963267948966   S
            acosh  0.0   1.0   0.8813735870195429    1.5707963267948966
            acosh  0.0   -1.0  0.8813735870195429    -1.5707963267948966
            acosh  0.0   inf   inf                   1.5707963267948966    S
            acosh  0.0   -inf  inf                   -1.5707963267948966   S
            acosh  0.0   nan   nan                   1.5707963267948966    S
            acosh  -0.0  0.0   0.0                   1.5707963267948966    S
            acosh  -0.0  -0.0  0.0                   -1.5707963267948966   S
            acosh  -0.0  1.0   0.8813735870195429    1.5707963267948966
            acosh  -0.0  -1.0  0.8813735870195429    -1.5707963267948966
            acosh  -0.0  inf   inf                   1.5707963267948966    S
            acosh  -0.0  -inf  inf                   -1.5707963267948966   S
            acosh  -0.0  nan   nan                   1.5707963267948966
            acosh  1.0   0.0   0.0                   0.0
            acosh  1.0   -0.0  0.0                   -0.0
            acosh  1.0   1.0   1.0612750619050357    0.9045568943023813
            acosh  1.0   -1.0  1.0612750619050357    -0.9045568943023813
            acosh  1.0   inf   inf                   1.5707963267948966    S
            acosh  1.0   -inf  inf                   -1.5707963267948966   S
            acosh  1.0   nan   nan                   nan                   S
            acosh  -1.0  0.0   0.0                   3.141592653589793
            acosh  -1.0  -0.0  0.0                   -3.141592653589793
            acosh  -1.0  1.0   1.0612750619050357    2.2370357592874117
            acosh  -1.0  -1.0  1.0612750619050357    -2.2370357592874117
            acosh  -1.0  inf   inf                   1.5707963267948966    S
            acosh  -1.0  -inf  inf                   -1.5707963267948966   S
            acosh  -1.0  nan   nan                   nan                   S
            acosh  inf   0.0   inf                   0.0
            acosh  inf   -0.0  inf                   -0.0
            acosh  inf   1.0   inf                   0.0                   S
            acosh  inf   -1.0  inf                   -0.0                  S
            acosh  inf   inf   inf                   0.7853981633974483    S
            acosh  inf   -inf  inf                   -0.7853981633974483   S
            acosh  inf   nan   inf                   nan                   S
            acosh  -inf  0.0   inf                   3.141592653589793
            acosh  -inf  -0.0  inf                   -3.141592653589793
            acosh  -inf  1.0   inf                   3.141592653589793     S
            acosh  -inf  -1.0  inf                   -3.141592653589793    S
            acosh  -inf  inf   inf                   2.356194490192345     S
            acosh  -inf  -inf  inf                   -2.356194490192345    S
            acosh  -inf  nan   inf                   nan                   S
            acosh  nan   0.0   nan                   nan                   S
            acosh  nan   -0.0  nan                   nan                   S
            acosh  nan   1.0   nan                   nan                   S
            acosh  nan   -1.0  nan                   nan                   S
            acosh  nan   inf   inf                   nan                   S
            acosh  nan   -inf  inf                   nan                   S
            acosh  nan   nan   nan                   nan                   S
            atanh  0.0   0.0   0.0                   0.0                   S
            atanh  0.0   -0.0  0.0                   -0.0                  S
            atanh  0.0   1.0   0.0                   0.7853981633974483
            atanh  0.0   -1.0  0.0                   -0.7853981633974483
            atanh  0.0   inf   0.0                   1.5707963267948966
            atanh  0.0   -inf  0.0                   -1.5707963267948966
            atanh  0.0   nan   0.0                   nan                   S
            atanh  -0.0  0.0   -0.0                  0.0                   S
            atanh  -0.0  -0.0  -0.0                  -0.0                  S
            atanh  -0.0  1.0   -0.0                  0.7853981633974483
            atanh  -0.0  -1.0  -0.0                  -0.7853981633974483
            atanh  -0.0  inf   -0.0                  1.5707963267948966
            atanh  -0.0  -inf  -0.0                  -1.5707963267948966
            atanh  -0.0  nan   -0.0                  nan                   S
            atanh  1.0   0.0   inf                   0.0                   S
            atanh  1.0   -0.0  inf                   -0.0                  S
            atanh  1.0   1.0   0.40235947810852507   1.0172219678978514
            atanh  1.0   -1.0  0.40235947810852507   -1.0172219678978514
            atanh  1.0   inf   0.0                   1.5707963267948966    S
            atanh  1.0   -inf  0.0                   -1.5707963267948966   S
            atanh  1.0   nan   nan                   nan                   S
            atanh  -1.0  0.0   -inf                  0.0                   S
            atanh  -1.0  -0.0  -inf                  -0.0                  S
            atanh  -1.0  1.0   -0.40235947810852507  1.0172219678978514
            atanh  -1.0  -1.0  -0.40235947810852507  -1.0172219678978514
            atanh  -1.0  inf   -0.0                  1.5707963267948966    S
            atanh  -1.0  -inf  -0.0                  -1.5707963267948966   S
            atanh  -1.0  nan   nan                   nan                   S
            atanh  inf   0.0   0.0                   1.5707963267948966
            atanh  inf   -0.0  0.0                   -1.5707963267948966
            atanh  inf   1.0   0.0                   1.5707963267948966    S
            atanh  inf   -1.0  0.0                   -1.5707963267948966   S
            atanh  inf   inf   0.0                   1.5707963267948966    S
            atanh  inf   -inf  0.0                   -1.5707963267948966   S
            atanh  inf   nan   0.0                   nan                   S
            atanh  -inf  0.0   -0.0                  1.5707963267948966
            atanh  -inf  -0.0  -0.0                  -1.5707963267948966
            atanh  -inf  1.0   -0.0                  1.5707963267948966    S
            atanh  -inf  -1.0  -0.0                  -1.5707963267948966   S
            atanh  -inf  inf   -0.0                  1.5707963267948966    S
            atanh  -inf  -inf  -0.0                  -1.5707963267948966   S
            atanh  -inf  nan   -0.0                  nan                   S
            atanh  nan   0.0   nan                   nan                   S
            atanh  nan   -0.0  nan                   nan                   S
            atanh  nan   1.0   nan                   nan                   S
            atanh  nan   -1.0  nan                   nan                   S
            atanh  nan   inf   0.0                   1.5707963267948966    S
            atanh  nan   -inf  0.0                   -1.5707963267948966   S
            atanh  nan   nan   nan                   nan                   S
            """;

    private record Row(String fn, double re, double im, double expRe, double expIm, boolean standard) {
        boolean specialInput() {
            return !Double.isFinite(re) || !Double.isFinite(im);
        }

        @Override
        public String toString() {
            return fn + "(" + re + (Math.copySign(1, im) < 0 ? " - " : " + ") + Math.abs(im) + "j)";
        }
    }

    private static double parse(String s) {
        switch (s) {
            case "inf":
                return Double.POSITIVE_INFINITY;
            case "-inf":
                return Double.NEGATIVE_INFINITY;
            case "nan":
                return Double.NaN;
            default:
                return Double.parseDouble(s);
        }
    }

    private static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (String line : TABLE.strip().split("\\n")) {
            String[] p = line.trim().split("\\s+");
            rows.add(new Row(
                    p[0], parse(p[1]), parse(p[2]), parse(p[3]), parse(p[4]), p.length > 5 && p[5].equals("S")));
        }
        return rows;
    }

    /** Null when {@code got} is {@code expected} by the rules above, else a description of the difference. */
    private static String compare(double got, double expected, boolean exact, double ulp) {
        if (Double.isNaN(expected) || Double.isNaN(got)) {
            return Double.isNaN(expected) && Double.isNaN(got) ? null : "expected " + expected + " got " + got;
        }
        if (exact || expected == 0 || Double.isInfinite(expected) || got == 0 || Double.isInfinite(got)) {
            return Double.doubleToLongBits(got) == Double.doubleToLongBits(expected)
                    ? null
                    : "expected " + expected + " got " + got;
        }
        return Math.abs(got - expected) <= 4 * ulp ? null : "expected " + expected + " got " + got;
    }

    @Test
    void complex128GridMatchesTheStandardAndNumpy() {
        List<Row> rows = rows();
        assertThat(rows).hasSize(15 * 7 * 7);
        assertThat(rows.stream().filter(Row::standard).count()).isEqualTo(498);
        double[] z = new double[2 * 49];
        List<String> failures = new ArrayList<>();
        for (int f = 0; f < 15; f++) {
            List<Row> block = rows.subList(49 * f, 49 * (f + 1));
            for (int k = 0; k < 49; k++) {
                z[2 * k] = block.get(k).re();
                z[2 * k + 1] = block.get(k).im();
            }
            UnaryFunction fn = FUNCTIONS.get(block.get(0).fn());
            double[] out = Elementwise.unary(fn, Chunk.wrap(DType.COMPLEX128, new int[] {49}, z.clone()))
                    .doubles();
            for (int k = 0; k < 49; k++) {
                Row r = block.get(k);
                String re = compare(out[2 * k], r.expRe(), r.specialInput(), Math.ulp(r.expRe()));
                String im = compare(out[2 * k + 1], r.expIm(), r.specialInput(), Math.ulp(r.expIm()));
                if (re != null || im != null) {
                    failures.add(r + (r.standard() ? " [standard]" : " [NumPy]") + ": real " + (re == null ? "ok" : re)
                            + ", imaginary " + (im == null ? "ok" : im));
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void complex64SpecialInputsGiveTheSameValuesRounded() {
        List<String> failures = new ArrayList<>();
        for (Row r : rows()) {
            if (!r.specialInput()) {
                continue;
            }
            Chunk x = Chunk.wrap(DType.COMPLEX64, new int[] {1}, new float[] {(float) r.re(), (float) r.im()});
            float[] out = Elementwise.unary(FUNCTIONS.get(r.fn()), x).floats();
            String re = compare(out[0], (float) r.expRe(), true, 0);
            String im = compare(out[1], (float) r.expIm(), true, 0);
            if (re != null || im != null) {
                failures.add("complex64 " + r + ": real " + (re == null ? "ok" : re) + ", imaginary "
                        + (im == null ? "ok" : im));
            }
        }
        assertThat(failures).isEmpty();
    }

    /** The audit's examples, spelled out. */
    @Test
    void auditedCases() {
        double inf = Double.POSITIVE_INFINITY;
        assertThat(one(UnaryFunction.ACOS, 0, inf)).containsExactly(Math.PI / 2, -inf);
        assertThat(one(UnaryFunction.ASINH, 0, inf)).containsExactly(inf, Math.PI / 2);
        assertThat(one(UnaryFunction.ATANH, 0, inf)).containsExactly(0.0, Math.PI / 2);
        double[] t = one(UnaryFunction.TANH, 0, inf);
        assertThat(Double.doubleToRawLongBits(t[0])).isZero(); // +0 + NaN j
        assertThat(t[1]).isNaN();
        assertThat(one(UnaryFunction.ACOSH, -inf, inf)).containsExactly(inf, 3 * Math.PI / 4);
        assertThat(one(UnaryFunction.ATAN, inf, inf)).containsExactly(Math.PI / 2, 0.0);
    }

    /**
     * cosh of a real part whose sinh overflows, with a zero imaginary part: inf ± 0j (the imaginary part sinh(x)·0 was
     * inf·0 = NaN); cos through cosh. Expected values: NumPy 1.24's.
     */
    @Test
    void coshWhoseSinhOverflowsKeepsTheZero() {
        double inf = Double.POSITIVE_INFINITY;
        double[][] cases = { // re, im, expected re, expected im
            {1e300, 0.0, inf, 0.0},
            {1e300, -0.0, inf, -0.0},
            {-1e300, 0.0, inf, -0.0},
            {-1e300, -0.0, inf, 0.0},
            {800, 0.0, inf, 0.0},
            {-800, -0.0, inf, 0.0}
        };
        for (double[] c : cases) {
            assertThat(one(UnaryFunction.COSH, c[0], c[1]))
                    .as("cosh(%s + %sj)", c[0], c[1])
                    .containsExactly(c[2], c[3]);
        }
        assertThat(one(UnaryFunction.COS, 0.0, 1e300)).containsExactly(inf, -0.0);
        assertThat(one(UnaryFunction.COS, -0.0, 1e300)).containsExactly(inf, 0.0);
        assertThat(one(UnaryFunction.COS, 0.0, -1e300)).containsExactly(inf, 0.0);
    }

    private static double[] one(UnaryFunction f, double re, double im) {
        return Elementwise.unary(f, Chunk.wrap(DType.COMPLEX128, new int[] {1}, new double[] {re, im}))
                .doubles();
    }
}
