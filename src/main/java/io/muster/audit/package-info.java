/**
 * The audit trail: who did what to which instance, from where, when, and with what result (status overrides set
 * and removed, deregistrations by clients and operators, operators' other actions, writes refused for want of a
 * right). Kept in memory, bounded, appended off the request path, and written to the logger {@code io.muster.audit}.
 * Imports nothing from the project, so any package may record to it: callers describe who asked with an
 * {@link io.muster.audit.Actor}.
 */
package io.muster.audit;
