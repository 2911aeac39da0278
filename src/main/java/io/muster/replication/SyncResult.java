package io.muster.replication;

import io.muster.registry.TrafficGate.SyncOutcome;

/**
 * What one round of the registry sync found: the outcome, how many instances were copied and from which peer
 * (null when none answered).
 */
public record SyncResult(SyncOutcome outcome, int copied, String peer) {
}
