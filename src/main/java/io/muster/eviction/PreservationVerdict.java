package io.muster.eviction;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * What self-preservation is doing at one moment and why, in the one wording that both the log and the dashboard
 * use, so that the two never tell an operator different stories. The numbers are read once, so the text and the
 * mode cannot disagree either.
 *
 * @param measuringUntil when the renewal count first covers a whole minute, or null when it does
 */
public record PreservationVerdict(Mode mode, long renewalsLastMinute, int threshold, int expectedClients,
                                  Instant measuringUntil) {
    public enum Mode {
        /** Turned off: lapsed leases always expire. */
        OFF,
        /** Renewals above the threshold: lapsed leases expire. */
        EXPIRING,
        /** The count does not cover a whole minute since the start or the last sync yet: nothing is known. */
        MEASURING,
        /** No instance renews, so there is no threshold to compare with. */
        NOTHING_EXPECTED,
        /** Renewals at or below the threshold: Eureka's emergency, lapsed leases are kept. */
        PRESERVING
    }

    static PreservationVerdict of(boolean enabled, boolean allowsExpiry, long renewals, int threshold,
                                  int expectedClients, Instant measuringUntil) {
        Mode mode;
        if (!enabled) {
            mode = Mode.OFF;
        } else if (allowsExpiry) {
            mode = Mode.EXPIRING;
        } else if (measuringUntil != null) {
            mode = Mode.MEASURING;
        } else if (expectedClients == 0) {
            mode = Mode.NOTHING_EXPECTED;
        } else {
            mode = Mode.PRESERVING;
        }
        return new PreservationVerdict(mode, renewals, threshold, expectedClients, measuringUntil);
    }

    /** Whether lapsed leases are kept now (for whatever reason). */
    public boolean keepsLapsedLeases() {
        return mode != Mode.OFF && mode != Mode.EXPIRING;
    }

    public String text() {
        return switch (mode) {
            case OFF -> "self-preservation is off: lapsed leases always expire";
            case EXPIRING -> renewalsLastMinute + " renewals in the last minute exceed the threshold of " + threshold
                    + " (" + expectedClients + " expected clients): lapsed leases expire";
            case MEASURING -> "measuring renewals until " + measuringUntil.truncatedTo(ChronoUnit.SECONDS)
                    + " (the first whole minute since the start or the last sync): lapsed leases are kept until"
                    + " then; no emergency";
            case NOTHING_EXPECTED -> "no instance has renewed yet (0 expected clients): lapsed leases are kept"
                    + " until renewals can be counted";
            case PRESERVING -> "self-preservation on: " + renewalsLastMinute + " renewals in the last minute are at"
                    + " or below the threshold of " + threshold + " (" + expectedClients + " expected clients):"
                    + " lapsed leases are kept in case this is a network problem";
        };
    }
}
