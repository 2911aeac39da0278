package io.muster.snapshot;

import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.registry.RegistryChange;
import io.muster.registry.RegistryListener;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The journal and the registry's change lock, with a replay (the start-up sync's retry, a peer refresh) running
 * while a client cancels. The interleaving that deadlocked is forced with latches and with the threads' lock states
 * as the JVM reports them, never with sleeps: the replaying thread is inside the replay (where the old journal held
 * its monitor) when the client's cancel takes the change lock, and the cancel reaches the journal only once the
 * replaying thread is waiting for that change lock.
 */
class CancelJournalLockOrderTest {
    private static final Duration WINDOW = Duration.ofMinutes(3);
    private static final String NAME = CancelJournal.besideSnapshot(RegistryFile.fileName("/eureka/@8761"));
    private static final long SECONDS = 10;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @TempDir
    Path dir;

    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    /** The journal lane: one thread, named like nothing of the server's (the leak checks look for "muster-"). */
    private final ExecutorService lane = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-journal-lane"));
    private final List<Thread> started = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        lane.shutdownNow();
        lane.awaitTermination(SECONDS, TimeUnit.SECONDS);
        for (Thread t : started) {
            t.interrupt();
            t.join(TimeUnit.SECONDS.toMillis(SECONDS));
        }
    }

    private CancelJournal journal() {
        return new CancelJournal(SnapshotDirectory.open(dir).orElseThrow(), NAME, clock, WINDOW, lane);
    }

    /** What the replay and the client's cancel came to. */
    private record Meeting(boolean replayDone, boolean cancelDone, boolean cycleSeen) {
    }

    /**
     * Thread "replay" replays while thread "client" cancels A/leaving; the replay's one entry is A/came-back, which
     * the registry holds again. {@code journal} is the listener under test, {@code replay} how the replay is run.
     */
    private Meeting meet(RegistryListener journal, Replay replay, BooleanSupplier breakCycle)
            throws InterruptedException {
        InstanceRegistry registry = new InstanceRegistry(clock, WINDOW);
        registry.register(Instances.sample("A", "came-back").lastDirtyTimestamp(100).build(), Origin.PEER);
        registry.register(Instances.sample("A", "leaving").lastDirtyTimestamp(100).build(), Origin.CLIENT);
        CountDownLatch replayInside = new CountDownLatch(1);
        CountDownLatch clientHoldsChangeLock = new CountDownLatch(1);
        AtomicReference<Thread> replaying = new AtomicReference<>();
        // first of the listeners, so it runs under the change lock before the journal's
        registry.addListener(change -> {
            if (change instanceof RegistryChange.Cancelled c && c.instance().id().equals("leaving")) {
                clientHoldsChangeLock.countDown();
                // the replay goes on, and gets as far as waiting for the change lock this thread holds
                awaitUntil(() -> waitsFor(replaying.get(), Thread.currentThread()));
            }
        });
        registry.addListener(journal);

        Thread replayer = new Thread(() -> replay.run(registry, (app, id, dirty, at) -> {
            replayInside.countDown();   // where the old journal held its monitor
            await(clientHoldsChangeLock);
        }), "test-replay");
        replaying.set(replayer);
        Thread cancel = new Thread(() -> {
            await(replayInside);
            registry.cancel("A", "leaving", Origin.CLIENT);
        }, "test-client-cancel");
        started.add(replayer);
        started.add(cancel);
        replayer.setDaemon(true);   // should a regression deadlock them, the test run still ends
        cancel.setDaemon(true);
        replayer.start();
        cancel.start();

        boolean cycle = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
        while ((replayer.isAlive() || cancel.isAlive()) && System.nanoTime() < deadline) {
            if (waitsFor(replayer, cancel) && waitsFor(cancel, replayer)) {
                cycle = true;     // each waits for a lock the other holds: neither can ever go on
                if (breakCycle.getAsBoolean()) {
                    cancel.interrupt();   // only the helper's stand-in for the old monitor gives way to this
                }
            }
            LockSupport.parkNanos(100_000);   // a poll, not a wait for the interleaving: that is forced above
        }
        replayer.join(TimeUnit.SECONDS.toMillis(SECONDS));
        cancel.join(TimeUnit.SECONDS.toMillis(SECONDS));
        return new Meeting(!replayer.isAlive(), !cancel.isAlive(), cycle);
    }

    @FunctionalInterface
    private interface Replay {
        void run(InstanceRegistry registry, CancelJournal.Tombstones tombstones);
    }

    @Test
    void theOldLockOrderDeadlocksWhenAReplayMeetsAClientsCancel() throws InterruptedException {
        OldOrderJournal old = new OldOrderJournal("A", "came-back", 100);

        Meeting m = meet(old, old::replay, () -> true);

        assertThat(m.cycleSeen()).as("the replay waits for the change lock, the cancel (holding it) for the journal")
                .isTrue();
        assertThat(old.appendGaveUp).as("the cancel got out only because the test interrupted it").isTrue();
    }

    @Test
    void theJournalNowLetsBothFinish() throws InterruptedException, IOException {
        cancelledEarlier("A", "came-back");
        CancelJournal journal = journal();
        List<String> tombs = new ArrayList<>();
        int[] again = {-1};

        Meeting m = meet(journal, (registry, hook) -> again[0] = journal.replay(registry, (app, id, dirty, at) -> {
            tombs.add(id);
            hook.remember(app, id, dirty, at);
        }), () -> false);

        assertThat(m.cycleSeen()).as("a wait-for cycle between the replay and the cancel").isFalse();
        assertThat(m.replayDone()).as("the replay finished").isTrue();
        assertThat(m.cancelDone()).as("the client's cancel finished").isTrue();
        assertThat(again[0]).isEqualTo(1);
        assertThat(tombs).containsExactly("came-back");
        journal.close();
        assertThat(journal().recent()).extracting(CancelJournal.Entry::id)
                .as("the client's cancel journalled; the replay's own cancel not again")
                .containsExactly("came-back", "leaving");
        assertThat(Files.readAllLines(dir.resolve(NAME))).hasSize(2);
    }

    @Test
    void aCancelWaitsForTheJournalsFileOnlyOutsideTheChangeLockSoOtherWritesGoOn() throws Exception {
        CancelJournal journal = journal();
        InstanceRegistry registry = new InstanceRegistry(clock, WINDOW);
        registry.addListener(journal);
        registry.register(Instances.sample("A", "x").lastDirtyTimestamp(100).build(), Origin.CLIENT);
        Thread cancel = new Thread(() -> registry.cancel("A", "x", Origin.CLIENT), "test-client-cancel");
        started.add(cancel);

        synchronized (journal.fileLock) {   // a write to a stalled disk, or a compaction, in progress
            cancel.start();
            awaitUntil(() -> cancel.getState() == Thread.State.BLOCKED && registry.views().lease("A", "x").isEmpty());
            // the cancel is applied and waits for the disk before its answer, holding nothing the others need
            Thread other = new Thread(() -> registry.register(Instances.sample("A", "y").lastDirtyTimestamp(100)
                    .build(), Origin.CLIENT), "test-other-client");
            started.add(other);
            other.start();
            other.join(TimeUnit.SECONDS.toMillis(SECONDS));
            assertThat(other.isAlive()).as("another client's write waited for the journal's file").isFalse();
            assertThat(registry.views().lease("A", "y")).isPresent();
        }
        cancel.join(TimeUnit.SECONDS.toMillis(SECONDS));
        assertThat(cancel.isAlive()).isFalse();
        assertThat(journal.recent()).extracting(CancelJournal.Entry::id).containsExactly("x");
    }

    @Test
    void everyCancelIsInTheFileBeforeItIsAnsweredEvenWhenTheLaneNeverRuns() {
        List<Runnable> handed = new ArrayList<>();
        CancelJournal journal = new CancelJournal(SnapshotDirectory.open(dir).orElseThrow(), NAME, clock, WINDOW,
                handed::add);   // a lane that never gets to run its tasks
        InstanceRegistry registry = new InstanceRegistry(clock, WINDOW);
        registry.addListener(journal);
        for (int i = 0; i < 5; i++) {
            registry.register(Instances.sample("A", "i" + i).lastDirtyTimestamp(100).build(), Origin.CLIENT);
            registry.cancel("A", "i" + i, Origin.CLIENT);
            // what a node killed right after this answer finds at its restart
            assertThat(new CancelJournal(SnapshotDirectory.open(dir).orElseThrow(), NAME, clock, WINDOW,
                    Runnable::run).recent()).extracting(CancelJournal.Entry::id).endsWith("i" + i);
        }
    }

    /** A cancellation a client made before the node was restarted, in the journal's file. */
    private void cancelledEarlier(String app, String id) {
        CancelJournal earlier = new CancelJournal(SnapshotDirectory.open(dir).orElseThrow(), NAME, clock, WINDOW,
                Runnable::run);
        InstanceRegistry registry = new InstanceRegistry(clock, WINDOW);
        registry.addListener(earlier);
        registry.register(Instances.sample(app, id).lastDirtyTimestamp(100).build(), Origin.CLIENT);
        registry.cancel(app, id, Origin.CLIENT);
        earlier.close();
    }

    /** Whether {@code waiter} is blocked on a lock (monitor or java.util.concurrent) that {@code owner} holds. */
    private static boolean waitsFor(Thread waiter, Thread owner) {
        if (waiter == null) {
            return false;
        }
        ThreadInfo info = THREADS.getThreadInfo(waiter.getId());
        return info != null && info.getLockOwnerId() == owner.getId();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("the interleaving did not happen");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static void awaitUntil(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out");
            }
            LockSupport.parkNanos(100_000);
        }
    }
}
