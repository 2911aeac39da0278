package io.muster.changes;

import io.muster.model.InstanceStatus;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The recent-changes window, fed by a real registry. */
class ChangeLogTest {
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));
    private final AtomicInteger wakes = new AtomicInteger();
    private final ChangeLog log = new ChangeLog(4, wakes::incrementAndGet);

    ChangeLogTest() {
        registry.addListener(log);
    }

    private static List<String> types(List<ChangeEvent> events) {
        return events.stream().map(e -> e.type() + ":" + e.instance().id()).toList();
    }

    @Test
    void everyVisibleChangeIsAnEventWithTheRegistrySequenceAsItsId() {
        registry.register(Instances.up("APP", "a"), Origin.CLIENT);
        registry.renew("APP", "a", null, null, Origin.CLIENT);   // invisible: no event
        registry.statusUpdate("APP", "a", InstanceStatus.OUT_OF_SERVICE, null, Origin.CLIENT);
        registry.updateMetadata("APP", "a", Map.of("k", "v"));

        List<ChangeEvent> events = log.after(0, 100);

        assertThat(types(events)).containsExactly("registered:a", "status:a", "metadata:a");
        assertThat(events).extracting(ChangeEvent::id).containsExactly(1L, 2L, 3L);
        assertThat(log.lastId()).isEqualTo(registry.sequence());
        assertThat(wakes.get()).isEqualTo(3);
        registry.deleteStatusOverride("APP", "a", InstanceStatus.UP, null, Origin.CLIENT);
        registry.cancel("APP", "a", Origin.CLIENT);
        assertThat(types(log.after(3, 100))).containsExactly("override-deleted:a", "cancelled:a");
    }

    @Test
    void aReaderWithinTheWindowResumesAndOneFurtherBehindMustStartOver() {
        for (int i = 1; i <= 6; i++) {
            registry.register(Instances.up("APP", "i" + i), Origin.CLIENT);
        }
        // the window holds 4: events 3..6
        assertThat(log.after(2, 100)).extracting(ChangeEvent::id).containsExactly(3L, 4L, 5L, 6L);
        assertThat(log.after(1, 100)).as("event 2 is gone").isNull();
        assertThat(log.after(6, 100)).isEmpty();
        assertThat(log.after(7, 100)).as("an id from before a restart").isNull();
        assertThat(log.after(3, 2)).extracting(ChangeEvent::id).containsExactly(4L, 5L);
    }

    @Test
    void largeInstancesShortenTheWindowToItsBytesAndTheNewestIsAlwaysKept() {
        ChangeLog small = new ChangeLog(1_000, 22_000, () -> { });   // about three events of 7 KB
        registry.addListener(small);
        for (int i = 1; i <= 10; i++) {
            registry.register(Instances.sample("BIG", "b" + i).metadata(Map.of("k", "v".repeat(2_000))).build(),
                    Origin.CLIENT);
        }
        List<ChangeEvent> kept = small.after(small.lastId() - 3, 100);
        assertThat(kept).as("three large events fit").isNotNull().hasSize(3);
        assertThat(small.after(0, 100)).as("a reader from before them must start over").isNull();
        ChangeLog tiny = new ChangeLog(1_000, 100, () -> { });
        registry.addListener(tiny);
        registry.register(Instances.up("BIG", "newest"), Origin.CLIENT);
        assertThat(tiny.after(tiny.lastId() - 1, 100)).as("heavier than the whole budget, still kept")
                .extracting(e -> e.instance().id()).containsExactly("newest");
    }

    @Test
    void filtersByAppAndVipAndWritesOneSseEvent() {
        registry.register(Instances.sample("ORDERS", "o1").vipAddress("orders,shop").build(), Origin.CLIENT);
        ChangeEvent e = log.after(0, 1).get(0);

        assertThat(e.matches(null, null)).isTrue();
        assertThat(e.matches("orders", null)).isTrue();
        assertThat(e.matches("BILLING", null)).isFalse();
        assertThat(e.matches(null, "shop")).isTrue();
        assertThat(e.matches(null, "cart")).isFalse();
        String sse = new String(e.sse(), StandardCharsets.UTF_8);
        assertThat(sse).startsWith("id: 1\nevent: registered\ndata: {\"instance\":").endsWith("\n\n");
        assertThat(sse.split("\n\n", -1)).hasSize(2);
        assertThat(sse).contains("\"instanceId\":\"o1\"");
    }
}
