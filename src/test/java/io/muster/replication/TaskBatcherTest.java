package io.muster.replication;

import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The batcher's rules on a clock the test moves and a sleeper that only records: nothing here waits for real,
 * except the shutdown test, which starts the worker thread to see it end.
 */
class TaskBatcherTest {
    private static final Duration DELAY = Duration.ofMillis(25);
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final List<Duration> sleeps = new ArrayList<>();
    private final List<List<String>> sent = new ArrayList<>();
    /** What the peer answers next; SUCCESS when empty. */
    private final Deque<Outcome> answers = new ArrayDeque<>();
    private TaskBatcher batcher = batcher(5, 3);

    private TaskBatcher batcher(int maxPending, int batchSize) {
        return new TaskBatcher("test-batcher", maxPending, batchSize, DELAY, clock, d -> {
            sleeps.add(d);
            clock.advance(d);
        }, batch -> {
            sent.add(batch.stream().map(t -> t.id() + "@" + t.expiresAt().toEpochMilli()).toList());
            return answers.isEmpty() ? Outcome.SUCCESS : answers.poll();
        });
    }

    @AfterEach
    void close() {
        batcher.close();
    }

    private ReplicationTask cancel(String id, Duration ttl) {
        return new ReplicationTask.Cancel("A", id, 1L, clock.instant().plus(ttl));
    }

    private ReplicationTask cancel(String id) {
        return cancel(id, Duration.ofMinutes(1));
    }

    private List<String> ids(int batch) {
        return sent.get(batch).stream().map(s -> s.substring(0, s.indexOf('@'))).toList();
    }

    @Test
    void aBatchWaitsForTheDelayUnlessItIsFull() throws Exception {
        batcher.offer(cancel("a"));
        batcher.offer(cancel("b"));
        assertThat(batcher.runOnce()).as("not due yet").isFalse();
        clock.advance(DELAY.minusMillis(1));
        assertThat(batcher.runOnce()).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(batcher.runOnce()).isTrue();
        assertThat(ids(0)).containsExactly("a", "b");

        for (String id : List.of("c", "d", "e", "f")) {
            batcher.offer(cancel(id));
        }
        assertThat(batcher.runOnce()).as("a full batch goes at once").isTrue();
        assertThat(ids(1)).containsExactly("c", "d", "e");
        assertThat(batcher.queueDepth()).isEqualTo(1);
        assertThat(batcher.runOnce()).as("the rest waits for the delay").isFalse();
        assertThat(batcher.sent.sum()).isEqualTo(5);
        assertThat(batcher.batches.sum()).isEqualTo(2);
    }

    @Test
    void eachAcknowledgedTaskIsReportedWithItsLagFromItsFirstEnqueueRetriesIncluded() throws Exception {
        List<Duration> lags = new ArrayList<>();
        batcher = new TaskBatcher("test-batcher", 5, 3, DELAY, clock, clock::advance, batch -> {
            sent.add(batch.stream().map(ReplicationTask::id).toList());
            return answers.isEmpty() ? Outcome.SUCCESS : answers.poll();
        }, lags::add);
        answers.add(Outcome.TRANSIENT_FAILURE);
        batcher.offer(cancel("a"));
        clock.advance(Duration.ofMillis(10));
        batcher.offer(cancel("b"));
        clock.advance(DELAY);
        assertThat(batcher.runOnce()).isTrue();
        assertThat(lags).as("nothing acknowledged by a failed send").isEmpty();
        assertThat(batcher.runOnce()).as("the retry, after a 100 ms backoff").isTrue();
        assertThat(lags).containsExactly(Duration.ofMillis(135), Duration.ofMillis(125));

        answers.add(Outcome.PERMANENT_FAILURE);
        batcher.offer(cancel("c"));
        clock.advance(DELAY);
        assertThat(batcher.runOnce()).isTrue();
        assertThat(lags).as("nor by a refused one").hasSize(2);
    }

