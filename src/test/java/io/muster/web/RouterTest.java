package io.muster.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How request paths (as the container normalized them) classify into routes, and what Jersey is then given. */
class RouterTest {
    private static Route route(String method, String path) {
        return Router.classify(method, path);
    }

    @Test
    void theEurekaApiAnswersWithAnyVersionSegmentAndTrailingSlash() {
        for (String prefix : new String[]{"", "/v2", "/V2", "/v1", "/v10"}) {
            assertThat(route("GET", prefix + "/apps").endpoint()).isEqualTo(Endpoint.FULL_REGISTRY);
            assertThat(route("GET", prefix + "/apps/").endpoint()).isEqualTo(Endpoint.FULL_REGISTRY);
            assertThat(route("GET", prefix + "/apps/delta").endpoint()).isEqualTo(Endpoint.DELTA);
            assertThat(route("PUT", prefix + "/apps/APP/id-1/").endpoint()).isEqualTo(Endpoint.RENEW);
            assertThat(route("POST", prefix + "/peerreplication/batch").endpoint())
                    .isEqualTo(Endpoint.REPLICATION_BATCH);
            assertThat(route("PUT", prefix + "/apps/APP/id-1/status").endpoint())
                    .isEqualTo(Endpoint.STATUS_OVERRIDE);
        }
    }

    @Test
    void eachMethodOnAnInstanceIsItsOwnEndpoint() {
        assertThat(route("GET", "/apps/A/i").endpoint()).isEqualTo(Endpoint.INSTANCE);
        assertThat(route("HEAD", "/apps/A/i").endpoint()).isEqualTo(Endpoint.INSTANCE);
        assertThat(route("PUT", "/apps/A/i").endpoint()).isEqualTo(Endpoint.RENEW);
        assertThat(route("DELETE", "/apps/A/i").endpoint()).isEqualTo(Endpoint.CANCEL);
        assertThat(route("DELETE", "/apps/A/i/status").endpoint()).isEqualTo(Endpoint.DELETE_STATUS_OVERRIDE);
        assertThat(route("PUT", "/apps/A/i/metadata").endpoint()).isEqualTo(Endpoint.METADATA);
        assertThat(route("POST", "/apps/A").endpoint()).isEqualTo(Endpoint.REGISTER);
        assertThat(route("GET", "/apps/A").endpoint()).isEqualTo(Endpoint.APP);
    }

    @Test
    void pathValuesAreTakenAsTheContainerDecodedThem() {
        Route r = route("PUT", "/v2/apps/my-app/10.0.0.1:my-app:8080");
        assertThat(r.app()).isEqualTo("my-app");
        assertThat(r.id()).isEqualTo("10.0.0.1:my-app:8080");
        assertThat(route("GET", "/vips/a.b").name()).isEqualTo("a.b");
        assertThat(route("GET", "/instances/x y").id()).isEqualTo("x y");
    }

    @Test
    void jerseyIsGivenOneCanonicalSpellingOfEachRoute() {
        assertThat(route("PUT", "/v2/apps/A/10.0.0.1:a:8080/status/").canonicalPath())
                .isEqualTo("/apps/A/10.0.0.1%3Aa%3A8080/status");
        assertThat(route("GET", "//apps//A/").canonicalPath()).isEqualTo("/apps/A");
        assertThat(route("GET", "/instances/caf\u00e9 %").canonicalPath()).isEqualTo("/instances/caf%C3%A9%20%25");
        assertThat(route("GET", "").canonicalPath()).isEqualTo("/");
        assertThat(route("GET", "/dashboard/dashboard.js").canonicalPath()).isEqualTo("/dashboard/dashboard.js");
    }

    @Test
    void anythingElseIsNotFound() {
        for (String path : new String[]{"/APPS", "/Apps/A", "/v2", "/vx/apps", "/v2/health", "/v2/metrics",
                "/v2/api/status", "/apps/A/i/x", "/apps/A/i/status/x", "/apps/A/i/j/k/l", "/peerreplication",
                "/peerreplication/other", "/instances", "/instances/a/b", "/vips", "/status/x", "/health/x",
                "/api", "/api/admin", "/api/admin/csrf/x", "/api/admin/instances/A/i/explode", "/api/other",
                "/api/audit/x", "/v2/api/audit",
                "/dashboard/../web.xml", "/dashboard/x", "/WEB-INF/web.xml", "/apps/./A", "/apps/../apps",
                "/nothing"}) {
            Route r = route("GET", path);
            assertThat(r.endpoint()).as(path).isNull();
            assertThat(r.refusal().status()).as(path).isEqualTo(404);
        }
    }

