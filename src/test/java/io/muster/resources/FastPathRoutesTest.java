package io.muster.resources;

import io.muster.cache.CacheKey;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which requests the servlet fast paths (heartbeat, registration, full and delta fetch) answer themselves; everything
 * else must reach Jersey untouched.
 */
class FastPathRoutesTest {
    @Test
    void answersAHeartbeatInEveryVersionAndSlashForm() {
        for (String path : new String[]{"/apps/APP/id-1", "/apps/APP/id-1/", "/v2/apps/APP/id-1", "/V2/apps/APP/id-1/",
                "/v10/apps/APP/id-1"}) {
            assertThat(HeartbeatFastPath.target(path)).as(path).containsExactly("APP", "id-1");
        }
    }

    @Test
    void passesOnSubResourcesCollectionsAndOtherEndpoints() {
        for (String path : new String[]{"/apps/APP/id-1/status", "/apps/APP/id-1/metadata", "/apps/APP", "/apps/APP/",
                "/apps/", "/apps", "/apps//id", "/apps/APP//", "/instances/id-1", "/peerreplication/batch/",
                "/vx/apps/APP/id-1", "/v2", "/v2/instances/APP/id", "/api/admin/apps/APP/id-1", "", "/"}) {
            assertThat(HeartbeatFastPath.target(path)).as(path).isNull();
        }
    }

    @Test
    void leavesEncodedAndMatrixSegmentsToJersey() {
        assertThat(HeartbeatFastPath.target("/apps/APP/host%3A8080")).isNull();
        assertThat(HeartbeatFastPath.target("/apps/APP;x=1/id-1")).isNull();
        assertThat(HeartbeatFastPath.target("/apps/APP/id-1;jsessionid=abc")).isNull();
    }


    @Test
    void answersTheFullRegistryAndTheDeltaInEveryVersionAndSlashForm() {
        for (String path : new String[]{"/apps", "/apps/", "/v2/apps", "/V2/apps/"}) {
            assertThat(RegistryFetchFastPath.entity(path)).as(path).isEqualTo(CacheKey.Entity.ALL_APPS);
        }
        for (String path : new String[]{"/apps/delta", "/apps/delta/", "/v2/apps/delta", "/v3/apps/delta/"}) {
            assertThat(RegistryFetchFastPath.entity(path)).as(path).isEqualTo(CacheKey.Entity.DELTA);
        }
    }

    @Test
    void passesOnApplicationsInstancesAndEverythingElse() {
        for (String path : new String[]{"/apps/APP", "/apps/deltas", "/apps/delta/x", "/apps//", "/appsx", "/v2",
                "/v2/appsx", "/apps;x=1", "/vips/v", "/", "", "/api/status", "/apps/delta;a=b"}) {
            assertThat(RegistryFetchFastPath.entity(path)).as(path).isNull();
        }
    }

    @Test
    void theVersionSegmentIsAnyVNumberFollowedByASlash() {
        assertThat(ApiPaths.versionEnd("/v2/apps")).isEqualTo(3);
        assertThat(ApiPaths.versionEnd("/V10/apps")).isEqualTo(4);
        assertThat(ApiPaths.versionEnd("/v2")).isZero();
        assertThat(ApiPaths.versionEnd("/vx/apps")).isZero();
        assertThat(ApiPaths.versionEnd("/apps")).isZero();
        assertThat(ApiPaths.versionEnd("")).isZero();
    }

    @Test
    void registrationsAreRecognisedByTheirApplicationSegment() {
        for (String path : new String[]{"/apps/APP", "/apps/APP/", "/v2/apps/APP", "/V2/apps/APP/"}) {
            assertThat(RegistrationFastPath.app(path)).as(path).isEqualTo("APP");
        }
        for (String path : new String[]{"/apps", "/apps/", "/apps/APP/id", "/apps/AP%20P", "/apps/APP;x=1",
                "/peerreplication/batch/", "/api/admin/apps/APP"}) {
            assertThat(RegistrationFastPath.app(path)).as(path).isNull();
        }
    }
}
