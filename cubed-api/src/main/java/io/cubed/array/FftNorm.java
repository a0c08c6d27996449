package io.cubed.array;

import io.cubed.error.InvalidArgumentException;
import java.util.Locale;

/**
 * Where the {@code 1/n} of a Fourier transform pair goes ({@code norm} of the standard's {@code fft} functions): on the
 * inverse ({@code "backward"}, the default), split as {@code 1/√n} on both ({@code "ortho"}), or on the forward
 * transform ({@code "forward"}). For an n-d transform, n is the product of the transformed lengths.
 */
public enum FftNorm {
    /** Forward unscaled, inverse scaled by {@code 1/n} ({@code norm="backward"}). */
    BACKWARD,
    /** Both scaled by {@code 1/√n}, so the transforms are unitary ({@code norm="ortho"}). */
    ORTHO,
    /** Forward scaled by {@code 1/n}, inverse unscaled ({@code norm="forward"}). */
    FORWARD;

    /** The norm named as in Python: {@code "backward"}, {@code "ortho"} or {@code "forward"}. */
    public static FftNorm fromName(String name) {
        for (FftNorm n : values()) {
            if (n.pythonName().equals(name)) {
                return n;
            }
        }
        throw new InvalidArgumentException(
                "fft: norm must be \"backward\", \"ortho\" or \"forward\", got \"" + name + "\"");
    }

    /** The Python name of this norm. */
    public String pythonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The factor of a transform of length {@code n} in the forward ({@code forward}) or the inverse direction. */
    double scale(long n, boolean forward) {
        return switch (this) {
            case BACKWARD -> forward ? 1 : 1.0 / n;
            case ORTHO -> 1 / Math.sqrt(n);
            case FORWARD -> forward ? 1.0 / n : 1;
        };
    }

    /** The norm that puts the factor on the other side: {@code hfft} and {@code ihfft} run the opposite kernel. */
    FftNorm swapped() {
        return switch (this) {
            case BACKWARD -> FORWARD;
            case ORTHO -> ORTHO;
            case FORWARD -> BACKWARD;
        };
    }
}
