package io.muster.registry;

/** A registry-wide cap was reached; the message names the setting. */
public final class RegistryFullException extends RuntimeException {
    public RegistryFullException(String message) {
        super(message, null, false, false);
    }
}
