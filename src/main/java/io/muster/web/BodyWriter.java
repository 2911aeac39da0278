package io.muster.web;

import io.muster.api.Reply;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.Map;

/**
 * Writes answers so that no container thread waits on a slow client: a body of at least {@code minBytes} goes out
 * by non-blocking writes ({@link NonBlockingBody}) while the request thread returns to the pool; smaller ones are
 * written at once, as they fit in the socket's buffer. Large answers in flight are bounded in total and per client
 * address, so clients that never read cannot hold every connection's worth of answers; beyond its share a client
 * gets 503 with Retry-After. (On Tomcat, cached bodies above {@code sendfileMinBytes} go by sendfile instead, which
 * the connector also writes without a request thread.)
 *
 * <p>The bytes in flight are bounded too: Payara's connector (Grizzly) reports a connection ready until it has
 * queued about four socket buffers (up to 16 MB on Linux), copying each write into its heap, so a client that
 * reads nothing costs the heap up to its whole answer. Each large answer holds its length from a budget until it
 * ends; Tomcat copies one write's worth at most, so there the budget is never what limits.
 *
 * <p>Thread safety: stateless apart from the shares and the budget, which are lock-free.
 */
final class BodyWriter {
    private final int minBytes;
    private final ClientAllowance allowance;
    private final long timeoutMillis;

    /**
     * @param minBytes      the smallest body written without blocking; 0 writes every body at once
     * @param maxBytes      the most bytes of large answers in flight together
     * @param timeoutMillis how long a large answer may take in all, a backstop for clients that read a trickle
     */
    BodyWriter(int minBytes, int maxOpen, int maxOpenPerClient, long maxBytes, long timeoutMillis) {
        this.minBytes = minBytes;
        this.allowance = new ClientAllowance(maxOpen, maxOpenPerClient, maxBytes);
        this.timeoutMillis = timeoutMillis;
    }

    /** Answers the request; a large body leaves it async, to be completed once the client took the last byte. */
    void write(HttpServletRequest req, HttpServletResponse rsp, Reply reply) throws IOException {
        if (!isLarge(reply) || !req.isAsyncSupported() || req.isAsyncStarted()) {
            FrontDoor.write(rsp, reply);
            return;
        }
        String client = req.getRemoteAddr();
        String refused = acquire(client, reply.body().length);
        if (refused != null) {
            FrontDoor.write(rsp, busy(refused));
            return;
        }
        AsyncContext context = req.startAsync();
        context.setTimeout(timeoutMillis);
        NonBlockingBody body = start(context, rsp, reply, client);
        context.addListener(body);
    }

    /**
     * Answers a request that is already async (a parked fetch, answered on a container thread) and completes it,
     * now or once a large body is written; the caller's async listener must forward its events to the returned
     * writer (listeners cannot be added after the dispatch that started the async request).
     *
     * @return the writer of a large body, or null when the request is already completed
     */
    NonBlockingBody writeAndComplete(AsyncContext context, Reply reply) throws IOException {
        HttpServletResponse rsp = (HttpServletResponse) context.getResponse();
        String client = context.getRequest().getRemoteAddr();
        String refused = isLarge(reply) ? acquire(client, reply.body().length) : "";
        if (refused != null) {
            try {
                FrontDoor.write(rsp, refused.isEmpty() ? reply : busy(refused));
            } finally {
                context.complete();
            }
            return null;
        }
        return start(context, rsp, reply, client);
    }

    private NonBlockingBody start(AsyncContext context, HttpServletResponse rsp, Reply reply, String client)
            throws IOException {
        FrontDoor.writeHeaders(rsp, reply);
        ServletOutputStream out = rsp.getOutputStream();
        int length = reply.body().length;
        NonBlockingBody body = new NonBlockingBody(context, out, reply.body(), () -> release(client, length));
        out.setWriteListener(body);
        return body;
    }

    private String acquire(String client, int length) {
        return allowance.acquire(client, length);
    }

    private void release(String client, int length) {
        allowance.release(client, length);
    }

    private boolean isLarge(Reply reply) {
        return minBytes > 0 && reply.body().length >= minBytes;
    }

    private static Reply busy(String why) {
        return Reply.text(503, "too many large answers in flight: " + why
                + " (eureka.server.largeWrites.*)")
                .withHeaders(Map.of("Retry-After", "2"));
    }

    /** Large answers being written now. */
    int inFlight() {
        return allowance.used();
    }
}
