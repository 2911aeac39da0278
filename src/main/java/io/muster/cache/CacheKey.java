package io.muster.cache;

import io.muster.codec.Detail;
import io.muster.codec.WireFormat;

import java.util.Objects;

/** One request shape: what (entity and name), in which format, full or compact. Gzip is a view of the payload. */
public record CacheKey(Entity entity, String name, WireFormat format, Detail detail) {
    public enum Entity { ALL_APPS, DELTA, APP, VIP, SVIP }

    public CacheKey {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(detail, "detail");
        name = name == null ? "" : name;
    }

    public static CacheKey allApps(WireFormat format, Detail detail) {
        return new CacheKey(Entity.ALL_APPS, "", format, detail);
    }

    public static CacheKey delta(WireFormat format, Detail detail) {
        return new CacheKey(Entity.DELTA, "", format, detail);
    }

    /** What invalidation tracks: the entity and name, across formats. */
    Target target() {
        return new Target(entity, name);
    }

    record Target(Entity entity, String name) {
    }
}
