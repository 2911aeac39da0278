package io.muster.web;

import io.muster.changes.ChangeEvent;
import io.muster.changes.ChangeLog;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One open {@code /api/changes} stream. It holds no queue of its own: its position in the {@link ChangeLog} is
 * its queue, so an idle stream costs a few objects and no thread. Written only by the dispatcher thread, and
 * only when the container says a write will not block; a client that falls further behind than the allowed
 * backlog is dropped (it reconnects with {@code Last-Event-ID} and learns whether it must start over). A dropped
 * stream is not completed at once: completing a response the client does not read makes a container thread flush
 * it, blocking until the write timeout (Tomcat's {@code flushBlocking}). It is left to the container's write
 * timeout instead, and completed only after {@link #DROP_GRACE_NANOS}, by when there is nothing left to flush;
 * it keeps its slot until then, so a client that stalls streams on purpose spends its own share.
 *
 * <p>Thread safety: {@link #pump} runs on the dispatcher thread only. It writes while holding {@link #lock}, and
 * the container's callbacks that end the stream take the same lock before they return: once the container has
 * told us the request is over (and may recycle its response for another connection), no write is under way and
 * none starts. Without it a write racing the client's disconnect landed on a recycled response (a heap dump of
 * Tomcat kept its broken-pipe exception, holding the undeployed WAR's class loader). The writes under the lock
 * never block: they happen only when the container says the connection is ready.
 */
final class SseConnection implements WriteListener, AsyncListener {
    private static final byte[] RESET = "event: reset\ndata: {}\n\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] HEARTBEAT = ": heartbeat\n\n".getBytes(StandardCharsets.UTF_8);
    private static final int BATCH = 256;
    /**
     * At most this much per write: a container that reports a connection ready takes a whole write however large
     * (Payara queues it in the heap), so a large batch would let a client that reads nothing hold that much more.
     */
    private static final int MAX_CHUNK_BYTES = 64 * 1024;
    /** Longer than the containers' default write timeouts (Tomcat's connectionTimeout is 20 s). */
    static final long DROP_GRACE_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(30);

    private final AsyncContext context;
    private final ServletOutputStream out;
    private final String app;
    private final String vip;
    private final Runnable wake;
    private final Runnable onDrop;
    private final Runnable onClose;
    private long position;            // the last event id this client has been sent (or skipped)
    private boolean resetPending;
    private boolean needsFlush = true; // the headers and the retry hint go out at once
    /** Guards {@link #closed} against the writes; see the class comment. */
    private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
    private volatile boolean closed;
    /** The preamble is out and the write listener set ({@link #begin}); before that the dispatcher leaves it. */
    private boolean started;
    /** Dropped for falling behind, and when (the dispatcher's nanosecond time); written on its thread only. */
    private boolean dropped;
    private long droppedAt;

    /**
     * @param resumeFrom the client's Last-Event-ID, or -1 to start from the present
     * @param onDrop     told when the stream is dropped for falling behind
     */
    SseConnection(AsyncContext context, ServletOutputStream out, String app, String vip, long resumeFrom,
                  ChangeLog log, Runnable wake, Runnable onDrop, Runnable onClose) {
        this.context = context;
        this.out = out;
        this.app = app;
        this.vip = vip;
        this.wake = wake;
        this.onDrop = onDrop;
        this.onClose = onClose;
        long last = log.lastId();
        this.position = resumeFrom < 0 ? last : resumeFrom;
        this.resetPending = resumeFrom >= 0 && log.after(resumeFrom, 1) == null;
        if (resetPending) {
            position = last;
        }
    }

    /**
     * Sends the first bytes and hands the stream to the dispatcher, on the request's thread (writes are blocking
     * and allowed until the write listener is set). Under the lock: the dispatcher may already see the stream.
     */
    void begin(byte[] preamble) throws IOException {
        lock.lock();
        try {
            out.write(preamble);
            out.setWriteListener(this);
            started = true;
        } finally {
            lock.unlock();
        }
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * Sends what is pending, if the client can take it now.
     *
     * @param heartbeat whether a quiet stream should get a comment now
     * @param backlog   the most events a client may be behind before it is dropped
     * @param now       the dispatcher's time, in nanoseconds (as {@link System#nanoTime})
     */
    void pump(ChangeLog log, boolean heartbeat, int backlog, long now) {
        lock.lock();
        try {
            pumpLocked(log, heartbeat, backlog, now);
        } finally {
            lock.unlock();
        }
    }

    private void pumpLocked(ChangeLog log, boolean heartbeat, int backlog, long now) {
        if (closed || !started) {
            return;
        }
        if (dropped) {
            if (now - droppedAt > DROP_GRACE_NANOS) {
                close();
            }
            return;
        }
        try {
            if (!out.isReady()) {
                if (log.lastId() - position > backlog) {
                    dropped = true;   // slow or stuck: no more events for it
                    droppedAt = now;
                    onDrop.run();
                }
                return;
            }
            ByteArrayOutputStream chunk = new ByteArrayOutputStream(256);
            if (resetPending) {
                chunk.write(RESET);
                resetPending = false;
            }
            List<ChangeEvent> events = log.after(position, BATCH);
            if (events == null) {     // fell out of the window while it could not write
                chunk.write(RESET);
                position = log.lastId();
            } else {
                boolean more = events.size() == BATCH;
                for (ChangeEvent e : events) {
                    if (chunk.size() >= MAX_CHUNK_BYTES) {
                        more = true;
                        break;
                    }
                    if (e.matches(app, vip)) {
                        chunk.write(e.sse());
                    }
                    position = e.id();
                }
                if (more) {
                    wake.run();   // more to send: come back after the other streams had their turn
                }
            }
            if (chunk.size() == 0 && heartbeat) {
                chunk.write(HEARTBEAT);
            }
            if (chunk.size() > 0) {
                out.write(chunk.toByteArray());
                needsFlush = true;
            }
            if (needsFlush && out.isReady()) {
                out.flush();
                needsFlush = false;
            }
        } catch (IOException | RuntimeException e) {
            close();   // the client went away
        }
    }

    /** Ends the stream (server shutdown, a dropped slow client, a failed write). */
    void close() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                onClose.run();
                try {
                    context.complete();
                } catch (RuntimeException ignored) {
                    // already completed by the container (the client disconnected)
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** The container ended the request: waits for a write under way, and no other starts. */
    private void gone() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                onClose.run();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onWritePossible() {
        wake.run();
    }

    @Override
    public void onError(Throwable t) {
        gone();
    }

    @Override
    public void onComplete(AsyncEvent event) {
        gone();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        close();
    }

    @Override
    public void onError(AsyncEvent event) {
        close();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // not restarted
    }
}
