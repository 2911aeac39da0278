package io.muster.eviction;

import io.muster.config.ServerConfig.EvictionConfig;
import io.muster.config.ServerConfig.SelfPreservationConfig;
import io.muster.registry.InstanceRegistry;
import io.muster.registry.Origin;
import io.muster.testing.CapturedLog;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;

/** Eviction and self-preservation, with time moved by hand. */
class EvictionTest {
    // on a minute boundary: renewals are counted per wall-clock minute
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_040_000L);
    private final InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));

    private SelfPreservation selfPreservation(boolean enabled) {
        SelfPreservation sp = new SelfPreservation(new SelfPreservationConfig(enabled, 0.85, Duration.ofSeconds(30),
                Duration.ofMinutes(15)), registry);
        sp.expectClients(0);
        return sp;
    }

    private Evictor evictor(SelfPreservation sp, long seed) {
        return new Evictor(new EvictionConfig(Duration.ofSeconds(60)), 0.85, registry, sp, clock, new Random(seed));
    }

    private void registerAll(int n) {
        for (int i = 0; i < n; i++) {
            registry.register(Instances.up("APP" + (i % 3), "i-" + i), Origin.CLIENT);
        }
    }

    /** One wall-clock minute: every instance renews twice (its 30 s interval) except the ones listed as dead. */
    private void minuteOfRenewals(int n, Set<Integer> dead) {
        for (int half = 0; half < 2; half++) {
            for (int i = 0; i < n; i++) {
                if (!dead.contains(i)) {
                    registry.renew("APP" + (i % 3), "i-" + i, null, null, Origin.CLIENT);
                }
            }
            clock.advance(Duration.ofSeconds(30));
        }
    }

    @Test
    void theExpectedClientsAreTheInstancesThatRenewedAndFollowCancellationsAndEvictions() {
        SelfPreservation sp = selfPreservation(true);
        registerAll(10);
        assertThat(sp.expectedClients()).as("registered, not yet renewed").isZero();
        assertThat(sp.neverRenewed()).isEqualTo(10);
        minuteOfRenewals(10, Set.of());
        assertThat(sp.expectedClients()).isEqualTo(10);
        assertThat(sp.neverRenewed()).isZero();
        assertThat(sp.threshold()).isEqualTo((int) (10 * 2 * 0.85));
        registry.cancel("APP0", "i-0", Origin.CLIENT);
        assertThat(sp.threshold()).isEqualTo((int) (9 * 2 * 0.85));
        registry.expire("APP1", "i-1");
        assertThat(sp.expectedClients()).isEqualTo(8);
        registry.register(Instances.up("APP2", "i-2"), Origin.CLIENT);   // a re-registration is not a new client
        assertThat(sp.expectedClients()).isEqualTo(8);
    }

    /** The case: 11 clients renew, 3 junk registrations never do, and one client dies. */
    @Test
    void junkRegistrationsThatNeverRenewDoNotKeepADeadInstanceListed() {
        SelfPreservation sp = selfPreservation(true);
        registerAll(11);
        for (int j = 0; j < 3; j++) {
            registry.register(Instances.up("JUNK", "junk-" + j), Origin.CLIENT);
        }
        Evictor evictor = evictor(sp, 5);
        minuteOfRenewals(11, Set.of());
        Set<Integer> dead = Set.of(4);
        minuteOfRenewals(11, dead);
        minuteOfRenewals(11, dead);
        // counting the junk, 14 expected would give a threshold of 23 against 20 renewals: expiry stopped
        assertThat(sp.expectedClients()).isEqualTo(11);
        assertThat(sp.threshold()).isEqualTo((int) (11 * 2 * 0.85));
        assertThat(registry.renewalsLastMinute()).isEqualTo(20);
        assertThat(sp.allowsExpiry()).isTrue();
        int evicted = evictor.run() + evictor.run();
        assertThat(registry.views().lease("APP1", "i-4")).as("the dead client is gone").isEmpty();
        assertThat(evicted).as("it and the junk, 3 per pass").isEqualTo(4);
    }

    /** The other case: a flood of heartbeats for one instance must not hide that many went silent. */
    @Test
    void aHeartbeatFloodFromOneClientCannotSwitchSelfPreservationOff() {
        SelfPreservation sp = selfPreservation(true);
        registerAll(12);
        Evictor evictor = evictor(sp, 9);
        minuteOfRenewals(12, Set.of());
        Set<Integer> silent = Set.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);   // a partition: only i-11 gets through
        for (int minute = 0; minute < 2; minute++) {
            for (int beat = 0; beat < 5_000; beat++) {
                registry.renew("APP2", "i-11", null, null, Origin.CLIENT);
            }
            minuteOfRenewals(12, silent);
        }
        assertThat(registry.renewalsLastMinute()).as("i-11 counts as the 2 renewals its 30 s interval allows")
                .isEqualTo(2);
        assertThat(registry.renewalsNotCountedLastMinute()).isEqualTo(5_000);
        assertThat(sp.threshold()).isEqualTo((int) (12 * 2 * 0.85));
        assertThat(sp.allowsExpiry()).isFalse();
        assertThat(evictor.run()).isZero();
        assertThat(registry.size()).isEqualTo(12);
    }

    @Test
    void anHonestClusterReachesEurekasThresholdAndExpiresWhatLapses() {
        SelfPreservation sp = selfPreservation(true);
        registerAll(100);
        minuteOfRenewals(100, Set.of());
        minuteOfRenewals(100, Set.of());
        assertThat(sp.expectedClients()).isEqualTo(100);
        assertThat(sp.threshold()).isEqualTo(170);
        assertThat(registry.renewalsLastMinute()).as("nothing honest is capped").isEqualTo(200);
        assertThat(registry.renewalsNotCountedLastMinute()).isZero();
        assertThat(sp.allowsExpiry()).isTrue();
    }

    @Test
    void selfPreservationEngagesWhenMostRenewingInstancesStopAtOnce() {
        SelfPreservation sp = selfPreservation(true);
        registerAll(40);
        Evictor evictor = evictor(sp, 11);
        minuteOfRenewals(40, Set.of());
        Set<Integer> cutOff = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            cutOff.add(i);
        }
        for (int minute = 0; minute < 5; minute++) {
            minuteOfRenewals(40, cutOff);
            assertThat(evictor.run()).as("minute " + minute).isZero();
        }
        assertThat(sp.expectedClients()).as("silent instances are still expected").isEqualTo(40);
        assertThat(sp.allowsExpiry()).isFalse();
        assertThat(registry.size()).isEqualTo(40);
        minuteOfRenewals(40, Set.of());
        assertThat(sp.allowsExpiry()).as("released when they come back").isTrue();
    }

    @Test
    void theConfiguredStartUpFigureIsExpectedUntilThePeriodicUpdateAdoptsTheActualCount() {
        SelfPreservation sp = selfPreservation(true);
        sp.expectClients(5);
        registerAll(2);
        minuteOfRenewals(2, Set.of());
        assertThat(sp.expectedClients()).isEqualTo(7);
        sp.updateThreshold();
        assertThat(sp.expectedClients()).as("2 is not more than 85 % of 7: kept, as Eureka does").isEqualTo(7);
        registerAll(40);
        minuteOfRenewals(40, Set.of());
        sp.updateThreshold();
        assertThat(sp.expectedClients()).isEqualTo(40);
    }

    @Test
    void evictsAtMostFifteenPercentOfTheRegistryPerPassInRandomOrder() {
        SelfPreservation sp = selfPreservation(false);
        registerAll(20);
        clock.advance(Duration.ofSeconds(91));
        Evictor evictor = evictor(sp, 1);
        assertThat(evictor.run()).isEqualTo(20 - (int) (20 * 0.85));
        assertThat(registry.size()).isEqualTo(17);

        Set<String> firstPicks = new HashSet<>();
        for (long seed = 0; seed < 5; seed++) {
            InstanceRegistry other = new InstanceRegistry(clock, Duration.ofMinutes(3));
            for (int i = 0; i < 20; i++) {
                other.register(Instances.up("APP" + (i % 3), "i-" + i), Origin.CLIENT);
            }
            clock.advance(Duration.ofSeconds(91));
            var before = new HashSet<>(other.views().expiredLeases(Duration.ZERO).stream().map(l -> l.instance().id()).toList());
            new Evictor(new EvictionConfig(Duration.ofSeconds(60)), 0.85, other, sp, clock, new Random(seed)).run();
            before.removeAll(other.views().snapshot().applications().applications().stream()
                    .flatMap(a -> a.instances().stream()).map(i -> i.id()).toList());
            firstPicks.add(before.toString());
        }
        assertThat(firstPicks).as("different seeds pick different victims").hasSizeGreaterThan(1);
    }

    @Test
    void selfPreservationEngagesWhenMoreThanFifteenPercentStopRenewingAndReleasesWhenTheyResume() {
        SelfPreservation sp = selfPreservation(true);
        registerAll(20);
        Evictor evictor = evictor(sp, 7);
        minuteOfRenewals(20, Set.of());
        assertThat(sp.allowsExpiry()).isTrue();

        Set<Integer> dead = Set.of(0, 1, 2, 3);   // 20 % stop renewing
        minuteOfRenewals(20, dead);
        minuteOfRenewals(20, dead);
        assertThat(registry.renewalsLastMinute()).isEqualTo(32);
        assertThat(sp.threshold()).isEqualTo(34);
        assertThat(sp.allowsExpiry()).isFalse();
        assertThat(evictor.run()).isZero();
        assertThat(registry.size()).isEqualTo(20);

        minuteOfRenewals(20, Set.of(0, 1));   // 10 % silent: 36 renewals > 34
        assertThat(sp.allowsExpiry()).isTrue();
    }

    @Test
    void abandonedInstancesAreEvictedWhileTheRestRenew() {
        SelfPreservation sp = selfPreservation(true);
        registerAll(40);
        Evictor evictor = evictor(sp, 3);
        Set<Integer> dead = Set.of(5);
        minuteOfRenewals(40, Set.of());
        minuteOfRenewals(40, dead);
        minuteOfRenewals(40, dead);   // i-5 last renewed 2 minutes ago: past its 90 s
        assertThat(evictor.run()).isEqualTo(1);
        assertThat(registry.views().lease("APP2", "i-5")).isEmpty();
        assertThat(evictor.evictedTotal()).isEqualTo(1);
    }

    /**
     * A heartbeat that lands while a pass runs, after its scan found the lease lapsed: the instance renewed just
     * now and stays. The pass's shuffle (between the scan and the removals) is where the heartbeat is made to land.
     */
    @Test
    void aHeartbeatLandingAfterThePassScannedKeepsItsInstance() {
        SelfPreservation sp = selfPreservation(false);
        registry.register(Instances.up("APP0", "i-0"), Origin.CLIENT);
        registry.register(Instances.up("APP1", "i-1"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(91));
        Random heartbeatDuringThePass = new Random(1) {
            @Override
            public int nextInt(int bound) {
                registry.renew("APP0", "i-0", null, null, Origin.CLIENT);
                return super.nextInt(bound);
            }
        };
        Evictor evictor = new Evictor(new EvictionConfig(Duration.ofSeconds(60)), 0.0, registry, sp, clock,
                heartbeatDuringThePass);

        assertThat(evictor.run()).isEqualTo(1);
        assertThat(registry.views().lease("APP0", "i-0")).as("renewed during the pass").isPresent();
        assertThat(registry.views().lease("APP1", "i-1")).isEmpty();
        assertThat(evictor.evictedTotal()).isEqualTo(1);
    }

    @Test
    void aLateTimerDoesNotCountTheDelayAgainstLeases() {
        SelfPreservation sp = selfPreservation(false);
        Evictor evictor = evictor(sp, 1);
        evictor.run();
        registerAll(10);
        clock.advance(Duration.ofSeconds(100));   // 40 s late: leases 10 s past expiry get 40 s of grace
        assertThat(evictor.run()).isZero();
        clock.advance(Duration.ofSeconds(60));
        assertThat(evictor.run()).isPositive();
    }

    /**
     * After a start the count covers no whole minute yet: no WARNING then, and once measured the log line is the
     * dashboard's own sentence.
     */
    @Test
    void noWarningWhileTheFirstMinuteIsMeasuredAndTheLogSaysWhatThePageSays() {
        SelfPreservation sp = selfPreservation(true);
        registerAll(10);
        minuteOfRenewals(10, Set.of());   // renewing instances, as restored from a snapshot at a start
        clock.advance(Duration.ofMinutes(2));   // the restart: no renewal counted since
        CapturedLog log = new CapturedLog();
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(Evictor.class.getName());
        logger.addHandler(log);
        try {
            Evictor evictor = evictor(sp, 1);
            sp.measureFrom(clock.instant());
            clock.advance(Duration.ofSeconds(45));
            assertThat(sp.verdict(clock.instant()).mode()).isEqualTo(PreservationVerdict.Mode.MEASURING);
            evictor.run();
            assertThat(log.records).as("the first measuring window is no emergency").isEmpty();
            assertThat(sp.verdict(clock.instant()).text()).contains("measuring renewals", "no emergency");

            clock.advance(Duration.ofSeconds(120));   // measured now, and nobody renewed
            PreservationVerdict verdict = sp.verdict(clock.instant());
            assertThat(verdict.mode()).isEqualTo(PreservationVerdict.Mode.PRESERVING);
            evictor.run();
            evictor.run();
            assertThat(log.records).hasSize(1);
            assertThat(log.records.get(0).getLevel()).isEqualTo(Level.WARNING);
            assertThat(log.records.get(0).getMessage()).isEqualTo("Muster: " + verdict.text());
        } finally {
            logger.removeHandler(log);
        }
    }

    @Test
    void thePerPassLimitUsesTheConfiguredShare() {
        registerAll(40);
        SelfPreservation sp = selfPreservation(false);
        Evictor evictor = new Evictor(new EvictionConfig(Duration.ofSeconds(60)), 0.5, registry, sp, clock,
                new Random(1));
        assertThat(evictor.passLimit()).isEqualTo(20);
        clock.advance(Duration.ofHours(1));
        assertThat(evictor.run()).isEqualTo(20);
    }
}
