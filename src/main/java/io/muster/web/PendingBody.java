package io.muster.web;

import io.muster.api.Reply;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The rest of one request body, read by the container's callbacks as it arrives; once it is whole the request is
 * served on the callback's thread. It ends one way only, whichever comes first: served, refused (the byte budget
 * has no room for it to grow), timed out (408) or failed (the client went away); the slot and bytes it held are
 * released then. A body past its bound is answered 413 and the rest of it read and dropped,
 * up to a limit, before the request ends.
 *
 * <p>Thread safety: the container calls the read callbacks for one request at a time; the timeout may come on
 * another thread, and the done flag decides which of them ends the request. The bytes held are charged and
 * released under this object's lock.
 */
final class PendingBody implements ReadListener, AsyncListener {
    private static final Logger LOG = Logger.getLogger(PendingBody.class.getName());
    /** Read and dropped after a 413 at most (as much as the handlers dropped when they read bodies themselves). */
    private static final long DRAIN_LIMIT = 32L << 20;
    private final BodyIntake intake;
    private final AsyncContext context;
    private final ServletInputStream in;
    private final ArrivingBody body;
    private final String client;
    private final BodyIntake.Next next;
    private final AtomicBoolean done = new AtomicBoolean();
    /** Bytes taken from the intake's budget: the array's length, as it grows. Guarded by this. */
    private int held;
    /** After a 413 answered: the rest of the body is read and dropped (only by the read callbacks). */
    private volatile boolean draining;
    private long drained;
    private byte[] scratch;

    PendingBody(BodyIntake intake, AsyncContext context, ServletInputStream in, ArrivingBody body, String client,
                BodyIntake.Next next) {
        this.intake = intake;
        this.context = context;
        this.in = in;
        this.body = body;
        this.client = client;
        this.next = next;
        this.held = body.capacity();
    }

    @Override
    public void onDataAvailable() throws IOException {
        if (draining) {
            drain();
            return;
        }
        while (!done.get() && !body.isWhole() && in.isReady()) {
            if (body.isFull() && !grow()) {
                return;
            }
            body.readOnce(in);
        }
        if (body.isWhole()) {
            serve();
        }
    }

    /** Takes the next array's bytes from the budget; refuses the request when there is no room. */
    private boolean grow() {
        int capacity = body.nextCapacity();
        int more = capacity - body.capacity();
        if (!charge(more)) {
            end(Reply.text(503, "too many request bodies arriving: the server's byte limit is reached")
                    .withHeaders(Map.of("Retry-After", "2")));
            return false;
        }
        body.growTo(capacity);
        return true;
    }

    /** Under the lock release takes, so bytes are never charged after the request ended (they would leak). */
    private synchronized boolean charge(int more) {
        if (done.get() || !intake.grow(more)) {
            return false;
        }
        held += more;
        return true;
    }

    @Override
    public void onAllDataRead() {
        if (draining) {
            complete();
        } else {
            serve();
        }
    }

    private void serve() {
        if (!release()) {
            return;
        }
        HttpServletRequest req = (HttpServletRequest) context.getRequest();
        HttpServletResponse rsp = (HttpServletResponse) context.getResponse();
        try {
            next.done(body.request(req, rsp), rsp);
            if (body.isOverBound() && rsp.getStatus() == HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE
                    && !in.isFinished()) {
                rsp.flushBuffer();
                draining = true;
                drain();
                return;
            }
        } catch (Exception e) {
            // the front door answers its own failures; this is what escaped it (the client went away mid-answer)
            LOG.log(Level.FINE, "a request with a late body could not be answered", e);
        }
        complete();
    }

    /**
     * After a 413: reads and drops what the client still sends, up to {@link #DRAIN_LIMIT}, then ends the request
     * (the answer said the connection closes). A client that sends its whole body before it reads (as Java's
     * HttpClient does) would otherwise never see the answer. Any other answer to a body past its bound (a refusal
     * of access to a stranger's oversized batch) ends the request at once: Payara's Grizzly, read on after such an
     * answer, finished the response a second time and dropped the connection.
     */
    private void drain() throws IOException {
        if (scratch == null) {
            scratch = new byte[8192];
        }
        while (in.isReady()) {
            int n = in.read(scratch);
            drained += Math.max(n, 0);
            if (n < 0 || drained > DRAIN_LIMIT) {
                complete();
                return;
            }
        }
    }

    @Override
    public void onError(Throwable t) {
        if (draining) {
            complete();
        } else if (release()) {
            BodyIntake.answered(next, (HttpServletResponse) context.getResponse());
            complete();
        }
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        if (draining) {
            complete();
            return;
        }
        end(Reply.text(408, "the request body did not arrive within " + event.getAsyncContext().getTimeout() / 1000
                + " s"));
    }

    @Override
    public void onError(AsyncEvent event) {
        onError(event.getThrowable());
    }

    @Override
    public void onComplete(AsyncEvent event) {
        release();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // not restarted
    }

    private void end(Reply reply) {
        if (release()) {
            BodyIntake.answerAndClose(context, reply, next);
        }
    }

    /** True for the one caller that ends the request. */
    private synchronized boolean release() {
        if (!done.compareAndSet(false, true)) {
            return false;
        }
        intake.release(client, held);
        return true;
    }

    private void complete() {
        try {
            context.complete();
        } catch (IllegalStateException ignored) {
            // the container completed it already (the client went away)
        }
    }
}
