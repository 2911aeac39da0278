package io.muster.registry;

import io.muster.model.InstanceInfo;
import io.muster.testing.Instances;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RecentChangesTest {
    private static final Instant T0 = Instant.parse("2026-12-06T00:00:00Z");
    private final RecentChanges changes = new RecentChanges(Duration.ofMinutes(3));

    @Test
    void aChangeSupersededByALaterOneOfTheSameInstanceNoLongerHoldsItsState() throws InterruptedException {
        WeakReference<InstanceInfo> first = addAndForget(T0);
        InstanceInfo second = Instances.up("A", "a-1");
        changes.add(T0.plusSeconds(1), second);

        for (int i = 0; i < 20 && first.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(first.get()).as("the first registration's copy, after a re-registration").isNull();
        assertThat(changes.size()).as("both changes keep their place in the window").isEqualTo(2);
        assertThat(changes.latestOf("A", "a-1")).isSameAs(second);
        assertThat(changes.latest("A")).extracting(RecentChanges.Entry::state).containsExactly(second);
    }

    private WeakReference<InstanceInfo> addAndForget(Instant at) {
        InstanceInfo info = Instances.up("A", "a-1");
        changes.add(at, info);
        return new WeakReference<>(info);
    }

    @Test
    void supersededAndNewestChangesLeaveTheWindowInTheirTurn() {
        changes.add(T0, Instances.up("A", "a-1"));
        changes.add(T0.plusSeconds(10), Instances.up("A", "a-2"));
        changes.add(T0.plusSeconds(20), Instances.up("A", "a-1"));
        List<String> drained = new ArrayList<>();
        changes.drainChangedApps(drained::add);

        assertThat(changes.purge(T0.plusSeconds(185))).as("only the superseded a-1 is older than 3 min").isEqualTo(1);
        assertThat(changes.latest("A")).extracting(e -> e.state().id()).containsExactly("a-1", "a-2");
        changes.drainChangedApps(drained::add);
        assertThat(drained).as("dropping a superseded change changes no app's delta").containsExactly("A");

        assertThat(changes.purge(T0.plusSeconds(195))).isEqualTo(1);
        assertThat(changes.latest("A")).extracting(e -> e.state().id()).containsExactly("a-1");
        assertThat(changes.purge(T0.plusSeconds(205))).isEqualTo(1);
        assertThat(changes.latest("A")).isEmpty();
        assertThat(changes.size()).isZero();
    }

    @Test
    void aLaterChangeKeepsItsInstancesPlaceSoAnAppsDeltaKeepsItsOrder() {
        changes.add(T0, Instances.up("A", "a-1"));
        changes.add(T0.plusSeconds(1), Instances.up("A", "a-2"));
        changes.add(T0.plusSeconds(2), Instances.up("A", "a-3"));
        InstanceInfo again = Instances.up("A", "a-1");
        changes.add(T0.plusSeconds(3), again);

        assertThat(changes.latest("A")).extracting(e -> e.state().id())
                .as("a-1's re-registration is in a-1's place, so the app's last instance (a-3) is unchanged")
                .containsExactly("a-1", "a-2", "a-3");
        assertThat(changes.latestOf("A", "a-1")).isSameAs(again);

        changes.purge(T0.plusSeconds(182));   // a-1's first change and a-2 leave; a-1's second stays
        changes.add(T0.plusSeconds(183), Instances.up("A", "a-2"));
        assertThat(changes.latest("A")).extracting(e -> e.state().id())
                .as("an instance that left the window comes back at the end").containsExactly("a-1", "a-3", "a-2");
    }
}
