package io.muster.api;

import org.junit.jupiter.api.Test;

import java.security.Principal;

import static org.assertj.core.api.Assertions.assertThat;

class CallersTest {
    private static final Principal ALICE = () -> "alice";

    @Test
    void aVerifiedCallerIsNamedAnUnverifiedOneByAddressWithWhatItClaims() {
        assertThat(Callers.client(ALICE, "10.0.0.7", "alice")).isEqualTo("client alice");
        assertThat(Callers.client(null, "10.0.0.7", null)).isEqualTo("anonymous client 10.0.0.7");
        assertThat(Callers.client(null, "10.0.0.7", "")).isEqualTo("anonymous client 10.0.0.7");
        assertThat(Callers.client(null, "10.0.0.7", "orders-svc"))
                .isEqualTo("anonymous client 10.0.0.7 (claims orders-svc)");
    }

    @Test
    void aLongClaimIsCut() {
        String claimed = "x".repeat(10_000);
        assertThat(Callers.client(null, "10.0.0.7", claimed))
                .isEqualTo("anonymous client 10.0.0.7 (claims " + "x".repeat(Callers.MAX_CLAIMED) + "...)");
    }
}
