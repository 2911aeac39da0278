package io.muster.resources;

import io.muster.cache.ResponseCache;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.TrafficGate;
import io.muster.replication.InboundBatch;

import java.time.Clock;
import java.util.function.Supplier;

/** What the resources work on, handed over by the composition root. */
public record Api(InstanceRegistry registry, ResponseCache cache, TrafficGate gate, boolean deltaDisabled,
                  Clock clock, StatusReport status, InboundBatch inbound, Supplier<String> metrics) {
}
