package io.muster.cache;

import io.muster.model.InstanceInfo;
import io.muster.model.VipKind;
import io.muster.registry.RegistryChange;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The registry change sequence number that last touched each cached target (an app, a VIP, a secure VIP), and the
 * whole registry's: a payload built from an older sequence than its target's stamp is stale, however its build and
 * the change interleaved.
 *
 * <p>Bounded by what is cached, not by the names clients and instances churn through: {@link #prune} drops the
 * stamps of targets no payload is held for, after raising the {@linkplain #floor floor} every target without a stamp
 * of its own is judged by to at least each stamp it drops.
 *
 * <p>Thread safety: {@link #onChange} runs on writer threads under the registry's change lock; {@link #prune} on
 * the cache's refresher only; {@link #of} on any thread. The map is concurrent and the floor volatile; a stamp
 * written while a prune runs is kept (removal is conditional on the value it read).
 */
final class ChangeStamps {
    private final Map<CacheKey.Target, Long> stamps = new ConcurrentHashMap<>();
    /** The stamp of every target without one of its own: at least every stamp pruned so far. */
    private volatile long floor;
    /**
     * The registry's own sequence, the stamp of the whole registry's shapes: it moves under the change lock, before
     * the listeners (and so this class) hear of the change, and a fetch woken by it must not get what it had.
     */
    private final LongSupplier registrySequence;

    ChangeStamps(LongSupplier registrySequence) {
        this.registrySequence = registrySequence;
    }

    void onChange(RegistryChange change) {
        long seq = change.sequence();
        stamp(change.instance(), seq);
        if (change instanceof RegistryChange.Registered r && r.previous() != null) {
            stamp(r.previous(), seq);   // its VIPs may have changed
        }
    }

    private void stamp(InstanceInfo instance, long seq) {
        stamps.put(new CacheKey.Target(CacheKey.Entity.APP, instance.app()), seq);
        for (String vip : instance.vips(VipKind.VIP)) {
            stamps.put(new CacheKey.Target(CacheKey.Entity.VIP, vip), seq);
        }
        for (String vip : instance.vips(VipKind.SECURE_VIP)) {
            stamps.put(new CacheKey.Target(CacheKey.Entity.SVIP, vip), seq);
        }
    }

    /** The sequence a payload for this request shape must have been built from, at least, to be current. */
    long of(CacheKey key) {
        return switch (key.entity()) {
            case ALL_APPS, DELTA -> registrySequence.getAsLong();
            default -> stamps.getOrDefault(key.target(), floor);
        };
    }

    /**
     * Keeps the stamps of the targets payloads are held for and drops the others. Held targets without a stamp are
     * pinned at the old floor first, so raising it costs their payloads no rebuild.
     */
    void prune(Set<CacheKey.Target> held) {
        long old = floor;
        for (CacheKey.Target t : held) {
            stamps.putIfAbsent(t, old);
        }
        Map<CacheKey.Target, Long> unheld = new HashMap<>();
        long raised = old;
        for (Map.Entry<CacheKey.Target, Long> e : stamps.entrySet()) {
            if (!held.contains(e.getKey())) {
                unheld.put(e.getKey(), e.getValue());
                raised = Math.max(raised, e.getValue());
            }
        }
        floor = raised;
        // conditional: a stamp written since it was read stays (the floor may not cover it)
        unheld.forEach(stamps::remove);
    }

    /** Targets with a stamp of their own. */
    int size() {
        return stamps.size();
    }
}
