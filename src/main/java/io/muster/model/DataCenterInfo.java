package io.muster.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Where an instance runs: Eureka's {@code MyOwn}, {@code Netflix} or {@code Amazon} (with AWS metadata). */
public record DataCenterInfo(String name, Map<String, String> metadata) {
    public static final DataCenterInfo MY_OWN = new DataCenterInfo("MyOwn", Map.of());

    public DataCenterInfo {
        name = SharedText.of(Objects.requireNonNull(name, "name"));
        metadata = metadata == null || metadata.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    /** {@link #MY_OWN} for a plain {@code MyOwn} (what nearly every non-AWS client sends), else a new one. */
    public static DataCenterInfo of(String name, Map<String, String> metadata) {
        return (metadata == null || metadata.isEmpty()) && MY_OWN.name.equals(name) ? MY_OWN
                : new DataCenterInfo(name, metadata);
    }

    public boolean isAmazon() {
        return "Amazon".equals(name);
    }
}
