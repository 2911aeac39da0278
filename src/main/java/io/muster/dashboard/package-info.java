/**
 * The dashboard and the operators' endpoints: the page and its files, its admin actions (with their CSRF tokens),
 * the audit trail, health and metrics. May import {@code api} (for the status document and the write rules),
 * {@code audit}, {@code model} and {@code registry}; never {@code web} or {@code bootstrap}.
 */
package io.muster.dashboard;
