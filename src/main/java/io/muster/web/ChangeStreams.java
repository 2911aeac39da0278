package io.muster.web;

import io.muster.api.Reply;
import io.muster.changes.ChangeLog;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The open change streams and waiting fetches, and the one thread that serves them all: woken by every registry
 * change (and by a stream the container says can take more), it sends each stream what it has not seen and
 * answers the fetches whose wait is over. Streams and waiting fetches are held as async requests, so thousands of
 * them cost memory, not threads; together they are capped, and a request beyond the cap gets 503.
 *
 * <p>Thread safety: the sets are concurrent; streams are written on the dispatcher thread only. Time is read
 * from {@code nanos} ({@link System#nanoTime} in production), so that a test can run {@link #dispatch} rounds
 * with a clock of its own instead of the thread.
 */
public final class ChangeStreams implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ChangeStreams.class.getName());
    static final String THREAD_NAME = "muster-changes";
    private static final byte[] PREAMBLE = "retry: 2000\n\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private final ChangeLog log;
    private final Limits limits;
    private final LongSupplier sequence;
    private final Set<SseConnection> streams = ConcurrentHashMap.newKeySet();
    private final Set<WaitingFetch> waiting = ConcurrentHashMap.newKeySet();
    /** Streams and waiting fetches, in all and per client address. */
    private final ClientShares open;
    /** Streams dropped for falling behind, since start. */
    private final java.util.concurrent.atomic.LongAdder dropped = new java.util.concurrent.atomic.LongAdder();
    private final Thread dispatcher;
    private volatile boolean closed;
    /** The time source of the heartbeats, the waits' deadlines and the drop grace, in nanoseconds. */
    private final LongSupplier nanos;
    private final long heartbeatNanos;
    /** When quiet streams get their next heartbeat comment; read and written by the dispatcher only. */
    private long nextHeartbeat;

    /** @param sequence the registry's change sequence (what a waiting fetch waits to see pass its index) */
    public ChangeStreams(Limits limits, LongSupplier sequence) {
        this(limits, sequence, System::nanoTime);
    }

    /** @param nanos a monotonic time in nanoseconds, as {@link System#nanoTime} */
    ChangeStreams(Limits limits, LongSupplier sequence, LongSupplier nanos) {
        this.limits = limits;
        this.sequence = sequence;
        this.nanos = nanos;
        this.heartbeatNanos = limits.heartbeat().toNanos();
        this.nextHeartbeat = nanos.getAsLong() + heartbeatNanos;
        // at most a 32nd of the heap for the window, whatever the instances weigh
        this.log = new ChangeLog(limits.window(), Runtime.getRuntime().maxMemory() / 32, this::wake);
        this.open = new ClientShares(limits.maxOpen(), limits.maxOpenPerClient());
        this.dispatcher = new Thread(this::run, THREAD_NAME);
        this.dispatcher.setDaemon(true);
    }

    /**
     * How many streams and waiting fetches may be open ({@code maxOpen} together, {@code maxOpenPerClient} per
     * client address), how often an idle stream hears a heartbeat comment, how many changes are kept for
     * {@code Last-Event-ID} resumes ({@code window}), and how many events may wait for one slow stream before it is
     * dropped ({@code queue}).
     */
    public record Limits(int maxOpen, int maxOpenPerClient, Duration heartbeat, int window, int queue) {
    }

    /** The registry listener that feeds the streams. */
    public ChangeLog log() {
        return log;
    }

    public void start() {
        dispatcher.start();
    }

    /** Open streams and waiting fetches. */
    public int open() {
        return open.used();
    }

    /** Open streams, without the waiting fetches. */
    public int streams() {
        return streams.size();
    }

    public int waitingFetches() {
        return waiting.size();
    }

    /** Streams dropped since start because their client fell too far behind. */
    public long dropped() {
        return dropped.sum();
    }

    /**
     * Called on every visible change: wakes the dispatcher only when a stream or a waiting fetch is open, since a
     * wake-up costs a futex call on both threads (about a tenth of a registration's CPU) and nobody needs it. Safe
     * against a watcher opening meanwhile: one wakes the dispatcher itself once it is in the sets.
     */
    void wake() {
        if (open.used() > 0 || closed) {
            LockSupport.unpark(dispatcher);
        }
    }

    private boolean admit(String client, HttpServletResponse rsp) throws IOException {
        String refused = closed ? "the server is stopping" : open.acquire(client);
        if (refused != null) {
            FrontDoor.write(rsp, Reply.text(503, "too many open change streams and waiting fetches: " + refused
                    + " (eureka.server.changes.maxOpen, eureka.server.changes.maxOpenPerClient)")
                    .withHeaders(java.util.Map.of("Retry-After", "5")));
            return false;
        }
        return true;
    }

    /** {@code GET /api/changes}: starts an event stream ({@code ?app=}, {@code ?vip=}, {@code Last-Event-ID}). */
    void openStream(HttpServletRequest req, HttpServletResponse rsp) throws IOException {
        long resume = parseId(req.getHeader("Last-Event-ID"));
        if (resume == -2) {
            FrontDoor.write(rsp, Reply.text(400, "Last-Event-ID is not an event id"));
            return;
        }
        rsp.setStatus(200);
        rsp.setContentType("text/event-stream;charset=UTF-8");
        rsp.setHeader("Cache-Control", "no-cache");
        rsp.setHeader("X-Accel-Buffering", "no");   // proxies such as nginx must pass events on at once
        String client = req.getRemoteAddr();
        if ("HEAD".equals(req.getMethod()) || !admit(client, rsp)) {
            return;
        }
        AsyncContext context = req.startAsync();
        context.setTimeout(0);
        ServletOutputStream out = rsp.getOutputStream();
        SseConnection[] self = new SseConnection[1];
        SseConnection c = new SseConnection(context, out, blankToNull(req.getParameter("app")),
                blankToNull(req.getParameter("vip")), resume, log, this::wake, dropped::increment, () -> {
                    if (streams.remove(self[0])) {
                        open.release(client);
                    }
                });
        self[0] = c;
        context.addListener(c);
        streams.add(c);
        c.begin(PREAMBLE);
        wake();
    }

    /**
     * A full or delta fetch with {@code waitForChangeAfter}: answered now when the registry is already past the
     * index, else parked until it is or the timeout ends.
     */
    void waitForChange(HttpServletRequest req, HttpServletResponse rsp, BodyWriter bodies, long index,
                       Duration timeout, Supplier<Reply> reply) throws IOException {
        if (sequence.getAsLong() > index) {
            bodies.write(req, rsp, reply.get());
            return;
        }
        String client = req.getRemoteAddr();
        if (!admit(client, rsp)) {
            return;
        }
        AsyncContext context = req.startAsync();
        // a backstop: the dispatcher answers at the timeout; the answer itself may then take a slow client a while
        context.setTimeout(timeout.toMillis() + WaitingFetch.ANSWER_MILLIS);
        WaitingFetch[] self = new WaitingFetch[1];
        WaitingFetch w = new WaitingFetch(context, bodies, index, nanos.getAsLong() + timeout.toNanos(), reply, () -> {
            if (waiting.remove(self[0])) {
                open.release(client);
            }
        });
        self[0] = w;
        context.addListener(w);
        waiting.add(w);
        wake();   // the change may have come between the check and now
    }

    private void run() {
        while (!closed) {
            try {
                long wakeAt = dispatch(nanos.getAsLong());
                LockSupport.parkNanos(this, Math.max(0, wakeAt - nanos.getAsLong()));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Muster: the change dispatcher failed a round; it goes on", e);
            }
        }
    }

    /**
     * One round of the dispatcher at time {@code now}: sends each stream what it has not seen (a heartbeat comment
     * to quiet ones when one is due), drops or ends the streams that fell behind, and answers the waiting fetches
     * whose registry moved or whose wait is over. Returns when the next round is due without a wake-up.
     */
    long dispatch(long now) {
        boolean heartbeat = now - nextHeartbeat >= 0;
        if (heartbeat) {
            nextHeartbeat = now + heartbeatNanos;
        }
        for (SseConnection c : streams) {
            c.pump(log, heartbeat, limits.queue(), now);
        }
        long seq = sequence.getAsLong();
        long wakeAt = nextHeartbeat;
        for (WaitingFetch w : waiting) {
            if (w.isDue(seq, now)) {
                w.answer();
            } else if (w.deadlineNanos() - wakeAt < 0) {
                wakeAt = w.deadlineNanos();
            }
        }
        return wakeAt;
    }

    /** Ends every stream and waiting fetch and stops the dispatcher (undeploy). */
    @Override
    public void close() {
        closed = true;
        wake();
        try {
            dispatcher.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        streams.forEach(SseConnection::close);
        waiting.forEach(WaitingFetch::abandon);
    }

    /** An event id, -1 when absent, -2 when malformed. */
    static long parseId(String value) {
        if (value == null || value.isBlank()) {
            return -1;
        }
        try {
            long id = Long.parseLong(value.trim());
            return id < 0 ? -2 : id;
        } catch (NumberFormatException e) {
            return -2;
        }
    }

    /** {@code 30s}, {@code 500ms}, {@code 2m} or plain seconds; null when malformed or outside 0..5 minutes. */
    static Duration parseTimeout(String value) {
        if (value == null || value.isBlank()) {
            return Duration.ofSeconds(30);
        }
        String v = value.trim().toLowerCase(java.util.Locale.ROOT);
        try {
            Duration d;
            if (v.endsWith("ms")) {
                d = Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            } else if (v.endsWith("s")) {
                d = Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
            } else if (v.endsWith("m")) {
                d = Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
            } else {
                d = Duration.ofSeconds(Long.parseLong(v));
            }
            return d.isNegative() || d.compareTo(Duration.ofMinutes(5)) > 0 ? null : d;
        } catch (NumberFormatException | ArithmeticException e) {   // ArithmeticException: minutes beyond a Duration
            return null;
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
