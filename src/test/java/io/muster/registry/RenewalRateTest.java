package io.muster.registry;

import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Renewals are reported for the last whole clock minute, on a clock the test moves. */
class RenewalRateTest {
    /** 10:00:00.000 UTC on some day: the start of a clock minute. */
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L - 1_700_000_000_000L % 60_000);
    private final RenewalRate rate = new RenewalRate(clock);

    private void renew(int times) {
        for (int i = 0; i < times; i++) {
            rate.increment(clock.instant());
        }
    }

    @Test
    void theCurrentMinuteIsNotReportedUntilItEnds() {
        renew(3);
        clock.advance(Duration.ofSeconds(59));
        renew(2);
        assertThat(rate.lastMinute()).isZero();
        clock.advance(Duration.ofSeconds(1));
        assertThat(rate.lastMinute()).isEqualTo(5);
    }

    @Test
    void eachMinuteIsReportedOnItsOwn() {
        renew(4);
        clock.advance(Duration.ofMinutes(1));
        renew(7);
        assertThat(rate.lastMinute()).isEqualTo(4);
        clock.advance(Duration.ofMinutes(1));
        assertThat(rate.lastMinute()).isEqualTo(7);
    }

    @Test
    void aMinuteWithoutRenewalsReportsZeroNotAnOlderCount() {
        renew(9);
        clock.advance(Duration.ofMinutes(2));
        assertThat(rate.lastMinute()).as("the minute before last had the renewals").isZero();
        renew(1);
        assertThat(rate.lastMinute()).isZero();
        clock.advance(Duration.ofMinutes(1));
        assertThat(rate.lastMinute()).isEqualTo(1);
    }
}
