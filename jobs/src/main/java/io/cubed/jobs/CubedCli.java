package io.cubed.jobs;

import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code cubed} command line: one entry point with a subcommand per job; {@code -h}/{@code --help} and {@code
 * -V}/{@code --version} on every subcommand.
 */
@Command(
        name = "cubed",
        mixinStandardHelpOptions = true,
        scope = CommandLine.ScopeType.INHERIT,
        version = "cubed 0.1.0-SNAPSHOT",
        description = "Bounded-memory processing of Zarr arrays.")
public final class CubedCli implements Runnable {
    /**
     * The subcommands, in the order the usage lists them. Only the one named on the command line is built: picocli
     * reads every option of a command by reflection, and building all of them took 0.1-0.3 s of a fresh JVM's start
     * (docs/cloud.md); all are built for the top-level usage and for a name that is none of them.
     */
    private static final Map<String, java.util.function.Supplier<Object>> SUBCOMMANDS = subcommands();

    private static Map<String, java.util.function.Supplier<Object>> subcommands() {
        Map<String, java.util.function.Supplier<Object>> m = new java.util.LinkedHashMap<>();
        m.put("info", InfoCommand::new);
        m.put("copy", CopyCommand::new);
        m.put("rechunk", RechunkCommand::new);
        m.put("demo", DemoCommand::new);
        m.put("quadratic-means", QuadraticMeansCommand::new);
        m.put("resume", ResumeCommand::new);
        m.put("clean", CleanCommand::new);
        m.put("bench", io.cubed.jobs.bench.BenchCommand::new);
        m.put("sql", io.cubed.jobs.sql.SqlCommand::new);
        m.put("sql-bench", io.cubed.jobs.bench.SqlBenchCommand::new);
        return java.util.Collections.unmodifiableMap(m);
    }

    /** The names of the subcommands, in the usage's order. */
    static java.util.Set<String> subcommandNames() {
        return SUBCOMMANDS.keySet();
    }

    /**
     * The command line for {@code args}: the root with the subcommand the first argument names, or with all of them
     * when it names none (the usage, an unknown command).
     */
    static CommandLine commandLine(String... args) {
        CommandLine cl = new CommandLine(new CubedCli());
        java.util.function.Supplier<Object> named = args.length == 0 ? null : SUBCOMMANDS.get(args[0]);
        if (named != null) {
            cl.addSubcommand(args[0], named.get());
        } else {
            SUBCOMMANDS.forEach((name, command) -> cl.addSubcommand(name, command.get()));
        }
        return cl;
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Options shared by the subcommands that open stores. */
    static final class StoreArgs {
        @Option(
                names = "--conf",
                paramLabel = "KEY=VALUE",
                description = "Store option, e.g. a Hadoop setting such as fs.s3a.endpoint=http://host:9000 "
                        + "(repeatable).")
        Map<String, String> conf = new TreeMap<>();

        @Option(
                names = "--request-stats",
                paramLabel = "FILE",
                description = "When the command ends, write the S3 requests it made through Cubed's client to FILE as"
                        + " JSON: the number of each operation (GET, PUT, HEAD, LIST, ...) and the most and the mean"
                        + " in flight at once. Those of this JVM: on Spark, the driver's and local[N] tasks'; S3A's"
                        + " (cubed.store.s3.client=hadoop) are not counted.")
        java.nio.file.Path requestStats;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Runs the command line and returns its exit code (0 success, 1 failure, 2 usage error). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = commandLine(args);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler(CubedCli::handle);
        cl.setParameterExceptionHandler(CubedCli::usageError);
        cl.setExecutionStrategy(RequestStatsFile::execute);
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /**
     * Prints a Cubed error as one line and gives its exit code: 2 for input refused before anything was read, deleted
     * or written ({@link InvalidArgumentException}, as picocli's usage errors, and a plan refused for its memory), 1 for
     * a failure while running; other
     * exceptions (bugs) propagate with their stack trace.
     */
    public static int handle(Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult)
            throws Exception {
        if (e instanceof io.cubed.error.MemoryBudgetExceededException) {
            // Refused at plan time, before any task: a usage error, as the copy's own budget check is.
            commandLine.getErr().println("cubed: " + e.getMessage() + " (allowedMem is --allowed-mem here)");
            return 2;
        }
        if (e instanceof CubedException) {
            commandLine.getErr().println("cubed: " + e.getMessage());
            return e instanceof InvalidArgumentException ? 2 : 1;
        }
        throw e;
    }

    /**
     * Prints a usage error (an unknown option, a missing or unparsable value) as one line in the command line's words,
     * and where to find the usage, instead of the whole usage text; exit code 2.
     */
    public static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        String message = String.valueOf(e.getMessage())
                // A whole number picocli could not hold: out of range, not malformed.
                .replaceAll("'(-?[0-9]+)' is not an int", "'$1' is out of range (at most " + Integer.MAX_VALUE + ")")
                .replaceAll("'(-?[0-9]+)' is not a long", "'$1' is out of range (at most " + Long.MAX_VALUE + ")")
                .replace("' is not an int", "' is not a whole number")
                .replace("' is not a long", "' is not a whole number")
                .replace("' is not a double", "' is not a number")
                .replace("' is not a float", "' is not a number");
        cl.getErr().println("cubed: " + message);
        cl.getErr().println("Usage: " + cl.getCommandSpec().qualifiedName() + " --help");
        return 2;
    }

    /**
     * Runs the command line; exits with the code on failure, and returns normally on success, as a Spark main class
     * must on platforms that run it in a shared driver (Databricks' spark_jar_task).
     */
    public static void main(String[] args) {
        // Run with java -jar outside Spark there is no SLF4J provider: progress then goes to standard error, so SLF4J's
        // three-line note about it is noise.
        if (System.getProperty("slf4j.internal.verbosity") == null) {
            System.setProperty("slf4j.internal.verbosity", "ERROR");
        }
        // picocli's default factory otherwise looks for Groovy's Closure class when it is first used: a lookup that
        // misses opens every jar of the class path that is not open yet (docs/cloud.md, "Start-up").
        if (System.getProperty("picocli.disable.closures") == null) {
            System.setProperty("picocli.disable.closures", "true");
        }
        int code = run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
        if (code != 0) {
            System.exit(code);
        }
    }
}
