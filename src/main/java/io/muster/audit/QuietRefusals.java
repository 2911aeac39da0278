package io.muster.audit;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;

import java.time.Duration;

/**
 * Refusals are what a hostile or misconfigured client can repeat without end, so only the first in a minute per
 * caller and application is audited (the metric counts them all); the memory this takes is bounded.
 */
final class QuietRefusals {
    static final Duration QUIET = Duration.ofMinutes(1);
    /** Callers and applications refused in the last minute. */
    private final Cache<String, Boolean> quiet = CacheBuilder.newBuilder().maximumSize(10_000)
            .expireAfterWrite(QUIET).build();

    /** True for the first refusal of this caller for this application in a minute. */
    boolean first(String who, String app) {
        return quiet.asMap().putIfAbsent(who + "\u0000" + app, Boolean.TRUE) == null;
    }
}
