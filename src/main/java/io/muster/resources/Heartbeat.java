package io.muster.resources;

import io.muster.model.InstanceStatus;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.RenewOutcome;

/**
 * One heartbeat as the wire carries it, shared by the JAX-RS method and the servlet fast path so both apply the
 * same rules. The {@code status} parameter clients send is ignored, as in Eureka: status changes come by
 * re-registration.
 */
final class Heartbeat {
    static final String BAD_TIMESTAMP = "lastDirtyTimestamp must be a number of milliseconds";

    private Heartbeat() {
    }

    /** @throws NumberFormatException for a lastDirtyTimestamp that is not a number (a 400 for the caller) */
    static RenewOutcome apply(InstanceRegistry registry, String app, String id, String lastDirtyTimestamp,
                              String overriddenStatus, String replicationHeader) {
        InstanceStatus override = overriddenStatus == null ? null : InstanceStatus.parseOrUnknown(overriddenStatus);
        return registry.renew(app, id, timestamp(lastDirtyTimestamp), override, Origins.of(replicationHeader));
    }

    static Long timestamp(String value) {
        return value == null || value.isEmpty() ? null : Long.parseLong(value.trim());
    }
}
