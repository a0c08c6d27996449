package io.cubed.spark;

import io.cubed.error.CubedException;
import io.cubed.runtime.Callback;
import io.cubed.runtime.ExecutionPlan;
import io.cubed.runtime.Stage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The order in which {@link SparkExecutor} runs a plan's stages: each on a driver-side pool thread, either one after
 * another or, with concurrent stages, each as soon as the stages it depends on have finished (at most {@code
 * maxConcurrentJobs} at a time); the first failure stops new stages from starting and cancels the running jobs.
 */
final class SparkStageScheduler {
    private final JavaSparkContext jsc;
    private final SparkStageRunner runner;
    private final boolean concurrentStages;
    private final int maxConcurrentJobs;
    private final AtomicInteger threadNumber = new AtomicInteger();

    SparkStageScheduler(
            JavaSparkContext jsc, SparkStageRunner runner, boolean concurrentStages, int maxConcurrentJobs) {
        this.jsc = jsc;
        this.runner = runner;
        this.concurrentStages = concurrentStages;
        this.maxConcurrentJobs = maxConcurrentJobs;
    }

    /** Runs every stage of {@code plan}; throws the first failure once the running stages have ended. */
    void run(ExecutionPlan plan, List<Callback> callbacks) {
        String computeId = plan.computeId();
        ExecutorService pool = Executors.newFixedThreadPool(concurrentStages ? maxConcurrentJobs : 1, r -> {
            Thread t = new Thread(r, "cubed-spark-jobs-" + threadNumber.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            if (concurrentStages && maxConcurrentJobs > 1) {
                runConcurrently(pool, plan, callbacks);
            } else {
                for (Stage stage : plan.stages()) {
                    awaitOnPool(pool, stage, () -> runner.runStage(computeId, stage, callbacks));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Runs {@code body} on a pool thread (so job-group settings never stick to the caller's thread) and waits. */
    private static void awaitOnPool(ExecutorService pool, Stage stage, Runnable body) {
        try {
            pool.submit(body).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CubedException(stage.id() + " " + stage.description() + " was interrupted", e);
        } catch (ExecutionException e) {
            throw rethrowable(e.getCause());
        }
    }

    private static RuntimeException rethrowable(Throwable t) {
        if (t instanceof RuntimeException) {
            return (RuntimeException) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        return new CubedException(String.valueOf(t), t);
    }

    /** Starts each stage when its dependencies are done; stops starting new stages after the first failure. */
    private void runConcurrently(ExecutorService pool, ExecutionPlan plan, List<Callback> callbacks) {
        String computeId = plan.computeId();
        Map<String, CompletableFuture<Void>> done = new HashMap<>();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        Set<String> runningGroups = ConcurrentHashMap.newKeySet();
        List<CompletableFuture<Void>> all = new ArrayList<>();
        for (Stage stage : plan.stages()) {
            CompletableFuture<?>[] deps =
                    stage.dependsOn().stream().map(done::get).toArray(CompletableFuture<?>[]::new);
            CompletableFuture<Void> f = CompletableFuture.allOf(deps)
                    .thenRunAsync(
                            () -> {
                                if (firstFailure.get() != null) {
                                    return;
                                }
                                String group = SparkStageRunner.jobGroup(computeId, stage);
                                runningGroups.add(group);
                                try {
                                    runner.runStage(computeId, stage, callbacks);
                                } finally {
                                    runningGroups.remove(group);
                                }
                            },
                            pool)
                    .whenComplete((v, t) -> {
                        if (t != null && firstFailure.compareAndSet(null, unwrap(t))) {
                            for (String g : runningGroups) {
                                jsc.sc().cancelJobGroup(g);
                            }
                        }
                    });
            done.put(stage.id(), f);
            all.add(f);
        }
        for (CompletableFuture<Void> f : all) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                for (String g : runningGroups) {
                    jsc.sc().cancelJobGroup(g);
                }
                throw new CubedException("computation " + computeId + " was interrupted", e);
            } catch (ExecutionException e) {
                // recorded in firstFailure
            }
        }
        if (firstFailure.get() != null) {
            throw rethrowable(firstFailure.get());
        }
    }

    private static Throwable unwrap(Throwable t) {
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
