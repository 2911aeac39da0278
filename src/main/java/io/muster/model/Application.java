package io.muster.model;

import java.util.List;
import java.util.Objects;

/** All instances of one app, as a fetch returns them. */
public record Application(String name, List<InstanceInfo> instances) {
    public Application {
        Objects.requireNonNull(name, "name");
        instances = List.copyOf(instances);
    }
}
