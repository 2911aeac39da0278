package io.muster.web;

import io.muster.api.Reply;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;

import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A full or delta fetch with {@code waitForChangeAfter}: parked without a thread until the registry's sequence
 * passes the client's index or its timeout ends, then answered on a container thread (the answer may be a large
 * registry; the dispatcher must not write it), a large answer by non-blocking writes ({@link BodyWriter}).
 *
 * <p>Thread safety: {@link #answer} runs at most once (guarded by the done flag).
 */
final class WaitingFetch implements AsyncListener {
    private static final Logger LOG = Logger.getLogger(WaitingFetch.class.getName());
    /** How long an answer may take to write, beyond the wait: the async timeout is the wait plus this. */
    static final long ANSWER_MILLIS = 300_000;
    private final AsyncContext context;
    private final BodyWriter bodies;
    /** The writer of a large answer, which gets this request's async events once it is set. */
    private volatile NonBlockingBody body;
    private final long index;
    private final long deadlineNanos;
    private final Supplier<Reply> reply;
    private final Runnable onDone;
    private final java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();

    WaitingFetch(AsyncContext context, BodyWriter bodies, long index, long deadlineNanos, Supplier<Reply> reply,
                 Runnable onDone) {
        this.context = context;
        this.bodies = bodies;
        this.index = index;
        this.deadlineNanos = deadlineNanos;
        this.reply = reply;
        this.onDone = onDone;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    boolean isDue(long sequence, long now) {
        return sequence > index || now - deadlineNanos >= 0;
    }

    boolean isDone() {
        return done.get();
    }

    /** Answers with the registry as it is now (the same answer as without waiting, newer than the index if any). */
    void answer() {
        if (!done.compareAndSet(false, true)) {
            return;
        }
        onDone.run();
        try {
            context.start(() -> {
                try {
                    body = bodies.writeAndComplete(context, reply.get());
                } catch (Exception e) {
                    LOG.log(Level.FINE, "Muster: a waiting fetch could not be answered", e);
                    try {
                        context.complete();
                    } catch (IllegalStateException ignored) {
                        // already completed
                    }
                }
            });
        } catch (RuntimeException e) {
            // the client went away and the container completed the request already
        }
    }

    /** Ends without an answer (server shutdown or the client went away). */
    void abandon() {
        if (done.compareAndSet(false, true)) {
            onDone.run();
            try {
                context.complete();
            } catch (RuntimeException ignored) {
                // already completed
            }
        }
    }

    @Override
    public void onComplete(AsyncEvent event) {
        if (done.compareAndSet(false, true)) {
            onDone.run();
        }
        NonBlockingBody b = body;
        if (b != null) {
            b.onComplete(event);
        }
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        NonBlockingBody b = body;
        if (b != null) {
            b.onTimeout(event);   // the answer took its client too long
        } else {
            answer();
        }
    }

    @Override
    public void onError(AsyncEvent event) {
        NonBlockingBody b = body;
        if (b != null) {
            b.onError(event);
        }
        abandon();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // not restarted
    }
}
