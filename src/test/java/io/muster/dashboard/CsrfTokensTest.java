package io.muster.dashboard;

import io.muster.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The dashboard's anti-CSRF tokens: one per admin, rotating every window, expired after two. */
class CsrfTokensTest {
    private final MutableClock clock = MutableClock.atEpochMillis(1_700_000_000_000L);
    private final CsrfTokens tokens = new CsrfTokens(clock, Duration.ofMinutes(10));

    @Test
    void aTokenWorksOnlyForTheAdminItWasIssuedTo() {
        String token = tokens.issue("alice");
        assertThat(tokens.isValid("alice", token)).isTrue();
        assertThat(tokens.isValid("bob", token)).isFalse();
        assertThat(tokens.isValid("alice", "guess")).isFalse();
        assertThat(tokens.isValid("alice", null)).isFalse();
        assertThat(tokens.isValid(null, token)).isFalse();
    }

    @Test
    void tokensRotateEveryWindowAndExpireAfterTheNext() {
        String first = tokens.issue("alice");
        clock.advance(Duration.ofMinutes(10));
        String second = tokens.issue("alice");
        assertThat(second).isNotEqualTo(first);
        assertThat(tokens.isValid("alice", first)).as("still valid in the following window").isTrue();
        clock.advance(Duration.ofMinutes(10));
        assertThat(tokens.isValid("alice", first)).as("expired").isFalse();
        assertThat(tokens.isValid("alice", second)).isTrue();
    }

    @Test
    void anotherServerStartIssuesOtherTokens() {
        assertThat(new CsrfTokens(clock, Duration.ofMinutes(10)).isValid("alice", tokens.issue("alice"))).isFalse();
    }
}
