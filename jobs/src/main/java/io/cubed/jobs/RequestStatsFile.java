package io.cubed.jobs;

import io.cubed.error.StorageException;
import io.cubed.storage.RequestStats;
import io.cubed.storage.fs.s3.S3Store;
import io.cubed.storage.zarr.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code --request-stats FILE} of the commands that open stores: the S3 requests the command made through Cubed's
 * client in this JVM ({@link S3Store#requestStatsOfThisJvm}), written to FILE when it ends, whether it succeeded or
 * failed, as one JSON object: {@code {"client": "cubed", "requests": 19, "counts": {"GET": 19}, "maxInFlight": 27,
 * "meanInFlight": 6.812, "busyMs": 321.5}} — requests by operation ({@code GET}, {@code PUT}, {@code HEAD}, {@code
 * LIST}, {@code DELETE}, {@code DELETE_OBJECTS}), the most in flight at once, and the mean in flight over the busy
 * time (milliseconds during which at least one was).
 */
final class RequestStatsFile {
    private RequestStatsFile() {}

    /** Runs the command of {@code parseResult} as picocli does, and writes its requests where it was asked to. */
    static int execute(ParseResult parseResult) {
        Path file = requested(parseResult);
        CommandLine.IExecutionStrategy run = new CommandLine.RunLast();
        if (file == null) {
            return run.execute(parseResult);
        }
        RequestStats jvm = S3Store.requestStatsOfThisJvm();
        jvm.resetMax();
        RequestStats.Snapshot before = jvm.snapshot();
        int code;
        try {
            code = run.execute(parseResult);
        } catch (RuntimeException e) {
            try {
                write(file, jvm.snapshot().minus(before));
            } catch (IOException w) {
                parseResult.commandSpec().commandLine().getErr().println("cubed: " + cannotWrite(file, w));
            }
            throw e;
        }
        try {
            write(file, jvm.snapshot().minus(before));
        } catch (IOException e) {
            throw new CommandLine.ExecutionException(
                    parseResult.commandSpec().commandLine(),
                    cannotWrite(file, e),
                    new StorageException(cannotWrite(file, e), e));
        }
        return code;
    }

    private static String cannotWrite(Path file, IOException e) {
        return "cannot write --request-stats " + file + ": " + e;
    }

    /** The file of {@code --request-stats} of the command that runs (the last subcommand), or null. */
    static Path requested(ParseResult parseResult) {
        ParseResult last = parseResult;
        while (last.hasSubcommand()) {
            last = last.subcommand();
        }
        for (CommandSpec mixin : last.commandSpec().mixins().values()) {
            if (mixin.userObject() instanceof CubedCli.StoreArgs store) {
                return store.requestStats;
            }
        }
        return null;
    }

    /** The JSON object of {@code requests}: its counts, the most and the mean in flight, the busy milliseconds. */
    static String json(RequestStats.Snapshot requests) {
        Map<String, Object> o = new TreeMap<>();
        o.put("client", "cubed");
        o.put("requests", requests.total());
        o.put("counts", new TreeMap<>(requests.counts()));
        o.put("maxInFlight", (long) requests.maxInFlight());
        o.put("meanInFlight", Math.round(requests.meanInFlight() * 1000) / 1000.0);
        o.put("busyMs", Math.round(requests.busyNanos() / 1e3) / 1000.0);
        return Json.write(o);
    }

    private static void write(Path file, RequestStats.Snapshot requests) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, json(requests), StandardCharsets.UTF_8);
    }
}
