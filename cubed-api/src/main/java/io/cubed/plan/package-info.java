/**
 * Plans and their runs. The plan: {@link io.cubed.plan.Spec} (where and how arrays are computed), the DAG of {@link
 * io.cubed.plan.ArrayNode}s and {@link io.cubed.plan.OpNode}s, and {@link io.cubed.plan.Plan} (the operations in order,
 * with their figures and {@code explain} table). The optimizer: {@code Fusion} with {@link
 * io.cubed.plan.FusionOptions} (operations run inside their consumer's tasks) and {@code SiblingReads} (operations run
 * as one stage reading their shared input once). Figures and pictures: {@link io.cubed.plan.PlanStatistics}, {@code
 * PlanFigures} (the statistics of a prepared plan and its sibling-group lines), {@code PlanGraph} (Graphviz).
 *
 * <p>A run, one file per part: {@link io.cubed.plan.Computation} prepares it (memory check, fusion) and is what callers
 * use; {@code StoredArrays} says where and how its arrays are stored (intermediates' directory, names and format,
 * buffer copies); {@code OutputArrays} creates them, or reopens them when resuming; {@code StageBuilder} turns the
 * operations into stages; {@code EarlyCleanup} deletes intermediates as their readers finish.
 */
package io.cubed.plan;
