package io.muster.registry;

import io.muster.config.ServerConfig.LimitsConfig;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.LeaseInfo;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the registry counts for self-preservation: which instances are expected to renew (those that have renewed)
 * and how many of one instance's heartbeats count as renewals in a minute (what its interval allows), on a clock
 * the test moves.
 */
class RenewalCountingTest {
    /** The start of a wall-clock minute: renewals are counted per clock minute. */
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_040_000L);
    private final InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));

    private static InstanceInfo withInterval(String app, String id, int renewalIntervalSecs) {
        return Instances.sample(app, id).leaseInfo(new LeaseInfo(renewalIntervalSecs, 90, 0, 0, 0, 0)).build();
    }

    private void renew(String app, String id, int times) {
        for (int i = 0; i < times; i++) {
            assertThat(registry.renew(app, id, null, null, Origin.CLIENT)).isEqualTo(RenewOutcome.OK);
        }
    }

    private void nextMinute() {
        clock.advance(Duration.ofMinutes(1));
    }

    @Test
    void aRegistrationIsExpectedToRenewOnlyOnceItHasRenewed() {
        registry.register(Instances.up("APP", "junk"), Origin.CLIENT);
        registry.register(Instances.up("APP", "real"), Origin.PEER);
        assertThat(registry.renewingInstances()).isZero();

        renew("APP", "real", 1);
        assertThat(registry.renewingInstances()).isEqualTo(1);
        renew("APP", "real", 1);
        assertThat(registry.renewingInstances()).as("counted once, however often it renews").isEqualTo(1);

        registry.register(Instances.up("APP", "real"), Origin.CLIENT);
        assertThat(registry.renewingInstances()).as("registering again keeps it expected").isEqualTo(1);
        registry.statusUpdate("APP", "junk", InstanceStatus.OUT_OF_SERVICE, null, Origin.CLIENT);
        assertThat(registry.renewingInstances()).as("a status update is not a heartbeat").isEqualTo(1);

        registry.cancel("APP", "junk", Origin.CLIENT);
        assertThat(registry.renewingInstances()).as("the junk was never counted").isEqualTo(1);
        registry.expire("APP", "real");
        assertThat(registry.renewingInstances()).isZero();
    }

    @Test
    void aReplicatedHeartbeatMakesAnInstanceExpectedToo() {
        registry.register(Instances.up("APP", "i-1"), Origin.PEER);
        registry.renew("APP", "i-1", null, null, Origin.PEER);
        assertThat(registry.renewingInstances()).isEqualTo(1);
    }

    @Test
    void aFloodOfHeartbeatsForOneInstanceCountsAsTwoPerMinute() {
        registry.register(Instances.up("APP", "flooded"), Origin.CLIENT);
        renew("APP", "flooded", 5_000);
        nextMinute();
        assertThat(registry.renewalsLastMinute()).isEqualTo(2);
        assertThat(registry.renewalsNotCountedLastMinute()).isEqualTo(4_998);
        assertThat(registry.views().lease("APP", "flooded").orElseThrow().expiresAt())
                .as("every heartbeat still keeps the lease alive").isEqualTo(clock.instant().plusSeconds(30));

        renew("APP", "flooded", 5_000);
        nextMinute();
        assertThat(registry.renewalsLastMinute()).as("the allowance starts again each minute").isEqualTo(2);
    }

    @Test
    void aClaimedShortIntervalDoesNotBuyMoreCountedRenewals() {
        registry.register(withInterval("APP", "fast", 1), Origin.CLIENT);
        renew("APP", "fast", 60);
        nextMinute();
        assertThat(registry.renewalsLastMinute()).as("no faster than the 30 s the threshold assumes").isEqualTo(2);
    }

    @Test
    void aLongerIntervalAllowsFewerRenewals() {
        registry.register(withInterval("APP", "slow", 60), Origin.CLIENT);
        registry.register(withInterval("APP", "odd", 45), Origin.CLIENT);
        renew("APP", "slow", 3);
        renew("APP", "odd", 3);
        nextMinute();
        assertThat(registry.renewalsLastMinute()).as("60 s: 1 a minute; 45 s: up to 2 fall in one minute")
                .isEqualTo(1 + 2);
    }

    @Test
    void theAllowanceFollowsTheConfiguredExpectedInterval() {
        InstanceRegistry tenSeconds = new InstanceRegistry(clock, Duration.ofMinutes(3), LimitsConfig.DEFAULT,
                Duration.ofSeconds(10));
        tenSeconds.register(withInterval("APP", "i-1", 10), Origin.CLIENT);
        for (int i = 0; i < 20; i++) {
            tenSeconds.renew("APP", "i-1", null, null, Origin.CLIENT);
        }
        nextMinute();
        assertThat(tenSeconds.renewalsLastMinute()).isEqualTo(6);
    }

    @Test
    void registeringAgainDoesNotRestartTheAllowance() {
        registry.register(Instances.up("APP", "i-1"), Origin.CLIENT);
        for (int i = 0; i < 10; i++) {
            registry.register(Instances.up("APP", "i-1"), Origin.CLIENT);
            renew("APP", "i-1", 1);
        }
        nextMinute();
        assertThat(registry.renewalsLastMinute()).isEqualTo(2);
    }

    @Test
    void aHeartbeatThatChangesTheStatusCountsLikeAnyOther() {
        registry.register(Instances.up("APP", "i-1"), Origin.CLIENT);
        // a peer with a newer copy reports an override along with its heartbeat: the next heartbeat applies it
        registry.renew("APP", "i-1", 2_000L, InstanceStatus.OUT_OF_SERVICE, Origin.PEER);
        renew("APP", "i-1", 1);
        assertThat(registry.views().instance("APP", "i-1").orElseThrow().status())
                .isEqualTo(InstanceStatus.OUT_OF_SERVICE);
        assertThat(registry.renewingInstances()).isEqualTo(1);
        renew("APP", "i-1", 5);
        nextMinute();
        assertThat(registry.renewalsLastMinute()).isEqualTo(2);
        assertThat(registry.renewalsNotCountedLastMinute()).isEqualTo(5);
    }

    @Test
    void aRestoredInstanceIsExpectedWhenItHadRenewedBeforeTheRestart() {
        Instant registered = clock.instant().minusSeconds(300);
        registry.restore(Instances.up("APP", "renewing"), registered, clock.instant().minusSeconds(20), null);
        registry.restore(Instances.up("APP", "never"), clock.instant().minusSeconds(20),
                clock.instant().minusSeconds(20), null);
        assertThat(registry.renewingInstances()).isEqualTo(1);

        renew("APP", "renewing", 3);
        nextMinute();
        assertThat(registry.renewingInstances()).isEqualTo(1);
        assertThat(registry.renewalsLastMinute()).as("its allowance is the same as anyone's").isEqualTo(2);
    }

    @Test
    void anInstanceCopiedFromAPeerIsExpectedAtOnce() {
        registry.copyFromPeer(Instances.up("APP", "i-1"));
        registry.copyFromPeer(Instances.up("APP", "i-2"));
        assertThat(registry.renewingInstances()).isEqualTo(2);
        registry.copyFromPeer(Instances.up("APP", "i-1"));   // a later sync copies it again
        assertThat(registry.renewingInstances()).isEqualTo(2);
        registry.cancel("APP", "i-2", Origin.PEER);
        assertThat(registry.renewingInstances()).isEqualTo(1);
    }
}
