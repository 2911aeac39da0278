package io.muster.api;

import io.muster.registry.CancelledHereException;
import io.muster.registry.InvalidInstanceException;
import io.muster.registry.RegistryFullException;

import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What every road answers for a failure: a {@link Problem}'s own reply, 400 for input the registry refuses, 503
 * with {@code Retry-After} at a registry-wide cap, and for anything unexpected a short 500 whose body is an id that
 * points at the one log entry with the stack trace (never the container's error page).
 */
public final class Failures {
    private static final Logger LOG = Logger.getLogger(Failures.class.getName());
    static final int RETRY_AFTER_SECONDS = 30;

    private Failures() {
    }

    public static Reply toReply(Throwable t) {
        if (t instanceof Problem p) {
            return p.reply();
        }
        if (t instanceof InvalidInstanceException e) {
            return Reply.text(400, e.getMessage());
        }
        if (t instanceof CancelledHereException e) {
            return Reply.text(409, e.getMessage());   // a peer's retry older than a cancel here: nothing changed
        }
        if (t instanceof RegistryFullException e) {
            return Problem.unavailable(e.getMessage(), RETRY_AFTER_SECONDS).reply();
        }
        return unexpected(t);
    }

    private static Reply unexpected(Throwable t) {
        String id = UUID.randomUUID().toString();
        LOG.log(Level.SEVERE, "Unexpected error " + id, t);
        return Reply.text(500, "internal error " + id);
    }
}
