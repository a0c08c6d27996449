package io.cubed.storage.fs;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * {@link S3TestServer} as a program, for benchmarks that run it in a process of their own: it prints {@code PORT n}
 * once it serves, then reads commands, one per line, and answers each with one line: {@code stats} prints {@link
 * S3ServerStats#toJson}, {@code reset} resets the counters and {@code latency N} sets the delay to {@code N} ms (both
 * print {@code OK}), {@code stop} (or the end of the input) stops the server and ends the program with status 0. An
 * unknown command prints {@code ERROR} and a reason; bad arguments end the program with status 2.
 */
final class S3TestServerMain {
    private static final String USAGE = "usage: S3TestServer [--bucket B] [--latency-ms N] [--anonymous-reads]"
            + " [--port P] [--access-key A] [--secret-key S] [--dir D]";

    private S3TestServerMain() {}

    /** Runs the program with arguments {@code args}, commands from {@code in} and answers to {@code out}. */
    static int run(String[] args, InputStream in, PrintStream out) throws Exception {
        S3TestServer.Builder builder = S3TestServer.builder();
        try {
            parse(args, builder);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            return 2;
        }
        try (S3TestServer server = builder.start()) {
            answer(out, "PORT " + server.port());
            BufferedReader commands = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = commands.readLine(); line != null; line = commands.readLine()) {
                String[] words = line.trim().split("\\s+");
                switch (words[0].toLowerCase(Locale.ROOT)) {
                    case "" -> {}
                    case "stats" -> answer(out, server.stats().toJson(server.latencyMillis()));
                    case "reset" -> {
                        server.resetStats();
                        answer(out, "OK");
                    }
                    case "latency" -> answer(out, setLatency(server, words));
                    case "stop" -> {
                        return 0;
                    }
                    default -> answer(out, "ERROR unknown command: " + line.trim());
                }
            }
            return 0;
        }
    }

    private static String setLatency(S3TestServer server, String[] words) {
        try {
            if (words.length != 2) {
                throw new IllegalArgumentException("latency takes one number of milliseconds");
            }
            server.setLatencyMillis(Integer.parseInt(words[1]));
            return "OK";
        } catch (IllegalArgumentException e) {
            return "ERROR " + e.getMessage();
        }
    }

    private static void answer(PrintStream out, String line) {
        out.println(line);
        out.flush();
    }

    private static void parse(String[] args, S3TestServer.Builder builder) {
        String access = S3TestServer.ACCESS_KEY;
        String secret = S3TestServer.SECRET_KEY;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--bucket" -> builder.bucket(value(args, ++i));
                case "--latency-ms" -> builder.latencyMillis(number(args, ++i));
                case "--anonymous-reads" -> builder.anonymousReads(true);
                case "--port" -> builder.port(number(args, ++i));
                case "--dir" -> builder.directory(java.nio.file.Path.of(value(args, ++i)));
                case "--access-key" -> access = value(args, ++i);
                case "--secret-key" -> secret = value(args, ++i);
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
            }
        }
        builder.credentials(access, secret);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static int number(String[] args, int i) {
        String v = value(args, i);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(args[i - 1] + " needs a whole number, not " + v, e);
        }
    }
}
