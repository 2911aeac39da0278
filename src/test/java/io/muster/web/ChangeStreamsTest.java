package io.muster.web;

import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dispatcher's timing policies (heartbeats, the waits' timeouts, the grace before a dropped stream is ended),
 * driven round by round with a clock of the test's own: the dispatcher thread is never started.
 */
class ChangeStreamsTest {
    private static final Duration HEARTBEAT = Duration.ofSeconds(15);
    /** The test's nanosecond clock, as {@link System#nanoTime}: moved by hand only. */
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final InstanceRegistry registry = new InstanceRegistry(MutableClock.atEpochMillis(1_700_000_000_000L),
            Duration.ofMinutes(3));
    private final ChangeStreams streams = new ChangeStreams(new ChangeStreams.Limits(100, 100, HEARTBEAT, 1_000, 2),
            registry::sequence, nanos::get);

    ChangeStreamsTest() {
        registry.addListener(streams.log());
    }

    private long advance(Duration d) {
        return nanos.addAndGet(d.toNanos());
    }

    private long now() {
        return nanos.get();
    }

    @Test
    void aQuietStreamGetsAHeartbeatOnceEveryHeartbeatPeriod() throws IOException {
        FakeExchange stream = new FakeExchange();
        streams.openStream(stream.request(), stream.response());
        streams.dispatch(now());
        stream.out.sent.reset();   // the preamble

        streams.dispatch(advance(HEARTBEAT.minusMillis(1)));
        assertThat(stream.out.text()).as("not yet due").isEmpty();
        streams.dispatch(advance(Duration.ofMillis(1)));
        assertThat(stream.out.text()).isEqualTo(": heartbeat\n\n");
        stream.out.sent.reset();
        streams.dispatch(advance(HEARTBEAT.minusMillis(1)));
        assertThat(stream.out.text()).as("the next one a whole period later").isEmpty();
        streams.dispatch(advance(Duration.ofMillis(1)));
        assertThat(stream.out.text()).isEqualTo(": heartbeat\n\n");
    }

    @Test
    void aWaitingFetchIsAnsweredAtItsTimeoutAndTheDispatcherWakesForIt() throws IOException {
        FakeExchange fetch = new FakeExchange();
        streams.waitForChange(fetch.request(), fetch.response(), null, registry.sequence(), Duration.ofSeconds(5),
                () -> null);

        long wakeAt = streams.dispatch(advance(Duration.ofMillis(4_999)));
        assertThat(fetch.answered).as("still waiting").isFalse();
        assertThat(streams.waitingFetches()).isEqualTo(1);
        assertThat(wakeAt - now()).as("woken for the deadline, before the heartbeat")
                .isEqualTo(Duration.ofMillis(1).toNanos());
        streams.dispatch(advance(Duration.ofMillis(1)));
        assertThat(fetch.answered).isTrue();
        assertThat(streams.waitingFetches()).isZero();
    }

    @Test
    void aStreamDroppedForFallingBehindIsEndedOnlyAfterTheGrace() throws IOException {
        FakeExchange stream = new FakeExchange();
        streams.openStream(stream.request(), stream.response());
        stream.out.ready = false;   // the client reads nothing
        for (int i = 0; i < 3; i++) {
            registry.register(Instances.up("APP", "i-" + i), Origin.CLIENT);   // past the backlog of 2
        }
        streams.dispatch(now());
        assertThat(streams.dropped()).isEqualTo(1);
        assertThat(stream.completed).as("left to the container's write timeout").isFalse();

        streams.dispatch(advance(Duration.ofNanos(SseConnection.DROP_GRACE_NANOS)));
        assertThat(stream.completed).isFalse();
        assertThat(streams.streams()).as("it keeps its slot").isEqualTo(1);
        streams.dispatch(advance(Duration.ofNanos(1)));
        assertThat(stream.completed).isTrue();
        assertThat(streams.streams()).isZero();
    }

    /** One request and its response, as far as the streams use them. */
    private static final class FakeExchange {
        final FakeOut out = new FakeOut();
        boolean completed;
        boolean answered;

        HttpServletRequest request() {
            AsyncContext async = proxy(AsyncContext.class, (name, args) -> switch (name) {
                case "complete" -> {
                    completed = true;
                    yield null;
                }
                case "start" -> {
                    answered = true;   // the answer itself runs on a container thread
                    yield null;
                }
                case "setTimeout", "addListener" -> null;
                default -> throw new UnsupportedOperationException(name);
            });
            return proxy(HttpServletRequest.class, (name, args) -> switch (name) {
                case "getHeader", "getParameter" -> null;
                case "getMethod" -> "GET";
                case "getRemoteAddr" -> "10.0.0.1";
                case "startAsync" -> async;
                default -> throw new UnsupportedOperationException(name);
            });
        }

        HttpServletResponse response() {
            return proxy(HttpServletResponse.class, (name, args) -> switch (name) {
                case "setStatus", "setContentType", "setHeader" -> null;
                case "getOutputStream" -> out;
                default -> throw new UnsupportedOperationException(name);
            });
        }
    }

    private interface Answer {
        Object answer(String method, Object[] args);
    }

    private static <T> T proxy(Class<T> type, Answer answer) {
        return type.cast(Proxy.newProxyInstance(ChangeStreamsTest.class.getClassLoader(), new Class<?>[] {type},
                (p, method, args) -> answer.answer(method.getName(), args)));
    }

    private static final class FakeOut extends ServletOutputStream {
        final ByteArrayOutputStream sent = new ByteArrayOutputStream();
        boolean ready = true;

        String text() {
            return sent.toString(StandardCharsets.UTF_8);
        }

        @Override
        public boolean isReady() {
            return ready;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            // the test pumps by hand
        }

        @Override
        public void write(int b) {
            sent.write(b);
        }
    }
}
