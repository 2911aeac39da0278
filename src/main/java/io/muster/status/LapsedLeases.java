package io.muster.status;

import io.muster.registry.Lease;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Leases past their expiry at one moment, per app: what eviction would remove if self-preservation let it.
 *
 * @param instances lapsed leases in all
 * @param apps      apps with at least one
 * @param largest   at most the asked number of apps, most lapsed leases first (then by name)
 * @param passLimit the most one eviction pass removes
 */
public record LapsedLeases(int instances, int apps, List<AppCount> largest, int passLimit) {
    public record AppCount(String app, int lapsed) {
    }

    static LapsedLeases of(List<Lease> lapsed, int maxApps, int passLimit) {
        Map<String, Integer> byApp = new HashMap<>();
        for (Lease lease : lapsed) {
            byApp.merge(lease.instance().app(), 1, Integer::sum);
        }
        List<AppCount> largest = byApp.entrySet().stream().map(e -> new AppCount(e.getKey(), e.getValue()))
                .sorted(Comparator.comparingInt(AppCount::lapsed).reversed().thenComparing(AppCount::app))
                .limit(maxApps).toList();
        return new LapsedLeases(lapsed.size(), byApp.size(), largest, passLimit);
    }
}
