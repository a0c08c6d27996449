package io.cubed.spark.internal;

import io.cubed.error.CubedException;
import io.cubed.error.TaskFailedException;
import io.cubed.runtime.Stage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the exception of a failed Spark job into a {@link CubedException} that names the stage and the root cause in
 * one line, instead of Spark's "Job aborted due to stage failure" text with remote stack traces.
 */
public final class SparkFailures {
    private static final Pattern FAILED_TIMES = Pattern.compile("failed (\\d+) times");
    private static final Pattern INDEX_FAILURE =
            Pattern.compile(Pattern.quote(TaskIndexFailure.class.getName()) + ": \\S+ task (\\d+): ([^\\n]*)");

    private SparkFailures() {}

    /**
     * The exception to throw for {@code stage} after its Spark job failed with {@code failure}: a {@link
     * TaskFailedException} when a task's own exception is known (from the cause chain, or else from Spark's message),
     * otherwise a {@link CubedException} with the first line of Spark's message. {@code defaultAttempts} is used when
     * Spark's message does not say how many times the task ran.
     */
    public static CubedException translate(Stage stage, Throwable failure, int defaultAttempts) {
        if (failure instanceof CubedException && !(failure instanceof TaskIndexFailure)) {
            return (CubedException) failure;
        }
        String sparkMessage = String.valueOf(failure.getMessage());
        int attempts = attemptsIn(sparkMessage, defaultAttempts);
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof TaskFailedException) {
                // Thrown by the driver's result handler (a task that met corrupt data), wrapped by Spark.
                return (TaskFailedException) t;
            }
            if (t instanceof TaskIndexFailure) {
                TaskIndexFailure f = (TaskIndexFailure) t;
                Throwable root = f.getCause() != null ? f.getCause() : f;
                return new TaskFailedException(stage.id(), stage.description(), f.taskIndex(), attempts, root);
            }
            if (t.getCause() == t) {
                break;
            }
        }
        Matcher m = INDEX_FAILURE.matcher(sparkMessage);
        if (m.find()) {
            return new TaskFailedException(
                    stage.id(),
                    stage.description(),
                    Long.parseLong(m.group(1)),
                    attempts,
                    new CubedException(m.group(2).trim()));
        }
        return new CubedException(
                stage.id() + " " + stage.description() + " failed: " + firstLine(sparkMessage), failure);
    }

    /** The number in Spark's "failed N times", or {@code defaultAttempts}. */
    static int attemptsIn(String sparkMessage, int defaultAttempts) {
        Matcher m = FAILED_TIMES.matcher(sparkMessage);
        return m.find() ? Integer.parseInt(m.group(1)) : defaultAttempts;
    }

    static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).trim();
    }
}
