package io.cubed.spark.internal;

import io.cubed.runtime.TaskResult;
import java.util.List;
import java.util.Objects;
import org.apache.spark.Partition;
import org.apache.spark.SparkContext;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * One stage as an RDD with no parent: partition {@code p} runs the task indexes of range {@code p} with the stage's
 * {@link StagePartitionFunction} and yields their {@link TaskResult}s.
 *
 * <p>It does what {@code parallelize(ranges).mapPartitions(body)} does, without what that costs on the driver for every
 * stage: {@code mapPartitions} wraps the function in Scala closures that Spark's closure cleaner then reads back as
 * class files (ASM, about a fifth of the driver's time per job on a small stage), and the parallelized collection
 * travels whole in the task binary. Here nothing is a closure and each partition carries its own range.
 */
public final class StageRDD extends RDD<TaskResult> {
    private static final long serialVersionUID = 1L;

    private static final ClassTag<TaskResult> TAG = ClassTag$.MODULE$.apply(TaskResult.class);

    private final StagePartitionFunction body;
    /** On the driver only: each Spark task gets its own partition, so the ranges stay out of the task binary. */
    private final transient RangePartition[] partitions;

    /** The RDD of {@code body} over {@code ranges}, one partition per range. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public StageRDD(SparkContext sc, StagePartitionFunction body, List<TaskRange> ranges) {
        // No dependency: Nil, passed raw so that the same source builds against Scala 2.12 and 2.13 Seq types.
        super(sc, (scala.collection.immutable.List) scala.collection.immutable.Nil$.MODULE$, TAG);
        this.body = Objects.requireNonNull(body, "body");
        this.partitions = new RangePartition[ranges.size()];
        for (int p = 0; p < partitions.length; p++) {
            partitions[p] = new RangePartition(id(), p, ranges.get(p));
        }
    }

    @Override
    public scala.collection.Iterator<TaskResult> compute(Partition split, TaskContext context) {
        TaskRange range = ((RangePartition) split).range();
        java.util.Iterator<TaskResult> results = body.call(List.of(range).iterator());
        return new scala.collection.AbstractIterator<TaskResult>() {
            @Override
            public boolean hasNext() {
                return results.hasNext();
            }

            @Override
            public TaskResult next() {
                return results.next();
            }
        };
    }

    @Override
    public Partition[] getPartitions() {
        if (partitions == null) {
            throw new IllegalStateException("the partitions of " + this + " are known on the driver only");
        }
        return partitions.clone();
    }

    /** Partition {@code index} of RDD {@code rddId}: the task indexes of {@code range}. */
    static final class RangePartition implements Partition {
        private static final long serialVersionUID = 1L;

        private final int rddId;
        private final int index;
        private final TaskRange range;

        RangePartition(int rddId, int index, TaskRange range) {
            this.rddId = rddId;
            this.index = index;
            this.range = range;
        }

        @Override
        public int index() {
            return index;
        }

        TaskRange range() {
            return range;
        }

        @Override
        public int hashCode() {
            return 31 * rddId + index;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof RangePartition p && p.rddId == rddId && p.index == index;
        }
    }
}
