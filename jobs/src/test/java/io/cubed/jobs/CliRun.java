package io.cubed.jobs;

import java.io.PrintWriter;
import java.io.StringWriter;

/** The exit code, standard output and standard error of one in-process run of the {@code cubed} command line. */
record CliRun(int code, String out, String err) {
    /** Runs {@code cubed args...} in this JVM and captures what it prints. */
    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = CubedCli.run(new PrintWriter(out), new PrintWriter(err), args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
