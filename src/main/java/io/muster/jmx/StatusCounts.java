package io.muster.jmx;

import io.muster.model.InstanceStatus;

import javax.management.ConstructorParameters;

/**
 * Instances by status, as one composite value (an item per status, so a monitor can read {@code InstancesByStatus.up}
 * as a number; a map would become a table that Payara's JMX monitoring cannot address).
 */
public final class StatusCounts {
    private final int up;
    private final int down;
    private final int starting;
    private final int outOfService;
    private final int unknown;

    @ConstructorParameters({"up", "down", "starting", "outOfService", "unknown"})
    public StatusCounts(int up, int down, int starting, int outOfService, int unknown) {
        this.up = up;
        this.down = down;
        this.starting = starting;
        this.outOfService = outOfService;
        this.unknown = unknown;
    }

    /** @param counts indexed by {@link InstanceStatus#ordinal()} */
    static StatusCounts of(int[] counts) {
        return new StatusCounts(counts[InstanceStatus.UP.ordinal()], counts[InstanceStatus.DOWN.ordinal()],
                counts[InstanceStatus.STARTING.ordinal()], counts[InstanceStatus.OUT_OF_SERVICE.ordinal()],
                counts[InstanceStatus.UNKNOWN.ordinal()]);
    }

    public int getUp() {
        return up;
    }

    public int getDown() {
        return down;
    }

    public int getStarting() {
        return starting;
    }

    public int getOutOfService() {
        return outOfService;
    }

    public int getUnknown() {
        return unknown;
    }
}
