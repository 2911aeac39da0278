package io.muster.registry;

import java.time.Duration;

/**
 * The range of {@code lastDirtyTimestamp} values the registry can order. The stamp is the instance's version: the
 * newer one wins on every node, for ever. A stamp far ahead of every clock would win against the owner's every
 * later registration (and one at {@code Long.MAX_VALUE} cannot even be passed), so stamps are refused beyond a day
 * ahead of this node's clock; a client whose clock runs minutes or hours ahead is still served. Negative stamps
 * name no instant and are refused too.
 */
public final class DirtyTimestamps {
    /** How far ahead of this node's clock a stamp may be. */
    public static final Duration MAX_AHEAD = Duration.ofDays(1);

    private DirtyTimestamps() {
    }

    /** True when {@code stamp} is in {@code 0 .. now + MAX_AHEAD}. */
    public static boolean orderable(long stamp, long nowMillis) {
        return stamp >= 0 && stamp <= nowMillis + MAX_AHEAD.toMillis();
    }

    /** The one-line refusal for a stamp outside the range. */
    public static String refusal(String field, long stamp) {
        return field + " " + stamp + " is not in 0 .. now + " + MAX_AHEAD.toHours() + " hours";
    }

    /** The version just past {@code stored}: saturates, so a stored stamp can never wrap round to the oldest. */
    static long after(long stored) {
        return stored == Long.MAX_VALUE ? Long.MAX_VALUE : stored + 1;
    }
}
