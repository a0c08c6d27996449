package io.cubed.jobs.sql;

import io.cubed.error.CubedException;
import io.cubed.error.InvalidArgumentException;
import java.util.Set;
import org.apache.spark.sql.AnalysisException;

/**
 * Spark's errors as one line of the command line: a query Spark cannot analyse (syntax, an unknown table or column)
 * is refused input, exit code 2; a failure while the query runs is exit code 1, with the Cubed error behind it when
 * there is one (a corrupt chunk, say), else the deepest cause's first line.
 */
final class SqlErrors {
    private SqlErrors() {}

    /** A query Spark refused before running it. */
    static InvalidArgumentException analysis(AnalysisException e, Set<String> tables) {
        if ("TABLE_OR_VIEW_NOT_FOUND".equals(e.getErrorClass())) {
            String name = e.getMessageParameters().getOrDefault("relationName", "?");
            String given = tables.isEmpty() ? "no --table is given" : "the tables are " + String.join(", ", tables);
            String bare = name.replace("`", "");
            return new InvalidArgumentException(
                    "sql: the query reads the table " + name + ", but " + given + "; add --table " + bare + "=PATH", e);
        }
        return new InvalidArgumentException("sql: " + oneLine(e.getMessage()), e);
    }

    /** A failure while the query ran or its result was written. */
    static CubedException failure(Throwable e) {
        boolean inAJob = false;
        for (Throwable t = e; t != null; t = t.getCause()) {
            inAJob |= t instanceof org.apache.spark.SparkException;
            if (t instanceof CubedException c) {
                // Found by a task of a running job (rows a Zarr output cannot take, say): a failure while the query
                // ran, exit code 1, not input refused before anything ran.
                return inAJob && c instanceof InvalidArgumentException ? new CubedException(c.getMessage(), c) : c;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return new CubedException("sql: the query failed: " + oneLine(message(root)), e);
    }

    /** The message of {@code e}, or its class name when it has none. */
    static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getName() : m;
    }

    /**
     * The first non-blank line of {@code message}: Spark appends the query with a caret, or the plan, on the lines
     * after it.
     */
    static String oneLine(String message) {
        for (String line : message.split("\n")) {
            if (!line.isBlank()) {
                return line.strip();
            }
        }
        return message.strip();
    }
}
