package io.muster.health;

import io.muster.api.Probes;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/** A probe's check in MicroProfile Health's response type: its data as strings, the one type every container shows. */
final class Responses {
    private Responses() {
    }

    static HealthCheckResponse of(Probes.Check check) {
        HealthCheckResponseBuilder b = HealthCheckResponse.named(check.name()).status(check.up());
        check.data().forEach((k, v) -> b.withData(k, String.valueOf(v)));
        return b.build();
    }
}
