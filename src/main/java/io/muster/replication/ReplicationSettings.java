package io.muster.replication;

import io.muster.config.ServerConfig.PeerConfig;

import java.time.Duration;

/** The batching numbers a peer node needs, taken from the peer configuration. */
record ReplicationSettings(int maxPending, int batchSize, Duration batchDelay, Duration taskTtl,
                           Duration connectTimeout, Duration readTimeout, boolean syncWhenTimestampDiffers) {
    static ReplicationSettings of(PeerConfig c) {
        return new ReplicationSettings(c.maxPending(), c.batchSize(), c.batchDelay(), c.maxTimeForReplication(),
                c.connectTimeout(), c.readTimeout(), c.syncWhenTimestampDiffers());
    }
}
