package io.muster.registry;

/**
 * A write the registry refuses because of what it carries (a 400 for the client, a per-item 400 in a peer batch).
 * The message is one line, safe to show to the client, and names the setting when a limit was hit. Thrown before
 * anything changes.
 */
public final class InvalidInstanceException extends RuntimeException {
    private final Refusal reason;

    public InvalidInstanceException(Refusal reason, String message) {
        super(message, null, false, false);   // a client error: no stack trace to fill or log
        this.reason = reason;
    }

    public Refusal reason() {
        return reason;
    }
}
