package io.muster.registry;

/**
 * A replicated registration refused because this node cancelled the instance after the version it carries (see
 * {@link Tombstones}): applying it would bring a cancelled instance back. Nothing changes.
 */
public final class CancelledHereException extends RuntimeException {
    public CancelledHereException(String message) {
        super(message, null, false, false);
    }
}
