package io.muster.registry;

/**
 * A registration the registry refuses because a registry-wide cap is reached, not because the instance is bad:
 * the HTTP layer answers 503 with {@code Retry-After}, a peer batch item gets 503. The message names the setting.
 * Thrown before anything changes.
 */
public final class RegistryFullException extends RuntimeException {
    private final Refusal reason;

    public RegistryFullException(Refusal reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public Refusal reason() {
        return reason;
    }
}
