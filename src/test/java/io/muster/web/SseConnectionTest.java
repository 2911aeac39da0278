package io.muster.web;

import io.muster.changes.ChangeLog;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stream and the container's end of the request: once the container's callback that ends the request has
 * returned (after which it recycles the response for other connections), no write of the dispatcher is under way
 * and none starts.
 */
class SseConnectionTest {
    private final InstanceRegistry registry = new InstanceRegistry(MutableClock.atEpochMillis(1_700_000_000_000L),
            Duration.ofMinutes(3));
    private final ChangeLog log = new ChangeLog(100, () -> { });
    private final GatedOut out = new GatedOut();
    private final SseConnection stream = new SseConnection(completeIgnored(), out, null, null, -1, log, () -> { },
            () -> { }, () -> { });

    SseConnectionTest() {
        registry.addListener(log);
    }

    @Test
    void theContainersEndOfTheRequestWaitsForAWriteUnderWayAndNoWriteFollowsIt() throws Exception {
        stream.begin(new byte[0]);
        registry.register(Instances.up("APP", "i-1"), Origin.CLIENT);
        out.writing = new CountDownLatch(1);
        out.gate = new CountDownLatch(1);
        Thread dispatcher = new Thread(() -> stream.pump(log, false, 100, 0), "test-dispatcher");
        dispatcher.start();
        assertThat(out.writing.await(5, TimeUnit.SECONDS)).as("the dispatcher is writing").isTrue();

        AtomicBoolean ended = new AtomicBoolean();
        Thread container = new Thread(() -> {
            stream.onComplete(null);
            ended.set(true);
        }, "test-container");
        container.start();
        container.join(300);
        assertThat(ended).as("onComplete returned while a write was under way").isFalse();

        out.gate.countDown();
        container.join(5_000);
        dispatcher.join(5_000);
        assertThat(ended).isTrue();
        int writes = out.writes;
        registry.register(Instances.up("APP", "i-2"), Origin.CLIENT);
        stream.pump(log, true, 100, 0);
        assertThat(out.writes).as("nothing written after the container ended the request").isEqualTo(writes);
        assertThat(stream.isClosed()).isTrue();
    }

    @Test
    void theDispatcherLeavesAStreamAloneUntilItsPreambleIsOut() throws Exception {
        registry.register(Instances.up("APP", "i-1"), Origin.CLIENT);
        stream.pump(log, true, 100, 0);
        assertThat(out.writes).as("before begin: writes are the request thread's").isZero();
        stream.begin(": hello\n\n".getBytes());
        stream.pump(log, true, 100, 0);
        assertThat(out.sent.toString()).startsWith(": hello\n\n").contains("i-1");
    }

    private static AsyncContext completeIgnored() {
        return (AsyncContext) Proxy.newProxyInstance(SseConnectionTest.class.getClassLoader(),
                new Class<?>[] {AsyncContext.class}, (p, m, a) -> null);
    }

    /** A connection that is always ready; a write waits at {@link #gate} when one is set. */
    private static final class GatedOut extends ServletOutputStream {
        final ByteArrayOutputStream sent = new ByteArrayOutputStream();
        volatile CountDownLatch writing = new CountDownLatch(1);
        volatile CountDownLatch gate;
        volatile int writes;

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            // the test pumps by hand
        }

        @Override
        public void write(int b) {
            write(new byte[]{(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            writes++;
            writing.countDown();
            CountDownLatch g = gate;
            if (g != null) {
                try {
                    g.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            sent.write(b, off, len);
        }
    }
}
