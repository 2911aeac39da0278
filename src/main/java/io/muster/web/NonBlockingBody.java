package io.muster.web;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A large body written only as fast as the client takes it, by the container's write callbacks: no thread waits
 * while a slow or stalled client holds the connection. The request is completed only once the last byte was
 * accepted without blocking, so completing never makes a container thread flush to a client that does not read;
 * a client that stops reading is ended by the container's write timeout (its error callback), or by the async
 * timeout as a backstop.
 *
 * <p>Thread safety: the container calls {@link #onWritePossible} for one request at a time; the done flag makes
 * the release run once, whichever callback comes first.
 */
final class NonBlockingBody implements WriteListener, AsyncListener {
    /** As large as a socket buffer takes at once, small enough that one write never waits for long. */
    private static final int CHUNK = 64 * 1024;
    private final AsyncContext context;
    private final ServletOutputStream out;
    private final byte[] body;
    private final Runnable release;
    private final AtomicBoolean done = new AtomicBoolean();
    private int position;

    NonBlockingBody(AsyncContext context, ServletOutputStream out, byte[] body, Runnable release) {
        this.context = context;
        this.out = out;
        this.body = body;
        this.release = release;
    }

    @Override
    public void onWritePossible() throws IOException {
        while (out.isReady()) {
            if (position == body.length) {
                finish();
                context.complete();
                return;
            }
            int n = Math.min(CHUNK, body.length - position);
            out.write(body, position, n);
            position += n;
        }
    }

    private void finish() {
        if (done.compareAndSet(false, true)) {
            release.run();
        }
    }

    @Override
    public void onError(Throwable t) {
        finish();   // the client went away or the write timed out; the container ends the request
    }

    @Override
    public void onComplete(AsyncEvent event) {
        finish();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        finish();
        try {
            context.complete();
        } catch (IllegalStateException ignored) {
            // already completed
        }
    }

    @Override
    public void onError(AsyncEvent event) {
        finish();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // not restarted
    }
}
