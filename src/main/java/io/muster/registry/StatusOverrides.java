package io.muster.registry;

import com.google.common.base.Ticker;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import io.muster.model.InstanceStatus;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Status overrides (set through {@code PUT .../status}), forgotten after an hour without access as in Eureka, so
 * that overrides of instances that never come back do not pile up.
 *
 * <p>Departure from Eureka, which keys overrides by instance id alone: here by application and id, so another
 * application's instance that uses the same id (by mistake or to attack) cannot set, clear or inherit them. Each
 * override remembers who set it and when, for the dashboard and the audit log.
 *
 * <p>Thread safety: backed by a Guava cache; every method is safe to call concurrently.
 */
public final class StatusOverrides {
    /** Who set an override that came by replication: the node that took it knows who asked. */
    static final String FROM_PEER = "a peer (replicated)";
    private static final Duration IDLE_EXPIRY = Duration.ofHours(1);

    private record Key(String app, String id) {
    }

    /** One override: the status, who set it ({@code operator admin}, {@code client orders}, ...) and when. */
    record Entry(String app, String id, InstanceStatus status, String setBy, Instant at) {
    }

    private final Cache<Key, Entry> overrides;
    private final Clock clock;

    StatusOverrides(Clock clock) {
        this.clock = clock;
        Ticker ticker = new Ticker() {
            @Override
            public long read() {
                return TimeUnit.MILLISECONDS.toNanos(clock.millis());
            }
        };
        overrides = CacheBuilder.newBuilder().ticker(ticker).initialCapacity(500)
                .expireAfterAccess(IDLE_EXPIRY).build();
    }

    Optional<InstanceStatus> get(String app, String id) {
        Entry o = overrides.getIfPresent(new Key(app, id));
        return o == null ? Optional.empty() : Optional.of(o.status());
    }

    void put(String app, String id, InstanceStatus status, String setBy) {
        overrides.put(new Key(app, id), new Entry(app, id, status, setBy, clock.instant()));
    }

    void putIfAbsent(String app, String id, InstanceStatus status, String setBy) {
        overrides.asMap().putIfAbsent(new Key(app, id), new Entry(app, id, status, setBy, clock.instant()));
    }

    Optional<InstanceStatus> remove(String app, String id) {
        Entry o = overrides.asMap().remove(new Key(app, id));
        return o == null ? Optional.empty() : Optional.of(o.status());
    }

    /** Eureka's {@code /serverinfo/statusoverrides} shape: by instance id (the latest one when two apps share it). */
    public Map<String, InstanceStatus> byId() {
        Map<String, Entry> latest = new HashMap<>();
        for (Entry o : overrides.asMap().values()) {
            latest.merge(o.id(), o, (a, b) -> a.at().isAfter(b.at()) ? a : b);
        }
        Map<String, InstanceStatus> out = new HashMap<>();
        latest.forEach((id, o) -> out.put(id, o.status()));
        return Map.copyOf(out);
    }

    /** Overrides in force, each app's instance counted once (two apps may use one id). */
    public int size() {
        overrides.cleanUp();   // Guava's size counts expired entries until its maintenance has run
        return (int) overrides.size();
    }

    /** Every override with who set it and when, newest first, at most {@code limit} (the dashboard's list). */
    public List<OverrideRecord> records(int limit) {
        List<Entry> all = new ArrayList<>(overrides.asMap().values());
        all.sort(Comparator.comparing(Entry::at).reversed());
        return all.subList(0, Math.min(limit, all.size())).stream()
                .map(o -> new OverrideRecord(o.app(), o.id(), o.status(), o.setBy(), o.at())).toList();
    }
}
