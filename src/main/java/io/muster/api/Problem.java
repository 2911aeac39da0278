package io.muster.api;

import java.util.Map;

/**
 * A request the server refuses: a status and a one-line message, thrown by an endpoint's rules before anything
 * changes and answered alike on every road.
 */
public final class Problem extends RuntimeException {
    private final transient Reply reply;

    private Problem(Reply reply, String message) {
        super(message, null, false, false);
        this.reply = reply;
    }

    public static Problem of(int status, String message) {
        return new Problem(Reply.text(status, message), message);
    }

    public static Problem badRequest(String message) {
        return of(400, message);
    }

    /** The rest of the body is not read, so the connection cannot carry another request. */
    public static Problem tooLarge(String message) {
        return new Problem(Reply.text(413, message).withHeaders(Map.of("Connection", "close")), message);
    }

    /** A registry-wide limit: clients may try again later, as the header says. */
    public static Problem unavailable(String message, int retryAfterSeconds) {
        return new Problem(Reply.text(503, message).withHeaders(Map.of("Retry-After",
                Integer.toString(retryAfterSeconds))), message);
    }

    public Reply reply() {
        return reply;
    }

    public int status() {
        return reply.status();
    }
}
