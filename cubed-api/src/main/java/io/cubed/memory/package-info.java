/**
 * The memory model: sizes ({@link io.cubed.memory.MemorySize}), a task's budget ({@link
 * io.cubed.memory.MemoryBudget}), buffer copies per store kind, and the projected-memory arithmetic every operation is
 * checked with before anything runs ({@link io.cubed.memory.ProjectedMemory}).
 */
package io.cubed.memory;
