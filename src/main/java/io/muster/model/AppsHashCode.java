package io.muster.model;

import java.util.Map;
import java.util.TreeMap;

/**
 * Eureka's reconcile hash: instance counts per status, ordered by status name, e.g. {@code DOWN_1_UP_3_}.
 * A client recomputes it over its merged copy after a delta and does a full fetch when it differs.
 */
public final class AppsHashCode {
    private AppsHashCode() {
    }

    public static String of(Map<InstanceStatus, Integer> counts) {
        // TreeMap by name: Eureka orders alphabetically (DOWN before UP), not by enum ordinal.
        TreeMap<String, Integer> byName = new TreeMap<>();
        counts.forEach((status, n) -> {
            if (n > 0) {
                byName.put(status.name(), n);
            }
        });
        StringBuilder sb = new StringBuilder();
        byName.forEach((name, n) -> sb.append(name).append('_').append(n).append('_'));
        return sb.toString();
    }

    /** The hash of what a copy of the registry holds, as a client computes it after merging a delta. */
    public static String of(Applications apps) {
        Map<InstanceStatus, Integer> counts = new java.util.EnumMap<>(InstanceStatus.class);
        addCounts(counts, apps.applications());
        return of(counts);
    }

    /** Adds the instances of these apps to per-status counts. */
    public static void addCounts(Map<InstanceStatus, Integer> counts, java.util.Collection<Application> apps) {
        for (Application app : apps) {
            for (InstanceInfo i : app.instances()) {
                counts.merge(i.status(), 1, Integer::sum);
            }
        }
    }

    /**
     * The counts a hash was made of: lets a merged view extend the local registry's hash with remote instances
     * without a second look at the registry (which may have changed since the local view was taken). Status names
     * contain underscores ({@code OUT_OF_SERVICE_2_}), so a name runs until the first number. Unknown names are
     * skipped.
     */
    public static Map<InstanceStatus, Integer> parse(String hash) {
        Map<InstanceStatus, Integer> counts = new java.util.EnumMap<>(InstanceStatus.class);
        StringBuilder name = new StringBuilder();
        for (String token : hash.split("_")) {
            if (!token.isEmpty() && token.chars().allMatch(Character::isDigit)) {
                try {
                    counts.merge(InstanceStatus.valueOf(name.toString()), Integer.parseInt(token), Integer::sum);
                } catch (IllegalArgumentException ignored) {
                    // not a status Muster knows: not counted, as the registry could not hold it either
                }
                name.setLength(0);
            } else if (!token.isEmpty()) {
                name.append(name.length() == 0 ? "" : "_").append(token);
            }
        }
        return counts;
    }
}
