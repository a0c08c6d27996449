package io.cubed.jobs;

import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The {@code cubed} command line: one entry point with a subcommand per job. */
@Command(
        name = "cubed",
        mixinStandardHelpOptions = true,
        // Every subcommand has -h/--help too, as the usage errors say ("Usage: cubed copy --help").
        scope = CommandLine.ScopeType.INHERIT,
        version = "cubed 0.1.0-SNAPSHOT",
        description = "Bounded-memory processing of Zarr arrays.",
        subcommands = {
            InfoCommand.class,
            CopyCommand.class,
            RechunkCommand.class,
            DemoCommand.class,
            QuadraticMeansCommand.class,
            ResumeCommand.class,
            io.cubed.jobs.bench.BenchCommand.class,
            io.cubed.jobs.bench.SqlBenchCommand.class
        })
public final class CubedCli implements Runnable {
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
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Runs the command line and returns its exit code (0 success, 1 failure, 2 usage error). */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = new CommandLine(new CubedCli());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler(CubedCli::handle);
        cl.setParameterExceptionHandler(CubedCli::usageError);
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /**
     * Prints a Cubed error as one line and gives its exit code: 2 for input refused before anything was read, deleted
     * or written ({@link InvalidArgumentException}, as picocli's usage errors), 1 for a failure while running; other
     * exceptions (bugs) propagate with their stack trace.
     */
    public static int handle(Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult)
            throws Exception {
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
        int code = run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
        if (code != 0) {
            System.exit(code);
        }
    }
}
