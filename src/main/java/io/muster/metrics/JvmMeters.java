package io.muster.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.config.MeterFilter;

import java.lang.management.ManagementFactory;

/**
 * Micrometer's JVM and process binders ({@code jvm_*}, {@code process_*}, {@code system_*}). They describe the
 * whole JVM, which the container shares with other applications.
 *
 * <p>Two of ProcessorMetrics' names fail Prometheus' conventions, so they are changed here: the CPU time counter is
 * in nanoseconds ({@code process_cpu_time_ns_total}) and is replaced by Prometheus' usual
 * {@code process_cpu_seconds_total}; the processor count is a gauge named like a histogram's {@code _count} and is
 * {@code system_cpu_processors} instead.
 *
 * <p>{@link #close()} matters on a live redeploy: the GC binder registers notification listeners on the platform's
 * garbage-collector beans, which outlive the WAR and would otherwise keep its class loader reachable.
 */
final class JvmMeters implements AutoCloseable {
    private final JvmGcMetrics gc = new JvmGcMetrics();

    /** Call before any meter is registered: the renaming filters apply to meters registered after them. */
    JvmMeters(MeterRegistry registry) {
        registry.config().meterFilter(MeterFilter.denyNameStartsWith("process.cpu.time"))
                .meterFilter(new MeterFilter() {
                    @Override
                    public Meter.Id map(Meter.Id id) {
                        return id.getName().equals("system.cpu.count") ? id.withName("system.cpu.processors") : id;
                    }
                });
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            FunctionCounter.builder("process.cpu", os, o -> o.getProcessCpuTime() / 1e9).baseUnit("seconds")
                    .description("CPU time used by the JVM process").register(registry);
        }
    }

    @Override
    public void close() {
        gc.close();
    }
}
