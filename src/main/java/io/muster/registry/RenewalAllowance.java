package io.muster.registry;

import io.muster.model.InstanceInfo;

import java.time.Duration;

/**
 * How many of one instance's heartbeats count as renewals in one wall-clock minute: as many as its renewal
 * interval can fit in a minute (2 for 30 s, 1 for 60 s or more). The interval is the client's own word, so it is
 * taken no shorter than the interval self-preservation's threshold assumes
 * ({@code expectedClientRenewalIntervalSeconds}): each instance is expected to renew at that rate, and counting
 * more from one of them (a flood, or a client that claims a 1 s interval) would let one client outweigh the
 * silence of many. Heartbeats past the allowance still keep the lease alive.
 *
 * <p>Immutable.
 */
final class RenewalAllowance {
    private final int shortestIntervalSecs;

    RenewalAllowance(Duration expectedRenewalInterval) {
        this.shortestIntervalSecs = (int) Math.max(1, expectedRenewalInterval.toSeconds());
    }

    int perMinute(InstanceInfo instance) {
        int interval = Math.max(instance.leaseInfo().renewalIntervalInSecs(), shortestIntervalSecs);
        // heartbeats at least `interval` apart: at most ceil(60 / interval) of them fall in one minute
        return (60 + interval - 1) / interval;
    }
}
