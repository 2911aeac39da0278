package io.muster.api;

import io.muster.testing.Http;
import io.muster.testing.PackagedWar;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URL;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.muster.testing.Http.instanceJson;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code /metrics} is Prometheus text whose numbers follow the registry. */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MetricsIT {
    @Deployment(testable = false)
    static WebArchive war() {
        return PackagedWar.load();
    }

    @ArquillianResource
    URL base;

    /** Parses the exposition format strictly enough that a malformed line fails the test. */
    static Map<String, Double> parse(String text) {
        Pattern sample = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? (-?[0-9.eE+-]+|NaN|[+-]Inf)$");
        Map<String, Double> values = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
                continue;
            }
            Matcher m = sample.matcher(line);
            assertThat(m.matches()).as("a Prometheus sample line: " + line).isTrue();
            values.put(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(3)));
        }
        return values;
    }

    @Test
    void metricsParseAndMoveWithTheRegistry() {
        Http http = new Http(base.toString());
        Http.Reply first = http.get("metrics");
        assertThat(first.header("Content-Type")).startsWith("text/plain");
        Map<String, Double> before = parse(first.body());
        double registrations = before.getOrDefault("muster_registrations_total", 0.0);

        for (int i = 0; i < 3; i++) {
            http.postJson("apps/METRIC", instanceJson("METRIC", "m-" + i, "UP", 1000));
        }
        http.put("apps/METRIC/m-0");
        http.delete("apps/METRIC/m-2");

        Map<String, Double> after = parse(http.get("metrics").body());
        assertThat(after.get("muster_registrations_total")).isEqualTo(registrations + 3);
        assertThat(after.get("muster_instances{app=\"METRIC\",status=\"UP\"}")).isEqualTo(2.0);
        assertThat(after.get("muster_cancellations_total")).isGreaterThanOrEqualTo(1.0);
        assertThat(after.get("muster_renewals_total")).isGreaterThanOrEqualTo(1.0);
        assertThat(after).containsKeys("muster_renewal_threshold", "muster_self_preservation_active",
                "muster_renewals_last_minute", "muster_evictions_total", "muster_response_cache_builds_total");
        assertThat(after.keySet()).anyMatch(k -> k.startsWith("muster_http_requests_seconds_count{endpoint=\"register\""));
        assertThat(after.keySet()).anyMatch(k -> k.startsWith("muster_http_requests_seconds_count{endpoint=\"renew\""));
    }
}
