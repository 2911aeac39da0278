package io.muster.registry;

/** A write the registry refuses because a client could not read the result back; the message is one line. */
public final class InvalidInstanceException extends RuntimeException {
    public InvalidInstanceException(String message) {
        super(message, null, false, false);
    }
}