    @Test
    void aNewerTaskForTheSameInstanceReplacesTheQueuedOneAndKeepsItsPlace() throws Exception {
        batcher.offer(cancel("a", Duration.ofMinutes(1)));
        clock.advance(DELAY.minusMillis(5));
        batcher.offer(cancel("b"));
        ReplicationTask newer = cancel("a", Duration.ofMinutes(2));
        batcher.offer(newer);
        clock.advance(Duration.ofMillis(5));
        assertThat(batcher.runOnce()).as("the replacement keeps the first enqueue time").isTrue();
        assertThat(ids(0)).containsExactly("a", "b");
        assertThat(sent.get(0).get(0)).as("the newer task is the one sent")
                .isEqualTo("a@" + newer.expiresAt().toEpochMilli());
        assertThat(batcher.dropped.sum()).isZero();
    }

    @Test
    void expiredTasksAreDroppedUnsent() throws Exception {
        batcher.offer(cancel("short", Duration.ofMillis(10)));
        batcher.offer(cancel("long"));
        clock.advance(DELAY);
        assertThat(batcher.runOnce()).isTrue();
        assertThat(ids(0)).containsExactly("long");
        assertThat(batcher.expired.sum()).isEqualTo(1);

        batcher.offer(cancel("gone", Duration.ofMillis(10)));
        clock.advance(DELAY);
        assertThat(batcher.runOnce()).as("a batch that expired whole is taken, not sent").isTrue();
        assertThat(sent).hasSize(1);
        assertThat(batcher.queueDepth()).isZero();
    }

    @Test
    void atTheCapTheOldestTaskIsDropped() throws Exception {
        batcher = batcher(3, 10);
        for (String id : List.of("a", "b", "c", "d")) {
            batcher.offer(cancel(id));
        }
        batcher.offer(cancel("d"));   // a replacement does not count against the cap
        assertThat(batcher.queueDepth()).isEqualTo(3);
        assertThat(batcher.dropped.sum()).isEqualTo(1);
        clock.advance(DELAY);
        batcher.runOnce();
        assertThat(ids(0)).containsExactly("b", "c", "d");
    }

    @Test
    void failuresBackOffExponentiallyUpToTheCapAndSuccessResetsIt() throws Exception {
        for (int i = 0; i < 6; i++) {
            answers.add(Outcome.TRANSIENT_FAILURE);
        }
        batcher.offer(cancel("a", Duration.ofHours(1)));
        clock.advance(DELAY);
        for (int i = 0; i < 6; i++) {
            assertThat(batcher.runOnce()).isTrue();   // the backoff moved the clock past the delay again
        }
        assertThat(sleeps).extracting(Duration::toMillis).containsExactly(100L, 200L, 400L, 800L, 1600L, 3200L);
        assertThat(batcher.failedBatches.sum()).isEqualTo(6);
        assertThat(batcher.queueDepth()).as("the batch is kept for the retry").isEqualTo(1);

        assertThat(batcher.runOnce()).as("the peer is back").isTrue();
        assertThat(ids(6)).containsExactly("a");
        assertThat(batcher.sent.sum()).isEqualTo(1);

        sleeps.clear();
        for (int i = 0; i < 12; i++) {
            answers.add(Outcome.CONGESTION);
        }
        batcher.offer(cancel("b", Duration.ofHours(1)));
        clock.advance(DELAY);
        for (int i = 0; i < 12; i++) {
            batcher.runOnce();
        }
        assertThat(sleeps).as("congestion starts at 1 s again after the success; capped at 30 s")
                .extracting(Duration::toSeconds).startsWith(1L, 2L, 4L, 8L, 16L, 30L).endsWith(30L, 30L);
    }

