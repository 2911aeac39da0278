package io.muster.replication;

import io.muster.model.Applications;
import io.muster.model.ReplicationItem;
import io.muster.model.ReplicationResult;

import java.io.IOException;
import java.util.List;

/** The HTTP calls a node makes to one peer. An interface so batching can be tested without a network. */
interface PeerClient {
    /** Thrown for an HTTP answer other than 2xx. */
    final class StatusException extends IOException {
        final int status;

        StatusException(int status) {
            super("HTTP " + status);
            this.status = status;
        }
    }

    List<ReplicationResult> sendBatch(List<ReplicationItem> items) throws IOException;

    Applications fetchRegistry() throws IOException;

    /** A Muster peer's full registry, answered while it holds reads too ({@code api/cluster/registry}). */
    Applications fetchRegistryForSync() throws IOException;

    /** Muster's digest; null when the peer has none (404: a stock Eureka server). */
    PeerDigest fetchDigest() throws IOException;

    /** Whether the peer holds the instance now (its {@code GET apps/APP/ID} answers 200; 404: it does not). */
    boolean holds(String app, String id) throws IOException;
}
