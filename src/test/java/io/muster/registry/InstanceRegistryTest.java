package io.muster.registry;

import io.muster.model.ActionType;
import io.muster.model.Application;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.model.VipKind;
import io.muster.testing.Instances;
import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.muster.model.InstanceStatus.DOWN;
import static io.muster.model.InstanceStatus.OUT_OF_SERVICE;
import static io.muster.model.InstanceStatus.STARTING;
import static io.muster.model.InstanceStatus.UNKNOWN;
import static io.muster.model.InstanceStatus.UP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InstanceRegistryTest {
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final InstanceRegistry registry = new InstanceRegistry(clock, Duration.ofMinutes(3));
    private final List<RegistryChange> changes = new ArrayList<>();

    InstanceRegistryTest() {
        registry.addListener(changes::add);
    }

    private InstanceInfo stored(String app, String id) {
        return registry.views().instance(app, id).orElseThrow();
    }

    @Test
    void registeredInstanceIsFoundByAppIdVipAndSecureVip() {
        registry.register(Instances.sample("ORDERS", "i-1").vipAddress("orders,shop").build(), Origin.CLIENT);
        assertThat(registry.views().instance("orders", "i-1")).isPresent();
        assertThat(registry.views().instanceById("i-1")).isPresent();
        assertThat(registry.views().application("ORDERS").map(Application::instances)).get().asList().hasSize(1);
        assertThat(registry.views().vip(VipKind.VIP, "shop").applications().instanceCount()).isEqualTo(1);
        assertThat(registry.views().vip(VipKind.VIP, "sho").applications().instanceCount()).isZero();
        assertThat(registry.views().vip(VipKind.SECURE_VIP, "orders").applications().instanceCount()).isEqualTo(1);
        assertThat(stored("ORDERS", "i-1").actionType()).isEqualTo(ActionType.ADDED);
        assertThat(changes).singleElement().isInstanceOf(RegistryChange.Registered.class);
    }

    @Test
    void renewOfUnknownInstanceIsNotFound() {
        assertThat(registry.renew("ORDERS", "nope", null, null, Origin.CLIENT).result())
                .isEqualTo(RenewOutcome.Result.NOT_FOUND);
    }

    @Test
    void renewalMovesTheLeaseAndCountsForTheRenewalRate() {
        registry.register(Instances.up("ORDERS", "i-1"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(30));
        assertThat(registry.renew("ORDERS", "i-1", null, null, Origin.CLIENT)).isEqualTo(RenewOutcome.OK);
        assertThat(registry.views().lease("ORDERS", "i-1").orElseThrow().lastRenewedAt()).isEqualTo(clock.instant());
        clock.advance(Duration.ofMinutes(1));
        assertThat(registry.renewalsLastMinute()).isEqualTo(1);
        assertThat(changes.get(changes.size() - 1).isVisible()).isFalse();
    }

    @Test
    void staleRegistrationDoesNotRollBackANewerOne() {
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(2_000).ipAddr("10.0.0.2").build(),
                Origin.CLIENT);
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(1_000).ipAddr("10.0.0.1").build(),
                Origin.PEER);
        assertThat(stored("ORDERS", "i-1").ipAddr()).isEqualTo("10.0.0.2");
    }

    @Test
    void clientWhoseClockWasAheadIsNotShadowedByItsFutureDirtyTimestamp() {
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(2_000).status(UP).build(),
                Origin.CLIENT);
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(1_000).status(DOWN)
                .ipAddr("10.0.0.9").build(), Origin.CLIENT);
        InstanceInfo i = stored("ORDERS", "i-1");
        assertThat(i.status()).isEqualTo(DOWN);
        assertThat(i.ipAddr()).isEqualTo("10.0.0.9");
        assertThat(i.lastDirtyTimestamp()).as("newer than the copy peers hold").isEqualTo(2_001);
        assertThat(registry.renew("ORDERS", "i-1", 1_000L, null, Origin.CLIENT))
                .as("its heartbeats, carrying its own older version, are not answered 404")
                .isEqualTo(RenewOutcome.OK);
    }

    @Test
    void aClientRegisteringAgainAfterItsCancelIsStampedPastTheCancelledVersion() {
        // its clock ran ahead when it registered and was put right before it came back: a peer that missed the
        // cancel still holds the version from the future, which must not win over the client's latest word
        long ahead = clock.millis() + 600_000;
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(ahead).status(STARTING).build(),
                Origin.CLIENT);
        registry.cancel("ORDERS", "i-1", Origin.CLIENT);
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(clock.millis()).status(UP).build(),
                Origin.CLIENT);

        assertThat(stored("ORDERS", "i-1").lastDirtyTimestamp()).isEqualTo(ahead + 1);
        assertThat(stored("ORDERS", "i-1").status()).isEqualTo(UP);

    }

    @Test
    void aReplicatedRegistrationNoNewerThanACancelHereIsRefusedAndANewerOneIsTaken() {
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(2_000).build(), Origin.CLIENT);
        registry.cancel("ORDERS", "i-1", Origin.PEER);
        // a peer's retry queued before the cancel reached it: it would bring a cancelled instance back
        assertThatThrownBy(() -> registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(2_000)
                .build(), Origin.PEER)).isInstanceOf(CancelledHereException.class);
        assertThat(registry.views().lease("ORDERS", "i-1")).isEmpty();
        assertThat(registry.refusals(Refusal.CANCELLED_SINCE)).isEqualTo(1);

        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(2_500).build(), Origin.PEER);
        assertThat(stored("ORDERS", "i-1").lastDirtyTimestamp()).as("registered again since, elsewhere")
                .isEqualTo(2_500);
    }

    @Test
    void aReplicatedCancelOfAVersionRemovesThatVersionRemembersItWhenAbsentAndSparesANewerCopy() {
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(2_000).build(), Origin.PEER);
        assertThat(registry.cancelReplicated("ORDERS", "i-1", 2_000L)).isTrue();
        assertThat(registry.views().lease("ORDERS", "i-1")).isEmpty();

        // the cancel arrives before the copy it cancels (a node still syncing): the copy is refused after it
        assertThat(registry.cancelReplicated("ORDERS", "i-2", 1_000L)).isFalse();
        assertThatThrownBy(() -> registry.register(Instances.sample("ORDERS", "i-2").lastDirtyTimestamp(1_000)
                .build(), Origin.PEER)).isInstanceOf(CancelledHereException.class);

        // registered again since (a newer version reached this node first): the old version's cancel spares it
        registry.register(Instances.sample("ORDERS", "i-3").lastDirtyTimestamp(3_000).build(), Origin.PEER);
        assertThat(registry.cancelReplicated("ORDERS", "i-3", 2_500L)).isTrue();
        assertThat(registry.views().lease("ORDERS", "i-3")).isPresent();
        assertThat(registry.cancelReplicated("ORDERS", "i-3", null)).as("a stock Eureka peer's cancel").isTrue();
        assertThat(registry.views().lease("ORDERS", "i-3")).isEmpty();
    }

    @Test
    void aClientsCancelSupersedesARegistrationItMadeEarlierOnAnotherNodeThatHadNotReachedThisOne() {
        // node A acknowledged the client's status change (dirty = its clock then) and stopped before replicating
        // it; the client failed over and cancelled here, where the older version was held
        long before = clock.millis() - 1_000;
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(before - 5_000).build(),
                Origin.PEER);
        registry.cancel("ORDERS", "i-1", Origin.CLIENT);

        assertThat(changes).last().isInstanceOfSatisfying(RegistryChange.Cancelled.class,
                c -> assertThat(c.version()).as("what its replication and journal entry carry")
                        .isEqualTo(clock.millis()));
        assertThatThrownBy(() -> registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(before)
                .status(DOWN).build(), Origin.PEER))
                .as("A's registration arriving late, or restored from A's snapshot")
                .isInstanceOf(CancelledHereException.class);

        // on node A, holding that registration: the cancel's replication removes it
        InstanceRegistry nodeA = new InstanceRegistry(clock, Duration.ofMinutes(3));
        nodeA.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(before).status(DOWN).build(),
                Origin.CLIENT);
        assertThat(nodeA.cancelReplicated("ORDERS", "i-1", clock.millis())).isTrue();
        assertThat(nodeA.views().lease("ORDERS", "i-1")).isEmpty();
    }

    @Test
    void aClientRegisteringAfterItsCancelWithItsOwnClockIsNewerThanTheCancel() {
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(clock.millis() - 60_000).build(),
                Origin.CLIENT);
        registry.cancel("ORDERS", "i-1", Origin.CLIENT);
        clock.advance(Duration.ofSeconds(20));   // restarted
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(clock.millis()).build(),
                Origin.PEER);
        assertThat(stored("ORDERS", "i-1").lastDirtyTimestamp()).as("replicated from where it registered")
                .isEqualTo(clock.millis());
    }

    @Test
    void anExpiryIsNoCancellationAPeersCopyOfAnEvictedInstanceIsTaken() {
        // evicted here on this node's clock, alive on the peer whose heartbeats did not reach us in time
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(2_000).build(), Origin.CLIENT);
        registry.expire("ORDERS", "i-1");
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(2_000).build(), Origin.PEER);
        assertThat(registry.views().lease("ORDERS", "i-1")).isPresent();
    }

    @Test
    void cancellationsHandedOverRemoveThePeersCopiesTheyCoverButNotNewerOnes() {
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(1_000).build(), Origin.PEER);
        registry.register(Instances.sample("ORDERS", "i-2").lastDirtyTimestamp(3_000).build(), Origin.PEER);
        registry.tombstones().remember("ORDERS", "i-1", 1_000, clock.instant());
        registry.tombstones().remember("ORDERS", "i-2", 2_000, clock.instant());
        assertThat(registry.dropCancelledCopies()).isEqualTo(1);
        assertThat(registry.views().lease("ORDERS", "i-1")).isEmpty();
        assertThat(registry.views().lease("ORDERS", "i-2")).as("registered again after that cancel").isPresent();
    }

    @Test
    void clientWithNewerDirtyTimestampIsToldToRegisterAgain() {
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(1_000).build(), Origin.CLIENT);
        assertThat(registry.renew("ORDERS", "i-1", 1_000L, null, Origin.CLIENT)).isEqualTo(RenewOutcome.OK);
        assertThat(registry.renew("ORDERS", "i-1", 2_000L, null, Origin.CLIENT).result())
                .isEqualTo(RenewOutcome.Result.NOT_FOUND);
        assertThat(registry.renew("ORDERS", "i-1", 500L, null, Origin.CLIENT)).isEqualTo(RenewOutcome.OK);
    }

    @Test
    void peerWithOlderDirtyTimestampGetsAConflictWithOurCopy() {
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(2_000).build(), Origin.CLIENT);
        RenewOutcome outcome = registry.renew("ORDERS", "i-1", 1_000L, null, Origin.PEER);
        assertThat(outcome.result()).isEqualTo(RenewOutcome.Result.CONFLICT);
        assertThat(outcome.newerInstance().lastDirtyTimestamp()).isEqualTo(2_000);
    }

    @Test
    void peerWithNewerDirtyTimestampPassesItsOverrideOn() {
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(1_000).build(), Origin.CLIENT);
        assertThat(registry.renew("ORDERS", "i-1", 2_000L, OUT_OF_SERVICE, Origin.PEER).result())
                .isEqualTo(RenewOutcome.Result.NOT_FOUND);
        assertThat(registry.overrides().byId()).containsEntry("i-1", OUT_OF_SERVICE);
    }

    @Test
    void overrideSurvivesHeartbeatsAndReRegistration() {
        registry.register(Instances.up("ORDERS", "i-1"), Origin.CLIENT);
        assertThat(registry.statusUpdate("ORDERS", "i-1", OUT_OF_SERVICE, null, Origin.CLIENT)).isTrue();
        assertThat(registry.renew("ORDERS", "i-1", null, null, Origin.CLIENT)).isEqualTo(RenewOutcome.OK);
        registry.register(Instances.up("ORDERS", "i-1"), Origin.CLIENT);
        InstanceInfo i = stored("ORDERS", "i-1");
        assertThat(i.status()).isEqualTo(OUT_OF_SERVICE);
        assertThat(i.overriddenStatus()).isEqualTo(OUT_OF_SERVICE);
    }

    @Test
    void instanceReportingDownKeepsDownDespiteAnOverride() {
        registry.register(Instances.up("ORDERS", "i-1"), Origin.CLIENT);
        registry.statusUpdate("ORDERS", "i-1", OUT_OF_SERVICE, null, Origin.CLIENT);
        registry.register(Instances.sample("ORDERS", "i-1").status(DOWN).build(), Origin.CLIENT);
        assertThat(stored("ORDERS", "i-1").status()).isEqualTo(DOWN);
    }

    @Test
    void existingOutOfServiceLeaseWinsOverAClientRegisteringUp() {
        registry.register(Instances.sample("ORDERS", "i-1").status(OUT_OF_SERVICE).build(), Origin.CLIENT);
        registry.register(Instances.up("ORDERS", "i-1"), Origin.CLIENT);
        assertThat(stored("ORDERS", "i-1").status()).isEqualTo(OUT_OF_SERVICE);
        registry.register(Instances.up("ORDERS", "i-1"), Origin.PEER);   // the lease rule applies to clients only
        assertThat(stored("ORDERS", "i-1").status()).isEqualTo(UP);
    }

    @Test
    void deletingAnOverrideWithoutValueMakesTheNextHeartbeatReRegister() {
        registry.register(Instances.up("ORDERS", "i-1"), Origin.CLIENT);
        registry.statusUpdate("ORDERS", "i-1", OUT_OF_SERVICE, null, Origin.CLIENT);
        assertThat(registry.deleteStatusOverride("ORDERS", "i-1", UNKNOWN, null, Origin.CLIENT)).isTrue();
        assertThat(stored("ORDERS", "i-1").status()).isEqualTo(UNKNOWN);
        assertThat(registry.renew("ORDERS", "i-1", null, null, Origin.CLIENT).result())
                .isEqualTo(RenewOutcome.Result.NOT_FOUND);
        registry.register(Instances.up("ORDERS", "i-1"), Origin.CLIENT);
        assertThat(stored("ORDERS", "i-1").status()).isEqualTo(UP);
    }

    @Test
    void statusUpdateRaisesTheDirtyTimestampOnlyUpwards() {
        registry.register(Instances.sample("ORDERS", "i-1").lastDirtyTimestamp(5_000).build(), Origin.CLIENT);
        registry.statusUpdate("ORDERS", "i-1", DOWN, 4_000L, Origin.CLIENT);
        assertThat(stored("ORDERS", "i-1").lastDirtyTimestamp()).isEqualTo(5_000);
        registry.statusUpdate("ORDERS", "i-1", UP, 6_000L, Origin.CLIENT);
        assertThat(stored("ORDERS", "i-1").lastDirtyTimestamp()).isEqualTo(6_000);
    }

    @Test
    void cancelRemovesTheInstanceAndItsOverride() {
        registry.register(Instances.up("ORDERS", "i-1"), Origin.CLIENT);
        registry.statusUpdate("ORDERS", "i-1", OUT_OF_SERVICE, null, Origin.CLIENT);
        assertThat(registry.cancel("orders", "i-1", Origin.CLIENT)).isTrue();
        assertThat(registry.cancel("orders", "i-1", Origin.CLIENT)).isFalse();
        assertThat(registry.views().application("ORDERS")).isEmpty();
        assertThat(registry.overrides().byId()).isEmpty();
        assertThat(registry.applicationCount()).isZero();
    }

    @Test
    void metadataUpdateMergesAndReRegisters() {
        registry.register(Instances.up("ORDERS", "i-1"), Origin.CLIENT);
        assertThat(registry.updateMetadata("ORDERS", "i-1", Map.of("weight", "3"))).isPresent();
        assertThat(stored("ORDERS", "i-1").metadata()).containsEntry("zone", "z1").containsEntry("weight", "3");
        assertThat(registry.updateMetadata("ORDERS", "nope", Map.of("a", "b"))).isEmpty();
    }

    @Test
    void hashCountsInstancesPerStatusInNameOrder() {
        registry.register(Instances.up("A", "1"), Origin.CLIENT);
        registry.register(Instances.up("A", "2"), Origin.CLIENT);
        registry.register(Instances.up("B", "3"), Origin.CLIENT);
        registry.register(Instances.sample("B", "4").status(DOWN).build(), Origin.CLIENT);
        assertThat(registry.views().snapshot().applications().appsHashCode()).isEqualTo("DOWN_1_UP_3_");
        assertThat(registry.views().snapshot().applications().version()).isEqualTo(1);
    }

    @Test
    void deltaShowsTheLatestStateOfEachChangedInstance() {
        registry.register(Instances.up("A", "1"), Origin.CLIENT);
        registry.register(Instances.up("A", "2"), Origin.CLIENT);
        registry.statusUpdate("A", "1", DOWN, null, Origin.CLIENT);
        registry.cancel("A", "2", Origin.CLIENT);
        var delta = registry.views().delta().applications();
        assertThat(delta.appsHashCode()).isEqualTo("DOWN_1_");
        List<InstanceInfo> instances = delta.applications().get(0).instances();
        assertThat(instances).extracting(InstanceInfo::id).containsExactly("1", "2");
        assertThat(instances).extracting(InstanceInfo::actionType)
                .containsExactly(ActionType.MODIFIED, ActionType.DELETED);
        assertThat(instances.get(0).status()).isEqualTo(DOWN);
    }

    @Test
    void changesOlderThanTheRetentionWindowLeaveTheDelta() {
        registry.register(Instances.up("A", "1"), Origin.CLIENT);
        clock.advance(Duration.ofMinutes(2));
        registry.register(Instances.up("A", "2"), Origin.CLIENT);
        clock.advance(Duration.ofMinutes(1).plusSeconds(1));
        assertThat(registry.purgeRecentChanges()).isEqualTo(1);
        assertThat(registry.views().delta().applications().applications().get(0).instances())
                .extracting(InstanceInfo::id).containsExactly("2");
    }

    @Test
    void renewalThatCorrectsTheStatusIsAVisibleChange() {
        registry.register(Instances.up("A", "1"), Origin.CLIENT);
        registry.renew("A", "1", 2_000L, OUT_OF_SERVICE, Origin.PEER);   // a peer reports an override
        long before = registry.sequence();
        registry.renew("A", "1", null, null, Origin.CLIENT);
        assertThat(stored("A", "1").status()).isEqualTo(OUT_OF_SERVICE);
        assertThat(registry.sequence()).isGreaterThan(before);
    }

    @Test
    void expiredLeasesAreThoseOneDurationPastTheirLastRenewal() {
        registry.register(Instances.up("A", "1"), Origin.CLIENT);
        registry.register(Instances.up("A", "2"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(60));
        registry.renew("A", "2", null, null, Origin.CLIENT);
        clock.advance(Duration.ofSeconds(31));
        assertThat(registry.views().expiredLeases(Duration.ZERO)).extracting(l -> l.instance().id()).containsExactly("1");
        assertThat(registry.expire("A", "1")).isTrue();
        assertThat(changes.get(changes.size() - 1)).isInstanceOf(RegistryChange.Expired.class);
    }

    @Test
    void anExpiryRemovesOnlyTheLeaseTheEvictorSawNotOneRenewedSince() {
        registry.register(Instances.up("A", "1"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(91));
        Lease seen = registry.views().expiredLeases(Duration.ZERO).get(0);   // the evictor's scan
        registry.renew("A", "1", null, null, Origin.CLIENT);                  // the heartbeat lands meanwhile
        int before = changes.size();

        assertThat(registry.expire(seen)).as("renewed since the scan").isFalse();
        assertThat(registry.views().lease("A", "1")).isPresent();
        assertThat(registry.size()).isEqualTo(1);
        assertThat(changes.subList(before, changes.size())).noneMatch(c -> c instanceof RegistryChange.Expired);
    }

    @Test
    void anExpiryRemovesOnlyTheLeaseTheEvictorSawNotARegistrationAgain() {
        registry.register(Instances.up("A", "1"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(91));
        Lease seen = registry.views().expiredLeases(Duration.ZERO).get(0);
        registry.register(Instances.up("A", "1"), Origin.CLIENT);

        assertThat(registry.expire(seen)).isFalse();
        assertThat(registry.views().lease("A", "1")).isPresent();
    }

    @Test
    void anExpiryRemovesTheLeaseTheEvictorSawWhenNothingChangedSince() {
        registry.register(Instances.up("A", "1"), Origin.CLIENT);
        clock.advance(Duration.ofSeconds(91));
        Lease seen = registry.views().expiredLeases(Duration.ZERO).get(0);

        assertThat(registry.expire(seen)).isTrue();
        assertThat(registry.views().lease("A", "1")).isEmpty();
        assertThat(registry.expire(seen)).as("gone already").isFalse();
    }

    @Test
    void statusOfUnknownInstanceIsNotFound() {
        assertThat(registry.statusUpdate("A", "x", UP, null, Origin.CLIENT)).isFalse();
        assertThat(registry.deleteStatusOverride("A", "x", UNKNOWN, null, Origin.CLIENT)).isFalse();
        assertThat(registry.views().snapshot().applications().appsHashCode()).isEmpty();
        assertThat(InstanceStatus.parse("BOGUS")).isEmpty();
    }
}
