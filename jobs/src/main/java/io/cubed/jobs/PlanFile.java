package io.cubed.jobs;

import io.cubed.error.InvalidArgumentException;
import io.cubed.storage.zarr.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's plan saved as JSON ({@code --save-plan FILE}) so that a new driver process can resume it ({@code cubed resume
 * FILE}). Chunk functions are code, so the file records what rebuilds the same plan — the job, its arguments with every
 * setting resolved (memory budget, work directory, executor, store options) and the resume id — together with the plan
 * itself (its {@code explain()} lines), which the resuming run must reproduce exactly or refuse to run. Immutable.
 *
 * <pre>
 * {"format": "cubed-plan/1", "job": "rechunk", "arguments": [...], "resumeId": "rechunk-…", "plan": ["op-001 …", …]}
 * </pre>
 */
record PlanFile(String job, List<String> arguments, String resumeId, List<String> plan) {
    static final String FORMAT = "cubed-plan/1";

    PlanFile {
        arguments = List.copyOf(arguments);
        plan = List.copyOf(plan);
    }

    /** The lines of an {@code explain()} text. */
    static List<String> lines(String explain) {
        return List.of(explain.split("\n"));
    }

    /** Writes this plan to {@code file} atomically (a temporary file beside it, then a rename). */
    void write(Path file) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("format", FORMAT);
        json.put("job", job);
        json.put("arguments", new ArrayList<Object>(arguments));
        json.put("resumeId", resumeId);
        json.put("plan", new ArrayList<Object>(plan));
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, ".plan-", ".json");
            Files.writeString(tmp, Json.write(json), StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new InvalidArgumentException("cannot save the plan to " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads a plan written by {@link #write}; a missing, malformed or foreign file is a clear error. */
    static PlanFile read(Path file) {
        Object parsed;
        try {
            parsed = Json.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            String why = e instanceof java.nio.charset.CharacterCodingException
                    ? "it is not UTF-8 text (a plan file is JSON written by --save-plan)"
                    : io.cubed.storage.IoErrors.describe(e);
            throw new InvalidArgumentException("cannot read the plan file " + file + ": " + why, e);
        } catch (Json.JsonException e) {
            throw new InvalidArgumentException("the plan file " + file + " is not JSON: " + e.getMessage(), e);
        }
        if (!(parsed instanceof Map<?, ?> m) || !FORMAT.equals(m.get("format"))) {
            throw new InvalidArgumentException(
                    "the plan file " + file + " is not a Cubed plan (no \"format\": \"" + FORMAT + "\")");
        }
        return new PlanFile(
                string(m, "job", file),
                strings(m, "arguments", file),
                string(m, "resumeId", file),
                strings(m, "plan", file));
    }

    private static String string(Map<?, ?> m, String key, Path file) {
        if (!(m.get(key) instanceof String s)) {
            throw new InvalidArgumentException("the plan file " + file + " has no text \"" + key + "\"");
        }
        return s;
    }

    private static List<String> strings(Map<?, ?> m, String key, Path file) {
        if (!(m.get(key) instanceof List<?> l) || !l.stream().allMatch(String.class::isInstance)) {
            throw new InvalidArgumentException("the plan file " + file + " has no list of texts \"" + key + "\"");
        }
        List<String> out = new ArrayList<>();
        l.forEach(o -> out.add((String) o));
        return out;
    }
}
