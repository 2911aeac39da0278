package io.muster.cache;

import io.muster.codec.Detail;
import io.muster.codec.WireFormat;

import java.util.Objects;

/**
 * One request shape: what (entity and name), in which format, full or compact, and with which remote regions
 * ({@code regions}: the known region names asked for, sorted and comma-joined; empty for the local registry alone,
 * as in Eureka's cache keys). Gzip is a view of the payload.
 *
 * <p>equals and hashCode are written out on purpose: on JDK 17 the record-generated ones go through
 * {@code java.lang.runtime.ObjectMethods}, whose shared method handles cache the last {@code asType} result and
 * so keep a reference to these component classes, and with them the whole web application, after an undeploy.
 */
public record CacheKey(Entity entity, String name, WireFormat format, Detail detail, String regions) {
    public enum Entity { ALL_APPS, DELTA, APP, VIP, SVIP }

    public CacheKey {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(detail, "detail");
        name = name == null ? "" : name;
        regions = regions == null ? "" : regions;
    }

    /** A request shape for the local registry alone. */
    public CacheKey(Entity entity, String name, WireFormat format, Detail detail) {
        this(entity, name, format, detail, "");
    }

    /** The requested regions, in the key's order; empty for the local registry alone. */
    public java.util.List<String> regionList() {
        return regions.isEmpty() ? java.util.List.of() : java.util.List.of(regions.split(","));
    }

    /** What invalidation tracks: the entity and name, across formats. */
    Target target() {
        return new Target(entity, name);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CacheKey k && entity == k.entity && format == k.format && detail == k.detail
                && name.equals(k.name) && regions.equals(k.regions);
    }

    @Override
    public int hashCode() {
        return (((entity.ordinal() * 31 + format.ordinal()) * 31 + detail.ordinal()) * 31 + name.hashCode()) * 31
                + regions.hashCode();
    }

    /** equals and hashCode written out for the reason given on {@link CacheKey}. */
    record Target(Entity entity, String name) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Target t && entity == t.entity && name.equals(t.name);
        }

        @Override
        public int hashCode() {
            return entity.ordinal() * 31 + name.hashCode();
        }
    }
}
