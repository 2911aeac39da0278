package io.muster.health;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/** Muster's liveness: the registry answers; the same verdict as its own {@code /health/live}. */
@Liveness
@ApplicationScoped
public class MusterLivenessCheck implements HealthCheck {
    @Override
    public HealthCheckResponse call() {
        return Responses.of(ContainerHealth.check(p -> p.live(), "live"));
    }
}