    @Test
    void aKnownPathWithAnotherMethodIs405WithWhatIsAllowed() {
        Route r = route("POST", "/apps/A/i");
        assertThat(r.endpoint()).isNull();
        assertThat(r.refusal().status()).isEqualTo(405);
        assertThat(r.refusal().headers()).containsEntry("Allow", "GET, HEAD, PUT, DELETE");
        assertThat(route("GET", "/peerreplication/batch").refusal().headers()).containsEntry("Allow", "POST");
        assertThat(route("POST", "/apps/delta").refusal().status()).isEqualTo(405);
        assertThat(route("GET", "/api/admin/instances/A/i/deregister").refusal().status()).isEqualTo(405);
        assertThat(route("OPTIONS", "/apps").refusal().status()).isEqualTo(405);
        assertThat(route("DELETE", "/api/audit").refusal().headers()).containsEntry("Allow", "GET, HEAD");
        assertThat(route("PATCH", "/apps/A/i/status").refusal().status()).isEqualTo(405);
    }

    @Test
    void operationsAndTheDashboardHaveNoVersionForm() {
        assertThat(route("GET", "/").endpoint()).isEqualTo(Endpoint.DASHBOARD);
        assertThat(route("GET", "/health/ready").endpoint()).isEqualTo(Endpoint.HEALTH);
        assertThat(route("GET", "/health/started").endpoint()).isEqualTo(Endpoint.HEALTH);
        assertThat(route("GET", "/metrics").endpoint()).isEqualTo(Endpoint.METRICS);
        assertThat(route("GET", "/api/status").endpoint()).isEqualTo(Endpoint.DASHBOARD_STATUS);
        assertThat(route("GET", "/api/admin/csrf").endpoint()).isEqualTo(Endpoint.ADMIN_CSRF);
        assertThat(route("GET", "/api/audit").endpoint()).isEqualTo(Endpoint.AUDIT);
        Route action = route("POST", "/api/admin/instances/A/i-1/out-of-service");
        assertThat(action.endpoint()).isEqualTo(Endpoint.ADMIN_ACTION);
        assertThat(action.app()).isEqualTo("A");
        assertThat(action.id()).isEqualTo("i-1");
    }

    @Test
    void theChangeStreamIsAnUnversionedGet() {
        assertThat(route("GET", "/api/changes").endpoint()).isEqualTo(Endpoint.CHANGES);
        assertThat(route("HEAD", "/api/changes").endpoint()).isEqualTo(Endpoint.CHANGES);
        assertThat(route("POST", "/api/changes").refusal().status()).isEqualTo(405);
        assertThat(route("GET", "/v2/api/changes").endpoint()).isNull();
        assertThat(route("GET", "/api/changes/x").endpoint()).isNull();
    }

    @Test
    void theClusterDigestIsUnversionedAndReadOnly() {
        assertThat(route("GET", "/api/cluster/digest").endpoint()).isEqualTo(Endpoint.CLUSTER_DIGEST);
        assertThat(route("HEAD", "/api/cluster/digest").endpoint()).isEqualTo(Endpoint.CLUSTER_DIGEST);
        assertThat(route("POST", "/api/cluster/digest").refusal().status()).isEqualTo(405);
        assertThat(route("GET", "/v2/api/cluster/digest").endpoint()).isNull();
        assertThat(route("GET", "/api/cluster").endpoint()).isNull();
        assertThat(route("GET", "/api/cluster/digest/APP").endpoint()).isNull();
    }

    @Test
    void aVersionSegmentIsAVAndOneToNineDigits() {
        for (String v : new String[]{"v2", "V2", "v0", "v123456789"}) {
            assertThat(Router.isVersion(v)).as(v).isTrue();
        }
        for (String v : new String[]{"v", "2", "vv2", "v1234567890", "v2a", "v-2", "x2", "v\u0662", ""}) {
            assertThat(Router.isVersion(v)).as(v).isFalse();
        }
    }
}
