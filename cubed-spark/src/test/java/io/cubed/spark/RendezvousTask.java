package io.cubed.spark;

import io.cubed.runtime.TaskFunction;
import io.cubed.runtime.TaskIo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * A one-task stage body that proves two stages run at the same time: it marks {@code dir/self} as started, waits until
 * {@code dir/other} has started too (failing after {@code timeoutMillis}), and records its {@code start end} times in
 * {@code dir/self.interval}.
 */
record RendezvousTask(String dir, String self, String other, long timeoutMillis) implements TaskFunction {
    private static final long serialVersionUID = 1L;

    @Override
    public TaskIo run(long taskIndex) {
        long start = System.currentTimeMillis();
        try {
            Files.writeString(Paths.get(dir, self + ".started"), Long.toString(start));
            Path theirs = Paths.get(dir, other + ".started");
            while (!Files.exists(theirs)) {
                if (System.currentTimeMillis() - start > timeoutMillis) {
                    throw new IllegalStateException(self + " never saw " + other + " start");
                }
                Thread.sleep(10);
            }
            Files.writeString(Paths.get(dir, self + ".interval"), start + " " + System.currentTimeMillis());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return TaskIo.NONE;
    }

    static long[] interval(Path dir, String name) throws IOException {
        String[] p = Files.readString(dir.resolve(name + ".interval")).split(" ");
        return new long[] {Long.parseLong(p[0]), Long.parseLong(p[1])};
    }
}
