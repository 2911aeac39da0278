package io.muster.model;

import java.util.List;
import java.util.Objects;

/**
 * A registry view as clients fetch it: the full registry, a delta or a VIP. {@code version} is Eureka's
 * {@code versions__delta} (1 for a full fetch, -1 for a VIP view), {@code hashCode} its {@code apps__hashcode}.
 */
public record Applications(long version, String appsHashCode, List<Application> applications) {
    public Applications {
        Objects.requireNonNull(appsHashCode, "appsHashCode");
        applications = List.copyOf(applications);
    }

    public int instanceCount() {
        return applications.stream().mapToInt(a -> a.instances().size()).sum();
    }
}
