package io.muster.web;

import io.muster.api.Reply;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Takes request bodies into memory before any handler runs, so that no container thread waits for a client to
 * send one. A body that arrived with its headers (an ordinary registration, a peer's batch on a quick network) is
 * read at once, without blocking; the rest of one that did not is read by the container's read callbacks
 * ({@link PendingBody}) while the request thread goes back to the pool. Without this, a few hundred connections
 * that declare a body and send a byte would hold every container thread, and every other client's heartbeats
 * would wait for them.
 *
 * <p>What pending bodies hold is bounded: a number in all and per client address (beyond its share a client gets
 * 503 with Retry-After), their bytes together (a share of the heap), their time (a body not all there within the
 * deadline gets 408), and each body's size (one byte past its bound, the handler answers 413). Every refusal
 * closes the connection without reading the rest of the body: the request is in non-blocking mode by then, so the
 * container does not swallow what the client still sends on a request thread either.
 *
 * <p>Thread safety: the shares and the byte budget are lock-free; each pending body is owned by its callbacks.
 */
final class BodyIntake {
    /** What comes after, called once for every request taken, on a container thread. */
    @FunctionalInterface
    interface Next {
        /**
         * @param withBody the request, its body now in memory; null when the intake answered it itself (refused,
         *                 timed out, or the client went away)
         */
        void done(HttpServletRequest withBody, HttpServletResponse rsp) throws IOException;
    }

    private static final ReadListener IGNORE = new ReadListener() {
        @Override
        public void onDataAvailable() {
            // the request is refused: what it still sends is dropped with its connection
        }

        @Override
        public void onAllDataRead() {
            // as above
        }

        @Override
        public void onError(Throwable t) {
            // as above
        }
    };

    /**
     * How long a request body may take to arrive whole: a registration is one packet, a batch a few. Under the
     * containers' connection timeouts (20 s on Tomcat), so the client hears 408 before its connection is dropped.
     */
    static final long TIMEOUT_MILLIS = 15_000;
    /**
     * Request bodies still arriving, in all and from one address: clients send one write at a time, and a body that
     * does not come with its headers is rare outside slow links and attacks.
     */
    static final int MAX_PENDING = 1_000;
    static final int MAX_PENDING_PER_CLIENT = 32;
    static final int MAX_HEAP_PERCENT = 10;

    private final ClientAllowance allowance;
    private final long timeoutMillis;
    private final LongAdder waited = new LongAdder();

    /**
     * @param maxPending          bodies arriving together
     * @param maxPendingPerClient of them from one client address
     * @param maxBytes            the bytes they may hold together
     * @param timeoutMillis       how long one may take to arrive whole
     */
    BodyIntake(int maxPending, int maxPendingPerClient, long maxBytes, long timeoutMillis) {
        this.allowance = new ClientAllowance(maxPending, maxPendingPerClient, maxBytes);
        this.timeoutMillis = timeoutMillis;
    }

    /** With the bounds above, the heap share of the JVM's largest heap. */
    static BodyIntake withDefaults() {
        return new BodyIntake(MAX_PENDING, MAX_PENDING_PER_CLIENT,
                Runtime.getRuntime().maxMemory() / 100 * MAX_HEAP_PERCENT, TIMEOUT_MILLIS);
    }

    /** True when the request carries a body (a declared length above zero, or chunked). */
    static boolean hasBody(HttpServletRequest req) {
        long declared = req.getContentLengthLong();
        return declared > 0 || declared < 0 && req.getHeader("Transfer-Encoding") != null;
    }

    /**
     * Reads the body, at most {@code limit + 1} bytes of it, and calls {@code next} once it is in memory: at once
     * when it is all there already, otherwise from the container's read callbacks.
     */
    void take(HttpServletRequest req, HttpServletResponse rsp, int limit, Next next) throws IOException {
        long declared = req.getContentLengthLong();
        ServletInputStream in = req.getInputStream();
        ArrivingBody body = new ArrivingBody(declared, limit);
        boolean whole = body.readArrived(in);
        if (whole || !req.isAsyncSupported() || req.isAsyncStarted()) {
            if (!whole) {
                body.readRest(in);   // no async here (another filter's dispatch): the old, blocking way
            }
            next.done(body.request(req, rsp), rsp);
            return;
        }
        waited.increment();
        String client = req.getRemoteAddr();
        String refused = acquire(client, body.capacity());
        if (refused != null) {
            refuseUnread(req, rsp, Reply.text(503, "too many request bodies arriving: " + refused)
                    .withHeaders(Map.of("Retry-After", "2")), next);
            return;
        }
        AsyncContext context = req.startAsync();
        context.setTimeout(timeoutMillis);
        PendingBody pending = new PendingBody(this, context, in, body, client, next);
        context.addListener(pending);
        in.setReadListener(pending);
    }

    /**
     * Refuses a request without reading its body: the answer says the connection closes, and the request is put in
     * non-blocking mode first, since Tomcat would otherwise read and drop the rest (up to 2 MB, or until its
     * connection timeout) on the request thread.
     */
    static void refuseUnread(HttpServletRequest req, HttpServletResponse rsp, Reply reply, Next next)
            throws IOException {
        if (!req.isAsyncSupported() || req.isAsyncStarted()) {
            rsp.setHeader("Connection", "close");
            FrontDoor.write(rsp, reply);
            answered(next, rsp);
            return;
        }
        AsyncContext context = req.startAsync();
        req.getInputStream().setReadListener(IGNORE);
        answerAndClose(context, reply, next);
    }

    /** Writes the intake's own answer, closes the connection and ends the request. */
    static void answerAndClose(AsyncContext context, Reply reply, Next next) {
        HttpServletResponse rsp = (HttpServletResponse) context.getResponse();
        try {
            if (!rsp.isCommitted()) {
                rsp.setHeader("Connection", "close");
                FrontDoor.write(rsp, reply);
            }
        } catch (IOException | RuntimeException e) {
            // the client is gone; nothing is left to tell it
        } finally {
            answered(next, rsp);
            try {
                context.complete();
            } catch (IllegalStateException ignored) {
                // already completed by the container (the client went away)
            }
        }
    }

    /** Tells {@code next} the intake answered; what it throws then has no client left to hear it. */
    static void answered(Next next, HttpServletResponse rsp) {
        try {
            next.done(null, rsp);
        } catch (IOException | RuntimeException e) {
            // recording only
        }
    }

    String acquire(String client, int bytes) {
        return allowance.acquire(client, bytes);
    }

    /** Room for a body to grow by; false when the budget has none. */
    boolean grow(int bytes) {
        return allowance.grow(bytes);
    }

    void release(String client, int bytes) {
        allowance.release(client, bytes);
    }

    /** Bodies that did not arrive with their headers, since the start. */
    long waited() {
        return waited.sum();
    }

    /** Bodies arriving now. */
    int pending() {
        return allowance.used();
    }
}
