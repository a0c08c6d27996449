package io.cubed.spark;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.StageInfo;

/** Records what Spark reports: jobs with their group and description, stage shuffle bytes, task result sizes. */
final class SparkJobRecorder extends SparkListener {
    record Job(int jobId, String group, String description, List<Integer> stageIds) {}

    record StageMetrics(int stageId, long shuffleReadBytes, long shuffleWriteBytes, int numTasks) {}

    final List<Job> jobs = new CopyOnWriteArrayList<>();
    final Map<Integer, StageMetrics> stages = new ConcurrentHashMap<>();
    final Map<Integer, List<Long>> resultSizes = new ConcurrentHashMap<>();
    final List<String> removedExecutors = new CopyOnWriteArrayList<>();
    final Map<String, Integer> tasksByExecutor = new ConcurrentHashMap<>();

    @Override
    public void onJobStart(SparkListenerJobStart e) {
        String group = e.properties() == null ? null : e.properties().getProperty("spark.jobGroup.id");
        String description = e.properties() == null ? null : e.properties().getProperty("spark.job.description");
        List<Integer> ids = new CopyOnWriteArrayList<>();
        scala.collection.Iterator<StageInfo> it = e.stageInfos().iterator();
        while (it.hasNext()) {
            ids.add(it.next().stageId());
        }
        jobs.add(new Job(e.jobId(), group, description, ids));
    }

    @Override
    public void onStageCompleted(SparkListenerStageCompleted e) {
        StageInfo s = e.stageInfo();
        stages.put(
                s.stageId(),
                new StageMetrics(
                        s.stageId(),
                        s.taskMetrics().shuffleReadMetrics().totalBytesRead(),
                        s.taskMetrics().shuffleWriteMetrics().bytesWritten(),
                        s.numTasks()));
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd e) {
        tasksByExecutor.merge(e.taskInfo().executorId(), 1, Integer::sum);
        if (e.taskMetrics() != null) {
            resultSizes
                    .computeIfAbsent(e.stageId(), k -> new CopyOnWriteArrayList<>())
                    .add(e.taskMetrics().resultSize());
        }
    }

    @Override
    public void onExecutorRemoved(SparkListenerExecutorRemoved e) {
        removedExecutors.add(e.executorId() + ": " + e.reason());
    }

    /** The jobs whose group belongs to computation {@code computeId}. */
    List<Job> jobsOf(String computeId) {
        return jobs.stream()
                .filter(j -> j.group() != null && j.group().startsWith("cubed-" + computeId + "-"))
                .toList();
    }
}
