package io.muster.codec;

/** A body that is not a valid Eureka payload. The message is short and safe to return to the client. */
public class WireFormatException extends RuntimeException {
    public WireFormatException(String message) {
        super(message);
    }

    public WireFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
