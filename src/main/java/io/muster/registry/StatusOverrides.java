package io.muster.registry;

import com.google.common.base.Ticker;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.muster.model.InstanceStatus;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Status overrides by instance id (set through {@code PUT .../status}), forgotten after an hour without access as
 * in Eureka, so that overrides of instances that never come back do not pile up.
 *
 * <p>Thread safety: backed by a Guava cache; every method is safe to call concurrently.
 */
final class StatusOverrides {
    private static final Duration IDLE_EXPIRY = Duration.ofHours(1);
    private final Cache<String, InstanceStatus> overrides;

    StatusOverrides(Clock clock) {
        Ticker ticker = new Ticker() {
            @Override
            public long read() {
                return TimeUnit.MILLISECONDS.toNanos(clock.millis());
            }
        };
        overrides = CacheBuilder.newBuilder().ticker(ticker).initialCapacity(500)
                .expireAfterAccess(IDLE_EXPIRY).build();
    }

    Optional<InstanceStatus> get(String id) {
        return Optional.ofNullable(overrides.getIfPresent(id));
    }

    void put(String id, InstanceStatus status) {
        overrides.put(id, status);
    }

    void putIfAbsent(String id, InstanceStatus status) {
        overrides.asMap().putIfAbsent(id, status);
    }

    Optional<InstanceStatus> remove(String id) {
        return Optional.ofNullable(overrides.asMap().remove(id));
    }

    Map<String, InstanceStatus> snapshot() {
        return Map.copyOf(overrides.asMap());
    }
}