    @Test
    void aNewerTaskQueuedDuringAFailedSendIsNotOverwrittenByTheRetry() throws Exception {
        batcher = new TaskBatcher("test-batcher", 5, 3, DELAY, clock, d -> clock.advance(d), batch -> {
            sent.add(batch.stream().map(t -> t.id() + "@" + t.expiresAt().toEpochMilli()).toList());
            if (sent.size() == 1) {
                batcher.offer(cancel("a", Duration.ofHours(2)));   // arrives while the first send is failing
                return Outcome.TRANSIENT_FAILURE;
            }
            return Outcome.SUCCESS;
        });
        batcher.offer(cancel("a", Duration.ofHours(1)));
        Instant newer = clock.instant().plus(DELAY).plus(Duration.ofHours(2));   // offered once the delay passed
        clock.advance(DELAY);
        batcher.runOnce();
        batcher.runOnce();
        assertThat(sent.get(1)).containsExactly("a@" + newer.toEpochMilli());
    }

    private ReplicationTask register(String id) {
        return new ReplicationTask.Register(Instances.up("A", id), clock.instant().plus(Duration.ofHours(1)));
    }

    @Test
    void aCancelSupersedesTheInstancesWaitingTasksSoARegistrationAfterItIsSentAfterIt() throws Exception {
        batcher = batcher(10, 10);
        batcher.offer(register("a"));
        batcher.offer(new ReplicationTask.Heartbeat(Instances.up("A", "a"), clock.instant().plusSeconds(60)));
        batcher.offer(cancel("a"));
        batcher.offer(register("a"));   // the client came back: must reach the peer after the cancel
        clock.advance(DELAY);
        batcher.runOnce();
        assertThat(sent.get(0)).extracting(s -> s.substring(0, s.indexOf('@'))).containsExactly("a", "a");
        assertThat(batcher.superseded.sum()).isEqualTo(2);
    }

    @Test
    void aRegistrationPutBackByARetryIsDroppedWhenACancelWasQueuedMeanwhile() throws Exception {
        batcher = new TaskBatcher("test-batcher", 10, 10, DELAY, clock, d -> clock.advance(d), batch -> {
            sent.add(batch.stream().map(t -> t.action().wireName() + ":" + t.id()).toList());
            if (sent.size() == 1) {
                batcher.offer(cancel("a"));   // the client cancels while the registration is failing to go out
                return Outcome.TRANSIENT_FAILURE;
            }
            return Outcome.SUCCESS;
        });
        batcher.offer(register("a"));
        clock.advance(DELAY);
        batcher.runOnce();
        batcher.runOnce();
        assertThat(sent.get(1)).as("only the cancel; the registration after it would bring the instance back")
                .containsExactly("Cancel:a");
        assertThat(batcher.superseded.sum()).isEqualTo(1);
    }

    @Test
    void networkBackoffIsCappedAtFiveSecondsAPeerThatRefusesConnectionsIsTriedAgainSoon() throws Exception {
        for (int i = 0; i < 10; i++) {
            answers.add(Outcome.TRANSIENT_FAILURE);
        }
        batcher.offer(cancel("a", Duration.ofHours(1)));
        clock.advance(DELAY);
        for (int i = 0; i < 10; i++) {
            batcher.runOnce();
        }
        assertThat(sleeps).extracting(Duration::toMillis).endsWith(3200L, 5000L, 5000L, 5000L, 5000L);
    }

