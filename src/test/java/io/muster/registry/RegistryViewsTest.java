package io.muster.registry;

import io.muster.model.ActionType;
import io.muster.model.Application;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The full-registry and delta groups are kept per app and rebuilt only where something changed; through random
 * registrations, status changes, renewals that change status, cancellations, evictions and delta purges they must
 * always equal what reading the registry from scratch gives: every app's instances and the hash of their statuses,
 * and for the delta the last action on every instance changed within the window.
 */
class RegistryViewsTest {
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));
    /** The test's own record of the last action per instance and when: "APP/id" to (millis, action). */
    private final Map<String, Object[]> lastAction = new HashMap<>();

    @Test
    void maintainedGroupsEqualTheRegistryReadFromScratchThroughChurn() {
        Random random = new Random(41);
        for (int round = 0; round < 60; round++) {
            for (int k = 0; k < 30; k++) {
                step(random);
            }
            if (round % 3 == 0) {
                assertThat(registry.views().groups()).as("round %d, an idle read in between", round).isNotNull();
            }
            clock.advance(Duration.ofSeconds(random.nextInt(20)));
            registry.purgeRecentChanges();
            assertFullGroupsMatch();
            assertDeltaGroupsMatch();
        }
    }

    private void step(Random random) {
        String app = "APP-" + random.nextInt(12);
        String id = "i-" + random.nextInt(150);
        InstanceInfo known = registry.views().instanceById(id).orElse(null);
        InstanceInfo before = known == null ? null : stored(known.app(), id);
        switch (random.nextInt(6)) {
            case 0, 1 -> {
                String target = known != null ? known.app() : app;   // an id lives in one app
                registry.register(Instances.sample(target, id)
                        .status(random.nextBoolean() ? InstanceStatus.UP : InstanceStatus.DOWN).build(), Origin.CLIENT);
                note(target, id, ActionType.ADDED);
            }
            case 2 -> {
                if (known != null && registry.statusUpdate(known.app(), id, InstanceStatus.OUT_OF_SERVICE, null,
                        Origin.CLIENT) && stored(known.app(), id) != before) {
                    note(known.app(), id, ActionType.MODIFIED);
                }
            }
            case 3 -> {
                if (known != null && registry.cancel(known.app(), id, Origin.CLIENT)) {
                    note(known.app(), id, ActionType.DELETED);
                }
            }
            case 4 -> {
                if (known != null && registry.expire(known.app(), id)) {
                    note(known.app(), id, ActionType.DELETED);
                }
            }
            default -> {
                if (known != null) {
                    registry.renew(known.app(), id, null, null, Origin.CLIENT);
                    if (stored(known.app(), id) != before) {   // a renewal that changed the status
                        note(known.app(), id, ActionType.MODIFIED);
                    }
                }
            }
        }
    }

    /** The instance object the registry holds (a write replaces it, a plain renewal does not). */
    private InstanceInfo stored(String app, String id) {
        return registry.views().lease(app, id).map(Lease::instance).orElse(null);
    }

    private void note(String app, String id, ActionType action) {
        lastAction.put(app + "/" + id, new Object[]{clock.millis(), action});
    }

    private void assertFullGroupsMatch() {
        AppGroups groups = registry.views().groups();
        Map<String, List<String>> expected = new TreeMap<>();
        Map<InstanceStatus, Integer> counts = new HashMap<>();
        for (int a = 0; a < 12; a++) {
            registry.views().application("APP-" + a).ifPresent(app -> {
                for (InstanceInfo i : app.instances()) {
                    expected.computeIfAbsent(app.name(), n -> new ArrayList<>()).add(i.id() + ":" + i.status());
                    counts.merge(i.status(), 1, Integer::sum);
                }
            });
        }
        Map<String, List<String>> actual = new TreeMap<>();
        for (Application app : groups.decorated().applications()) {
            for (InstanceInfo i : app.instances()) {
                actual.computeIfAbsent(app.name(), n -> new ArrayList<>()).add(i.id() + ":" + i.status());
                assertThat(i).isEqualTo(registry.views().instance(app.name(), i.id()).orElseThrow());
            }
        }
        expected.values().forEach(l -> l.sort(null));
        actual.values().forEach(l -> l.sort(null));
        assertThat(actual).isEqualTo(expected);
        assertThat(groups.decorated().applications()).extracting(Application::name)
                .isSortedAccordingTo(String::compareTo);
        assertThat(groups.appsHashCode()).isEqualTo(registry.views().snapshot().applications().appsHashCode());
        assertThat(groups.appsHashCode()).isEqualTo(io.muster.model.AppsHashCode.of(counts));
    }

    private void assertDeltaGroupsMatch() {
        long cutoff = clock.millis() - Duration.ofMinutes(3).toMillis();
        Map<String, ActionType> expected = new TreeMap<>();
        lastAction.forEach((key, v) -> {
            if ((long) v[0] >= cutoff) {
                expected.put(key, (ActionType) v[1]);
            }
        });
        Map<String, ActionType> actual = new TreeMap<>();
        for (Application app : registry.views().deltaGroups().decorated().applications()) {
            for (InstanceInfo i : app.instances()) {
                assertThat(actual.put(app.name() + "/" + i.id(), i.actionType())).as("one entry per instance").isNull();
            }
        }
        assertThat(actual).isEqualTo(expected);
    }
}
