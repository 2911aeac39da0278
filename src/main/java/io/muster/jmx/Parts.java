package io.muster.jmx;

import io.muster.api.InstanceWrites;
import io.muster.config.ServerConfig;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.TrafficGate;
import io.muster.replication.PeerNode;
import io.muster.status.StatusSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What the beans read and act on, handed over by the composition root.
 *
 * @param writes the Eureka API's write rules, which the operations go through as the dashboard's actions do
 * @param peers  the peers' states, the current list
 */
public record Parts(StatusSource status, TrafficGate gate, InstanceRegistry registry, InstanceWrites writes,
                    Supplier<List<PeerNode.Status>> peers, Check check, Snapshot snapshot, Streams streams,
                    ServerConfig.KeyReport keys) {

    /**
     * The cluster check.
     *
     * @param run  one round, to be run on {@code lane} only
     * @param lane where the periodic check runs
     */
    public record Check(boolean enabled, boolean peersConfigured, Duration interval, Runnable run, Lane lane) {
    }

    /**
     * The registry snapshot.
     *
     * @param path  the snapshot file, or null when snapshots are off on this node
     * @param write what the periodic snapshot does, to be run on {@code lane} only
     */
    public record Snapshot(Path path, Runnable write, Lane lane) {
    }

    /** The change streams' figures. */
    public record Streams(IntSupplier streams, IntSupplier waitingFetches, LongSupplier dropped, int maxOpen,
                          int maxOpenPerClient) {
    }
}
