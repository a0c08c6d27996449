package io.cubed.chunk;

import io.cubed.dtype.DType;
import io.cubed.error.InvalidArgumentException;
import java.io.Serializable;

/**
 * One reduction on chunks, split as a tree reduction needs it: an {@link #identity} state, {@link #accumulate} of an
 * input chunk into a state, {@link #combine} of two states, and {@link #aggregate} of a state into the result.
 *
 * <p>A state is one chunk per field ({@link #stateTypes}: e.g. count, mean and M2 for {@code var}), all of one shape:
 * the input chunk's shape with reduced axes of length 1 (see {@link ReduceLayout#stateShape}). States are combined
 * element by element, so any grouping of input chunks gives the same result up to floating-point rounding. Reducers
 * are immutable and serializable; tasks run them.
 */
public abstract class Reducer implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The working type of the accumulation. */
    enum Domain {
        LONG(DType.INT64),
        DOUBLE(DType.FLOAT64),
        COMPLEX(DType.COMPLEX128);

        final DType stateType;

        Domain(DType stateType) {
            this.stateType = stateType;
        }

        static Domain of(DType t) {
            if (t.isComplex()) {
                return COMPLEX;
            }
            return t.isFloating() ? DOUBLE : LONG;
        }
    }

    private final ReduceFunction function;
    private final DType inputType;
    private final DType resultType;
    private final String what;

    Reducer(ReduceFunction function, DType inputType, DType resultType, String what) {
        this.function = function;
        this.inputType = inputType;
        this.resultType = resultType;
        this.what = what;
    }

    /**
     * The reducer of {@code function} for inputs of type {@code input}, accumulating in {@code dtype} (null for the
     * standard's default; only sum and prod take one) with {@code correction} degrees of freedom removed by var and
     * std; {@code what} names the array in errors.
     *
     * @throws InvalidArgumentException when the input type, dtype or correction is not allowed
     */
    public static Reducer of(ReduceFunction function, DType input, DType dtype, double correction, String what) {
        DType rt = function.resultType(input, dtype, what);
        if (!(correction >= 0) || Double.isInfinite(correction)) {
            throw new InvalidArgumentException(function.pythonName() + " of " + what
                    + ": correction must be a finite number >= 0, got " + correction);
        }
        switch (function) {
            case SUM:
            case NANSUM:
                return new SumProdReducer(function, input, rt, what, false);
            case PROD:
            case NANPROD:
                return new SumProdReducer(function, input, rt, what, true);
            case MIN:
            case NANMIN:
                return new MinMaxReducer(function, input, what, false);
            case MAX:
            case NANMAX:
                return new MinMaxReducer(function, input, what, true);
            case MEAN:
            case NANMEAN:
                return new MeanReducer(function, input, what);
            case VAR:
            case NANVAR:
                return new VarReducer(function, input, what, correction, false);
            case STD:
            case NANSTD:
                return new VarReducer(function, input, what, correction, true);
            case ALL:
            case ANY:
            case COUNT_NONZERO:
                return new TruthReducer(function, input, what);
            default:
                return new ArgReducer(function, input, what);
        }
    }

    public ReduceFunction function() {
        return function;
    }

    /** The type of the input arrays. */
    public DType inputType() {
        return inputType;
    }

    /** The type of the result. */
    public DType resultType() {
        return resultType;
    }

    /** The name of the reduced array, for error messages. */
    String what() {
        return what;
    }

    /** True for the NaN-aware forms, which skip NaN elements. */
    boolean skipsNan() {
        return function.pythonName().startsWith("nan");
    }

    /** The types of the state's fields, in order. */
    public abstract DType[] stateTypes();

    /** A state of {@code shape} that has seen no element. */
    public final Chunk[] identity(int[] shape) {
        DType[] types = stateTypes();
        Chunk[] s = new Chunk[types.length];
        for (int i = 0; i < s.length; i++) {
            s[i] = Chunk.allocate(types[i], shape);
        }
        fillIdentity(s);
        return s;
    }

    /** Fills a zeroed state with the identity; zeros by default. */
    void fillIdentity(Chunk[] state) {}

    /** Reduces the elements of {@code x} into {@code state}, element {@code e} going where {@code layout} says. */
    public abstract void accumulate(Chunk[] state, Chunk x, ReduceLayout layout);

    /**
     * Whether {@link #accumulate} takes a chunk box by box ({@link ReduceLayout#inBox}): true for reducers whose state
     * the boxes of a chunk, in any order, bring to the same value as the whole chunk (up to floating-point rounding).
     * A reader may then hand over each decoded block while it is in the processor's cache instead of the whole chunk.
     * False by default: a new reducer takes whole chunks until it says otherwise.
     */
    public boolean acceptsBoxes() {
        return false;
    }

    /** Combines {@code other} into {@code state}, element by element; both have the same shape. */
    public abstract void combine(Chunk[] state, Chunk[] other);

    /** The result of a state: a chunk of {@link #resultType} of the state's shape. */
    public abstract Chunk aggregate(Chunk[] state);
}
