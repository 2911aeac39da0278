package io.muster.registry;

import io.muster.model.Applications;

/** A registry view together with the change sequence number it reflects (every change up to it included). */
public record RegistrySnapshot(Applications applications, long sequence) {
}
