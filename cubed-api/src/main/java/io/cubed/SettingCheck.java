package io.cubed;

import static io.cubed.SpecConfig.ALLOWED_MEM;
import static io.cubed.SpecConfig.EXECUTOR;

import io.cubed.SpecConfig.Key;
import io.cubed.SpecConfig.Kind;
import io.cubed.SpecConfig.Source;
import io.cubed.SpecConfig.Value;
import io.cubed.error.InvalidArgumentException;
import io.cubed.memory.MemorySize;
import java.util.Locale;

/** Checks a setting's value against its {@link Kind}; the error names the key, where it was set and the value. */
final class SettingCheck {
    private SettingCheck() {}

    /** The value checked against the key's kind; the error names the key, where it was set and the value. */
    static Value check(Key k, String value, Source source, String origin) {
        String problem = null;
        String normal = value;
        switch (k.kind()) {
            case STRING:
                if (value.isBlank()) {
                    problem = "must not be empty";
                }
                break;
            case MEMORY:
                try {
                    MemorySize size = MemorySize.parse(value);
                    if (size.bytes() <= 0 && k.name().equals(ALLOWED_MEM)) {
                        problem = "must be positive";
                    }
                } catch (RuntimeException e) {
                    problem = "is not a memory size such as 2GB or 512MB (" + e.getMessage() + ")";
                }
                break;
            case EXECUTOR:
                normal = value.toLowerCase(Locale.ROOT);
                if (!normal.equals("local") && !normal.equals("spark")) {
                    problem = "must be local or spark";
                }
                break;
            case POSITIVE_INT:
            case NON_NEGATIVE_INT:
                try {
                    int n = Integer.parseInt(value);
                    int min = k.kind() == Kind.POSITIVE_INT ? 1 : 0;
                    if (n < min) {
                        problem = "must be at least " + min;
                    }
                } catch (NumberFormatException e) {
                    problem = "is not an integer";
                }
                break;
            case BOOLEAN:
                normal = value.toLowerCase(Locale.ROOT);
                if (!normal.equals("true") && !normal.equals("false")) {
                    problem = "must be true or false";
                }
                break;
            case CONCURRENCY:
                normal = value.trim().toLowerCase(Locale.ROOT);
                if (!normal.equals("auto")) {
                    try {
                        if (Integer.parseInt(normal) < 1) {
                            problem = "must be auto or at least 1";
                        }
                    } catch (NumberFormatException e) {
                        problem = "is not auto or a number of requests";
                    }
                }
                break;
            case CODEC:
                normal = value.trim().toLowerCase(Locale.ROOT);
                if (!normal.equals("auto")) {
                    try {
                        io.cubed.storage.zarr.Compressor.parseSpec(normal);
                    } catch (InvalidArgumentException e) {
                        problem = "is not auto or a codec spec (" + e.getMessage() + ")";
                    }
                }
                break;
        }
        if (problem != null) {
            throw new InvalidArgumentException(
                    "setting " + k.name() + " from " + origin + ": '" + value + "' " + problem);
        }
        return new Value(normal, source, origin);
    }
}
