package io.muster.health;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Muster's readiness: reads are answered; the same verdict as its own {@code /health/ready}. */
@Readiness
@ApplicationScoped
public class MusterReadinessCheck implements HealthCheck {
    @Override
    public HealthCheckResponse call() {
        return Responses.of(ContainerHealth.check(p -> p.ready(), "ready"));
    }
}
