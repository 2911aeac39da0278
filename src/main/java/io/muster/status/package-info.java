/**
 * One consistent reading of the server's state (registry size, renewals against the threshold, evictions, the
 * response cache, the peers) taken in one place, so the dashboard's document and the metrics show the same numbers
 * gathered the same way. May import {@code model}, {@code config}, {@code registry}, {@code cache},
 * {@code eviction} and {@code replication}; imported by {@code api}, {@code metrics} and {@code bootstrap}.
 */
package io.muster.status;
