package io.muster.resources;

import org.junit.jupiter.api.Test;

import static io.muster.resources.AccessControl.requiredRoles;
import static org.assertj.core.api.Assertions.assertThat;

/** Which endpoint needs which role, for every URL form clients use. */
class AccessControlTest {
    @Test
    void replicationNeedsThePeerRoleUnderAnyVersionSegment() {
        assertThat(requiredRoles("POST", "/peerreplication/batch/", false, false)).containsExactly("eureka-peer");
        assertThat(requiredRoles("POST", "/v2/peerreplication/batch", false, false)).containsExactly("eureka-peer");
        assertThat(requiredRoles("POST", "/v9/peerreplication/batch", false, false)).containsExactly("eureka-peer");
        assertThat(requiredRoles("PUT", "/apps/A/i-1", true, false)).as("a write flagged as replicated")
                .containsExactly("eureka-peer");
    }

    @Test
    void statusOverridesAndDashboardActionsNeedAnAdmin() {
        assertThat(requiredRoles("PUT", "/apps/A/i-1/status", false, false)).contains("eureka-admin");
        assertThat(requiredRoles("DELETE", "/v2/apps/A/i-1/status", false, false)).contains("eureka-admin");
        assertThat(requiredRoles("POST", "/api/admin/instances/A/i-1/deregister", false, false))
                .containsExactly("eureka-admin");
        assertThat(requiredRoles("GET", "/apps/A/i-1/status", false, false)).isEmpty();
    }

    @Test
    void clientEndpointsAreOpenUnlessClientAuthenticationIsOn() {
        for (String[] call : new String[][]{{"POST", "/apps/A"}, {"PUT", "/apps/A/i-1"}, {"DELETE", "/apps/A/i-1"},
                {"GET", "/apps/"}, {"GET", "/v2/apps/delta"}, {"GET", "/vips/a"}, {"GET", "/instances/i-1"}}) {
            assertThat(requiredRoles(call[0], call[1], false, false)).as(call[1]).isEmpty();
            assertThat(requiredRoles(call[0], call[1], false, true)).as(call[1])
                    .containsExactlyInAnyOrder("eureka-client", "eureka-admin", "eureka-peer");
        }
    }

    @Test
    void healthAndTheDashboardPageStayOpen() {
        assertThat(requiredRoles("GET", "/health/ready", false, true)).isEmpty();
        assertThat(requiredRoles("GET", "/", false, false)).isEmpty();
        assertThat(requiredRoles("GET", "/dashboard/dashboard.js", false, false)).isEmpty();
    }
}
