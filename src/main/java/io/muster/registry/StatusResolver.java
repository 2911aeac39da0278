package io.muster.registry;

import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;

import java.util.Optional;

/**
 * Eureka's status-override rule chain, first match wins: an instance reporting DOWN, STARTING or UNKNOWN keeps
 * that status; else an override set through the status endpoint wins; else, for a client's own write, an existing
 * lease that is UP or OUT_OF_SERVICE keeps its status; else the instance's own status.
 */
final class StatusResolver {
    private StatusResolver() {
    }

    static InstanceStatus resolve(InstanceInfo instance, Optional<InstanceStatus> override, Lease existing,
                                  Origin origin) {
        InstanceStatus own = instance.status();
        if (own != InstanceStatus.UP && own != InstanceStatus.OUT_OF_SERVICE) {
            return own;
        }
        if (override.isPresent()) {
            return override.get();
        }
        if (origin == Origin.CLIENT && existing != null) {
            InstanceStatus leased = existing.instance().status();
            if (leased == InstanceStatus.UP || leased == InstanceStatus.OUT_OF_SERVICE) {
                return leased;
            }
        }
        return own;
    }
}
