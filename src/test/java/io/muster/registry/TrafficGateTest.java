package io.muster.registry;

import io.muster.registry.TrafficGate.SyncOutcome;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The start-up gate's cases: reads are held back only while every peer was unreachable. */
class TrafficGateTest {
    private static final Duration WAIT = Duration.ofMinutes(5);
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final TrafficGate gate = new TrafficGate(clock);

    @Test
    void closedUntilOpened() {
        assertThat(gate.isOpen()).isFalse();
        assertThat(gate.allowsReads()).isFalse();
    }

    @Test
    void aNodeWithoutPeersServesReadsAtOnce() {
        assertThat(gate.open(SyncOutcome.NO_PEERS, WAIT, false)).isFalse();
        assertThat(gate.allowsReads()).isTrue();
    }

    @Test
    void aPeerThatAnsweredEvenEmptyOpensReadsAtOnce() {
        assertThat(gate.open(SyncOutcome.PEER_ANSWERED, WAIT, false)).isFalse();
        assertThat(gate.allowsReads()).isTrue();
        assertThat(gate.readsHeldUntil()).isNull();
    }

    @Test
    void everyPeerUnreachableHoldsReadsUntilTheWaitEnds() {
        assertThat(gate.open(SyncOutcome.EVERY_PEER_UNREACHABLE, WAIT, false)).isTrue();
        assertThat(gate.isOpen()).as("writes are accepted").isTrue();
        assertThat(gate.allowsReads()).isFalse();
        assertThat(gate.readsHeldUntil()).isEqualTo(clock.instant().plus(WAIT));
        clock.advance(WAIT.minusMillis(1));
        assertThat(gate.allowsReads()).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(gate.allowsReads()).isTrue();
        assertThat(gate.isHoldingReads()).isFalse();
    }

    @Test
    void aLaterSuccessfulSyncOpensHeldReadsAtOnce() {
        gate.open(SyncOutcome.EVERY_PEER_UNREACHABLE, WAIT, false);
        clock.advance(Duration.ofSeconds(4));
        assertThat(gate.release()).isTrue();
        assertThat(gate.allowsReads()).isTrue();
        assertThat(gate.release()).as("nothing left to release").isFalse();
    }

    @Test
    void noWaitOrSpringsDefaultOpenForTrafficCountNeverHoldReads() {
        assertThat(gate.open(SyncOutcome.EVERY_PEER_UNREACHABLE, Duration.ZERO, false)).isFalse();
        assertThat(gate.allowsReads()).isTrue();
        TrafficGate other = new TrafficGate(clock);
        assertThat(other.open(SyncOutcome.EVERY_PEER_UNREACHABLE, WAIT, true)).isFalse();
        assertThat(other.allowsReads()).isTrue();
    }
}
