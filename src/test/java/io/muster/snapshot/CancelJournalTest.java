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
import java.nio.file.attribute.PosixFilePermissions;
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

    private static final String NAME = CancelJournal.besideSnapshot(RegistryFile.fileName("/eureka/@8761"));

    /** The journal as a starting node opens it: its directory and key read again each time. */
    private CancelJournal journal() {
        return new CancelJournal(SnapshotDirectory.open(dir).orElseThrow(), NAME, clock, WINDOW, Runnable::run);
    }

    private Path file() {
        return dir.resolve(NAME);
    }

    private InstanceRegistry registryWithJournal() {
        InstanceRegistry registry = new InstanceRegistry(clock, WINDOW);
        registry.addListener(journal());
        return registry;
    }

    @Test
    void aCancellationAcknowledgedBeforeAKillIsMadeAgainWhenTheSyncBringsTheInstanceBack() throws IOException {
        InstanceRegistry before = registryWithJournal();
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
        int again = journal().replay(after,
                (app, id, dirty, at) -> tombs.add(new Tomb(app, id, dirty, at)));

        assertThat(again).isEqualTo(1);
        assertThat(after.views().lease("A", "gone")).isEmpty();
        assertThat(replicated).last().isInstanceOfSatisfying(RegistryChange.Cancelled.class,
                c -> assertThat(c.origin()).as("sent to the peers as the client's cancel").isEqualTo(Origin.CLIENT));
        assertThat(after.views().lease("A", "peer-cancelled")).as("only this node's clients' cancels are its own")
                .isPresent();
        Instant cancelled = clock.instant().minusSeconds(20);
        assertThat(tombs).as("at the version the client's cancel superseded: every registration made before it")
                .containsExactly(new Tomb("A", "gone", cancelled.toEpochMilli(), cancelled));
    }

    @Test
    void anInstanceRegisteredAgainAfterItsCancellationStays() {
        InstanceRegistry before = registryWithJournal();
        before.register(Instances.sample("A", "back").lastDirtyTimestamp(100).build(), Origin.CLIENT);
        before.cancel("A", "back", Origin.CLIENT);
        clock.advance(Duration.ofSeconds(5));

        InstanceRegistry after = new InstanceRegistry(clock, WINDOW);
        // registered again after the cancel, with the client's clock then
        after.register(Instances.sample("A", "back").lastDirtyTimestamp(clock.millis()).build(), Origin.PEER);
        journal().replay(after, (app, id, dirty, at) -> { });

        assertThat(after.views().lease("A", "back")).isPresent();
    }

    @Test
    void cancellationsOlderThanTheWindowAreForgottenAndCompactedAway() throws IOException {
        CancelJournal journal = journal();
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
        assertThat(Files.readAllLines(file())).hasSize(2);
    }

    @Test
    void aDamagedOrTornLineIsSkippedAndTheOthersKept() throws IOException {
        cancelledThroughAJournal("A", "x");
        cancelledThroughAJournal("A", "y");
        String[] lines = Files.readString(file()).split("\n");
        Files.writeString(file(), "garbage\n" + lines[0] + "\n" + lines[1].substring(0, lines[1].length() / 2));

        assertThat(journal().recent()).extracting(CancelJournal.Entry::id).containsExactly("x");
    }

    @Test
    void plantedLinesAreNotReplayed() throws IOException {
        cancelledThroughAJournal("A", "genuine");
        String genuine = Files.readString(file());
        CancelJournal.Entry victim = new CancelJournal.Entry(clock.instant(), "PAYMENTS", "victim", 100);
        IntegrityKey anotherNodes = SnapshotDirectory.open(dir.resolve("elsewhere")).orElseThrow().key();
        Files.writeString(file(), genuine
                + clock.millis() + "\tPAYMENTS\tvictim\t100\n"                           // the format before signing
                + victim.line(anotherNodes, NAME)                                         // another node's key
                + genuine.replace("\tgenuine\t", "\tvictim\t").replace("\tA\t", "\tPAYMENTS\t")   // edited
                + victim.line(journalKey(), "registry-other.snapshot.cancels"));          // another journal's

        InstanceRegistry after = new InstanceRegistry(clock, WINDOW);
        after.register(Instances.sample("PAYMENTS", "victim").lastDirtyTimestamp(100).build(), Origin.PEER);
        after.register(Instances.sample("A", "genuine").lastDirtyTimestamp(100).build(), Origin.PEER);
        List<String> tombs = new ArrayList<>();
        int again = journal().replay(after, (app, id, dirty, at) -> tombs.add(id));

        assertThat(again).isEqualTo(1);
        assertThat(after.views().lease("A", "genuine")).as("control: the genuine line is replayed").isEmpty();
        assertThat(after.views().lease("PAYMENTS", "victim")).isPresent();
        assertThat(tombs).containsExactly("genuine");
    }

    @Test
    void theJournalIsOwnerOnlyAndNeverWrittenThroughALink() throws IOException {
        Path victim = Files.writeString(dir.resolve("victim"), "someone else's file");
        Files.createSymbolicLink(file(), victim);
        cancelledThroughAJournal("A", "x");
        assertThat(Files.readString(victim)).isEqualTo("someone else's file");
        assertThat(journal().recent()).as("a journal that is a link is not read either").isEmpty();

        Files.delete(file());
        cancelledThroughAJournal("A", "y");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file()))).isEqualTo("rw-------");
        assertThat(journal().recent()).extracting(CancelJournal.Entry::id).containsExactly("y");
    }

    private void cancelledThroughAJournal(String app, String id) {
        InstanceRegistry registry = registryWithJournal();
        registry.register(Instances.sample(app, id).lastDirtyTimestamp(100).build(), Origin.CLIENT);
        registry.cancel(app, id, Origin.CLIENT);
    }

    private IntegrityKey journalKey() {
        return SnapshotDirectory.open(dir).orElseThrow().key();
    }
}
