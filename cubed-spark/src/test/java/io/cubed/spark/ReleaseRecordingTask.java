package io.cubed.spark;

import io.cubed.runtime.FileRecordingTask;
import io.cubed.runtime.TaskFunction;
import io.cubed.runtime.TaskIo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * Runs as {@code runs} does, and records each {@link #release} in {@code releaseDir}: file {@code i} holds the time
 * (epoch milliseconds) and the thread of the first release of task {@code i}; a second release of the same task adds
 * file {@code i-again}.
 */
record ReleaseRecordingTask(FileRecordingTask runs, String releaseDir) implements TaskFunction {
    private static final long serialVersionUID = 1L;

    @Override
    public TaskIo run(long taskIndex) {
        return runs.run(taskIndex);
    }

    @Override
    public void release(long taskIndex) {
        String line = System.currentTimeMillis() + " " + Thread.currentThread().getName();
        try {
            try {
                Files.writeString(
                        Paths.get(releaseDir, Long.toString(taskIndex)),
                        line,
                        StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.CREATE_NEW,
                        java.nio.file.StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                Files.writeString(Paths.get(releaseDir, taskIndex + "-again"), line, StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
