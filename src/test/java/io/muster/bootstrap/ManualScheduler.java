package io.muster.bootstrap;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A scheduler whose tasks run only when the test says so; it records what was scheduled and what was cancelled. */
final class ManualScheduler implements Scheduler {
    /** One periodic task. */
    static final class Periodic {
        final String name;
        final Duration period;
        final Runnable task;
        boolean cancelled;

        Periodic(String name, Duration period, Runnable task) {
            this.name = name;
            this.period = period;
            this.task = task;
        }
    }

    final List<Periodic> periodic = new ArrayList<>();
    final List<Runnable> once = new ArrayList<>();
    boolean closed;

    @Override
    public Cancellable every(String name, Duration period, Runnable task) {
        Periodic p = new Periodic(name, period, task);
        periodic.add(p);
        return () -> p.cancelled = true;
    }

    @Override
    public void once(String name, Runnable task) {
        once.add(task);
    }

    /** The live periodic task of that name, or null. */
    Periodic live(String name) {
        return periodic.stream().filter(p -> p.name.equals(name) && !p.cancelled).findFirst().orElse(null);
    }

    @Override
    public void close() {
        closed = true;
        periodic.forEach(p -> p.cancelled = true);
    }
}
