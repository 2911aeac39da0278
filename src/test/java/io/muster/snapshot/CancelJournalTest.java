package io.muster.snapshot;

import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.registry.RegistryChange;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A node killed right after it acknowledged cancellations, and started again from what its peers still hold. */
class CancelJournalTest {
    private static final Duration WINDOW = Duration.ofMinutes(3);

    @TempDir
    Path dir;

    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);

    private record Tomb(String app, String id, long dirty, Instant at) {
    }

    private InstanceRegistry registryWithJournal(Path file) {
        InstanceRegistry registry = new InstanceRegistry(clock, WINDOW);
        registry.addListener(new CancelJournal(file, clock, WINDOW));
        return registry;
    }

    @Test
    void aCancellationAcknowledgedBeforeAKillIsMadeAgainWhenTheSyncBringsTheInstanceBack() throws IOException {
        Path file = CancelJournal.beside(dir.resolve("registry-node.snapshot"));
        InstanceRegistry before = registryWithJournal(file);
        before.register(Instances.sample("A", "gone").lastDirtyTimestamp(100).build(), Origin.CLIENT);
        before.register(Instances.sample("A", "peer-cancelled").lastDirtyTimestamp(100).build(), Origin.CLIENT);
        before.cancel("A", "gone", Origin.CLIENT);
        before.cancel("A", "peer-cancelled", Origin.PEER);
        // killed here: nothing closed, nothing compacted
        clock.advance(Duration.ofSeconds(20));

        InstanceRegistry after = new InstanceRegistry(clock, WINDOW);
        List<RegistryChange> replicated = new ArrayList<>();
        after.addListener(replicated::add);
        // what the start-up sync copied from a peer that never got the cancellation
        after.register(Instances.sample("A", "gone").lastDirtyTimestamp(100).build(), Origin.PEER);
        after.register(Instances.sample("A", "peer-cancelled").lastDirtyTimestamp(100).build(), Origin.PEER);
        List<Tomb> tombs = new ArrayList<>();
        int again = new CancelJournal(file, clock, WINDOW).replay(after,
                (app, id, dirty, at) -> tombs.add(new Tomb(app, id, dirty, at)));

        assertThat(again).isEqualTo(1);
        assertThat(after.views().lease("A", "gone")).isEmpty();
        assertThat(replicated).last().isInstanceOfSatisfying(RegistryChange.Cancelled.class,
                c -> assertThat(c.origin()).as("sent to the peers as the client's cancel").isEqualTo(Origin.CLIENT));
        assertThat(after.views().lease("A", "peer-cancelled")).as("only this node's clients' cancels are its own")
                .isPresent();
        assertThat(tombs).containsExactly(new Tomb("A", "gone", 100, clock.instant().minusSeconds(20)));
    }

    @Test
    void anInstanceRegisteredAgainAfterItsCancellationStays() {
        Path file = dir.resolve("j");
        InstanceRegistry before = registryWithJournal(file);
        before.register(Instances.sample("A", "back").lastDirtyTimestamp(100).build(), Origin.CLIENT);
        before.cancel("A", "back", Origin.CLIENT);

        InstanceRegistry after = new InstanceRegistry(clock, WINDOW);
        after.register(Instances.sample("A", "back").lastDirtyTimestamp(200).build(), Origin.PEER);
        new CancelJournal(file, clock, WINDOW).replay(after, (app, id, dirty, at) -> { });

        assertThat(after.views().lease("A", "back")).isPresent();
    }

    @Test
    void cancellationsOlderThanTheWindowAreForgottenAndCompactedAway() throws IOException {
        Path file = dir.resolve("j");
        CancelJournal journal = new CancelJournal(file, clock, WINDOW);
        InstanceRegistry registry = new InstanceRegistry(clock, WINDOW);
        registry.addListener(journal);
        registry.register(Instances.sample("A", "old").lastDirtyTimestamp(100).build(), Origin.CLIENT);
        registry.cancel("A", "old", Origin.CLIENT);
        clock.advance(WINDOW.plusSeconds(1));
        registry.register(Instances.sample("A", "new").lastDirtyTimestamp(100).build(), Origin.CLIENT);
        registry.cancel("A", "new", Origin.CLIENT);

        journal.compact();
        registry.register(Instances.sample("A", "after").lastDirtyTimestamp(100).build(), Origin.CLIENT);
        registry.cancel("A", "after", Origin.CLIENT);

        assertThat(journal.recent()).extracting(CancelJournal.Entry::id).containsExactly("new", "after");
        assertThat(Files.readAllLines(file)).hasSize(2);
    }

    @Test
    void aDamagedLineIsSkipped() throws IOException {
        Path file = dir.resolve("j");
        Files.writeString(file, "garbage\n" + clock.millis() + "\tA\tx\t5\n" + "12\tA\n");

        assertThat(new CancelJournal(file, clock, WINDOW).recent()).extracting(CancelJournal.Entry::id)
                .containsExactly("x");
    }
}
