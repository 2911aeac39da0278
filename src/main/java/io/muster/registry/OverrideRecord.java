package io.muster.registry;

import io.muster.model.InstanceStatus;

import java.time.Instant;

/** One status override as the dashboard shows it: who set it and when. */
public record OverrideRecord(String app, String id, InstanceStatus status, String setBy, Instant at) {
}