    @Test
    void aTimeoutAfterManyRefusedConnectionsBacksOffFromOneSecondNotFromThirty() throws Exception {
        // a peer restarting: connections refused while it is down, then one timeout while its connector starts
        for (int i = 0; i < 10; i++) {
            answers.add(Outcome.TRANSIENT_FAILURE);
        }
        answers.add(Outcome.CONGESTION);
        batcher.offer(cancel("a", Duration.ofHours(1)));
        clock.advance(DELAY);
        for (int i = 0; i < 11; i++) {
            batcher.runOnce();
        }
        assertThat(sleeps.get(sleeps.size() - 1)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aSignOfThePeersLifeEndsANetworkBackoffAtOnce() throws Exception {
        java.util.concurrent.CountDownLatch failing = new java.util.concurrent.CountDownLatch(5);
        java.util.concurrent.CountDownLatch delivered = new java.util.concurrent.CountDownLatch(1);
        batcher = new TaskBatcher("test-batcher", 5, 3, DELAY, java.time.Clock.systemUTC(), Sleeper.REAL, batch -> {
            if (failing.getCount() > 0) {
                failing.countDown();
                return Outcome.TRANSIENT_FAILURE;   // 100, 200, 400, 800, then a 1.6 s backoff
            }
            delivered.countDown();
            return Outcome.SUCCESS;
        });
        batcher.start();
        batcher.offer(new ReplicationTask.Cancel("A", "a", 1L, java.time.Instant.now().plus(Duration.ofHours(1))));
        assertThat(failing.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        Thread.sleep(WakeSignal.FLOOR.toMillis() + 100);   // into the 1.6 s backoff, past the wake floor
        long woken = System.nanoTime();
        while (!batcher.wake()) {
            Thread.sleep(5);
        }
        assertThat(delivered.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - woken)).as("sent right after the wake, not after 1.6 s")
                .isLessThan(Duration.ofMillis(700));
        assertThat(batcher.woken.sum()).isEqualTo(1);
    }

    @Test
    void aPermanentFailureDropsTheBatchWithoutBackoff() throws Exception {
        answers.add(Outcome.PERMANENT_FAILURE);
        batcher.offer(cancel("a"));
        clock.advance(DELAY);
        batcher.runOnce();
        assertThat(batcher.dropped.sum()).isEqualTo(1);
        assertThat(batcher.queueDepth()).isZero();
        assertThat(sleeps).isEmpty();
    }

    @Test
    void aProcessorThatThrowsCountsAFailedBatchAndTheNextOneStillGoes() throws Exception {
        batcher = new TaskBatcher("test-batcher", 5, 3, DELAY, clock, d -> clock.advance(d), batch -> {
            sent.add(List.of(batch.get(0).id() + "@0"));
            if (sent.size() == 1) {
                throw new IllegalStateException("bug");
            }
            return Outcome.SUCCESS;
        });
        batcher.offer(cancel("a"));
        clock.advance(DELAY);
        batcher.runOnce();
        batcher.offer(cancel("b"));
        clock.advance(DELAY);
        batcher.runOnce();
        assertThat(batcher.failedBatches.sum()).isEqualTo(1);
        assertThat(batcher.sent.sum()).isEqualTo(1);
        assertThat(ids(1)).containsExactly("b");
    }

    @Test
    void closingWithoutADrainEndsTheWorkerEvenInABackoffAndRefusesNewTasks() throws Exception {
        BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        CountDownLatch backingOff = new CountDownLatch(1);
        batcher = new TaskBatcher("test-batcher-closing", 5, 1, Duration.ZERO, clock, d -> {
            backingOff.countDown();
            new CountDownLatch(1).await();   // blocks until close() interrupts it
        }, batch -> {
            seen.add(batch.get(0).id());
            return Outcome.TRANSIENT_FAILURE;
        });
        batcher.start();
        batcher.offer(cancel("a"));
        assertThat(backingOff.await(30, TimeUnit.SECONDS)).as("the worker sent and is backing off").isTrue();
        batcher.close();
        assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                .doesNotContain("test-batcher-closing");
        batcher.offer(cancel("b"));
        assertThat(batcher.queueDepth()).as("only the batch put back for its retry").isEqualTo(1);
        assertThat(batcher.runOnce()).as("a closed batcher sends nothing").isFalse();
        assertThat(seen).containsExactly("a");
    }

    /** A node that stops (an undeploy, a restart) tells its peers what it had queued, its own cancel among it. */
    @Test
    void aDrainSendsWhatIsQueuedAtOnceWithoutWaitingForTheDelayThenEndsTheWorker() throws Exception {
        BlockingQueue<List<String>> seen = new LinkedBlockingQueue<>();
        batcher = new TaskBatcher("test-batcher-drain", 100, 3, Duration.ofHours(1), clock, d -> { },
                batch -> {
                    seen.add(batch.stream().map(ReplicationTask::id).toList());
                    return Outcome.SUCCESS;
                });
        batcher.start();
        batcher.offer(cancel("a"));
        batcher.offer(cancel("b"));
        batcher.offer(cancel("c"));
        assertThat(seen.poll(30, TimeUnit.SECONDS)).as("a full batch is due at once").containsExactly("a", "b", "c");
        batcher.offer(cancel("d"));
        batcher.offer(cancel("gone", Duration.ofMillis(-1)));
        assertThat(seen.poll(200, TimeUnit.MILLISECONDS)).as("the rest waits for the hour's delay").isNull();

        batcher.startDraining();
        batcher.offer(cancel("late"));
        batcher.close();
        assertThat(seen).as("sent at once, the expired one not at all, nothing offered after the drain began")
                .containsExactly(List.of("d"));
        assertThat(batcher.sent.sum()).isEqualTo(4);
        assertThat(batcher.drainedSent.sum()).isEqualTo(1);
        assertThat(batcher.drainedDropped.sum()).isZero();
        assertThat(batcher.expired.sum()).isEqualTo(1);
        assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                .doesNotContain("test-batcher-drain");
    }

    @Test
    void aDrainEndsABackoffAndTriesThePutBackBatchOnceMoreThenDropsIt() throws Exception {
        BlockingQueue<String> seen = new LinkedBlockingQueue<>();
        CountDownLatch backingOff = new CountDownLatch(1);
        batcher = new TaskBatcher("test-batcher-drain-backoff", 5, 1, Duration.ZERO, clock, d -> {
            backingOff.countDown();
            new CountDownLatch(1).await();   // a 30 s backoff, as far as this test is concerned
        }, batch -> {
            seen.add(batch.get(0).id());
            return Outcome.CONGESTION;
        });
        batcher.start();
        batcher.offer(cancel("a"));
        assertThat(backingOff.await(30, TimeUnit.SECONDS)).isTrue();
        long t0 = System.nanoTime();
        batcher.startDraining();
        batcher.close();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("no backoff waited out").isLessThan(Duration.ofSeconds(2));
        assertThat(seen).containsExactly("a", "a");
        assertThat(batcher.dropped.sum()).isEqualTo(1);
        assertThat(batcher.queueDepth()).isZero();
    }

    @Test
    void aDrainToAPeerThatHangsEndsWhenTheDrainTimeIsUpAndDropsTheRest() throws Exception {
        CountDownLatch backingOff = new CountDownLatch(1);
        List<Integer> batchSizes = new java.util.concurrent.CopyOnWriteArrayList<>();
        batcher = new TaskBatcher("test-batcher-drain-hang", 100, 2, Duration.ofHours(1), clock, d -> {
            backingOff.countDown();
            new CountDownLatch(1).await();
        }, batch -> {
            batchSizes.add(batch.size());
            if (batchSizes.size() > 1) {
                clock.advance(TaskBatcher.DRAIN.plusSeconds(1));   // this send outlasts the whole drain
            }
            return Outcome.TRANSIENT_FAILURE;
        });
        batcher.start();
        for (int i = 0; i < 5; i++) {
            batcher.offer(cancel("i-" + i, Duration.ofHours(2)));
        }
        assertThat(backingOff.await(30, TimeUnit.SECONDS)).as("a first batch failed: backing off").isTrue();
        batcher.startDraining();
        batcher.close();
        assertThat(batchSizes).as("the failed batch once more, then the drain's time was up").containsExactly(2, 2);
        assertThat(batcher.dropped.sum()).as("the batch that failed in the drain and the three never sent")
                .isEqualTo(5);
        assertThat(batcher.drainedDropped.sum()).isEqualTo(5);
        assertThat(batcher.drainedSent.sum()).isZero();
        assertThat(batcher.queueDepth()).isZero();
    }
}
