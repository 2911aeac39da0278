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
}
