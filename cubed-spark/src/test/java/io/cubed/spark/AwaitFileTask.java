package io.cubed.spark;

import io.cubed.runtime.TaskFunction;
import io.cubed.runtime.TaskIo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Task 0 returns at once; every other task waits until the file {@code dir/name} exists (the driver creates it), and
 * fails after {@code timeoutMillis} if it never appears.
 */
record AwaitFileTask(String dir, String name, long timeoutMillis) implements TaskFunction {
    private static final long serialVersionUID = 1L;

    @Override
    public TaskIo run(long taskIndex) {
        if (taskIndex == 0) {
            return TaskIo.NONE;
        }
        Path file = Paths.get(dir, name);
        long start = System.currentTimeMillis();
        while (!Files.exists(file)) {
            if (System.currentTimeMillis() - start > timeoutMillis) {
                throw new IllegalStateException("task " + taskIndex + " never saw " + file);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return TaskIo.NONE;
    }
}
