package io.muster.web;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * The receiving side of a peer whose credentials are missing or wrong: its batches are refused (401/403) and
 * dropped by the sender, so this node would never hear of the writes. One WARNING per caller (address and user
 * name) every {@link #QUIET}, saying who and what to fix, with how many refusals were not logged since.
 *
 * <p>Callers choose the user name, so the names are cleaned before they reach the log and at most
 * {@link #MAX_CALLERS} callers are remembered per quiet period: a caller that invents a new name per request
 * cannot flood the log.
 *
 * <p>Thread safety: called from any request thread; the state is a concurrent map of immutable entries.
 */
final class RefusedReplicationLog {
    private static final Logger LOG = Logger.getLogger(RefusedReplicationLog.class.getName());
    static final Duration QUIET = Duration.ofMinutes(5);
    static final int MAX_CALLERS = 64;
    private static final int MAX_NAME = 64;

    private record Caller(long loggedAt, long refusedSince) {
    }

    private final ConcurrentHashMap<String, Caller> callers = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;

    RefusedReplicationLog(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /**
     * @param user   the user name the caller sent (or signed in as), or null when it sent no credentials
     * @param status the refusal written: 401 (no or rejected credentials) or 403 (no peer role)
     * @return whether a line was logged
     */
    boolean refused(String address, String user, int status, String what) {
        long now = nanoTime.getAsLong();
        String name = user == null ? null : clean(user);
        String key = address + " " + (name == null ? "" : name);
        if (!callers.containsKey(key) && callers.size() >= MAX_CALLERS) {
            callers.values().removeIf(c -> now - c.loggedAt >= QUIET.toNanos());
            if (callers.size() >= MAX_CALLERS) {
                return false;
            }
        }
        long[] notLogged = {-1};
        callers.compute(key, (k, c) -> {
            if (c == null || now - c.loggedAt >= QUIET.toNanos()) {
                notLogged[0] = c == null ? 0 : c.refusedSince;
                return new Caller(now, 0);
            }
            return new Caller(c.loggedAt, c.refusedSince + 1);
        });
        if (notLogged[0] < 0) {
            return false;
        }
        LOG.warning("Muster: refused replication from " + address + " (" + who(name, status) + ") to " + what
                + ": that node's peer URL for this node must carry a user that has the eureka-peer role in this"
                + " node's realm (http://user:password@host:port/eureka/ in its eureka.client.serviceUrl.defaultZone)."
                + " Refusals from this caller are logged at most every " + QUIET.toMinutes() + " minutes"
                + (notLogged[0] > 0 ? " (" + notLogged[0] + " more since the last line)" : ""));
        return true;
    }

    private static String who(String name, int status) {
        if (name == null) {
            return "it sent no credentials, HTTP " + status;
        }
        return status == 401 ? "user '" + name + "': wrong password or no such user, HTTP 401"
                : "user '" + name + "' lacks the eureka-peer role, HTTP " + status;
    }

    /** Printable characters only, and not too many of them: the name comes from the caller. */
    private static String clean(String user) {
        StringBuilder out = new StringBuilder();
        user.codePoints().limit(MAX_NAME).forEach(c -> out.appendCodePoint(c < 0x20 || c == 0x7f ? '?' : c));
        return out.toString();
    }
}
