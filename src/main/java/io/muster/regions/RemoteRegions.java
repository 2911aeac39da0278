package io.muster.regions;

import io.muster.config.ServerConfig.RemoteRegionConfig;
import io.muster.model.Application;
import io.muster.model.Applications;
import io.muster.model.AppsHashCode;
import io.muster.model.InstanceInfo;
import io.muster.model.InstanceStatus;
import io.muster.replication.HttpPeerClient;
import io.muster.replication.PeerUrl;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The configured remote regions and Eureka's rules for reading them with the local registry
 * ({@code AbstractInstanceRegistry.getApplicationsFromMultipleRegions} and its delta twin): a merged view holds
 * every local instance plus the whitelisted instances of each requested region, and its hash counts them all.
 * {@link #generation()} moves whenever a region's copy changes, so cached merged payloads know they are stale.
 *
 * <p>Thread safety: the region map is fixed at construction; each region publishes immutable states.
 */
public final class RemoteRegions {
    /** No remote regions: every request is answered from the local registry alone, as before. */
    public static final RemoteRegions NONE = new RemoteRegions(List.of(), null);

    private final Map<String, RemoteRegion> regions = new LinkedHashMap<>();
    private final RemoteRegionConfig config;
    private final AtomicLong generation = new AtomicLong();

    RemoteRegions(List<RemoteRegion> regions, RemoteRegionConfig config) {
        regions.forEach(r -> this.regions.put(r.name(), r));
        this.config = config;
    }

    /** The regions of the configuration, each read over HTTP with the configured timeouts. */
    public static RemoteRegions create(RemoteRegionConfig config, Clock clock) {
        List<RemoteRegion> list = new ArrayList<>();
        config.urls().forEach((name, url) -> {
            PeerUrl parsed = PeerUrl.parse(url);
            HttpPeerClient http = new HttpPeerClient(parsed, config.connectTimeout(), config.readTimeout(), clock);
            list.add(new RemoteRegion(name, parsed.toString(), new RemoteRegion.Source() {
                @Override
                public Applications full() throws java.io.IOException {
                    return http.fetchRegistry();
                }

                @Override
                public Applications delta() throws java.io.IOException {
                    return http.fetchDelta();
                }
            }, clock, config.disableDelta()));
        });
        return new RemoteRegions(list, config);
    }

    public Collection<RemoteRegion> all() {
        return regions.values();
    }

    /** Fetches one region; merged views built before a change it brings are stale from then on. */
    public void refresh(RemoteRegion region) {
        if (region.refresh()) {
            generation.incrementAndGet();
        }
    }

    /** Moves each time a region's copy changes. */
    public long generation() {
        return generation.get();
    }

    /**
     * The regions a {@code ?regions=} value names that are configured here, lower-cased, without duplicates and
     * sorted (one cache entry per set); unknown names are ignored, as Eureka ignores them. Empty: local only.
     */
    public List<String> requested(String regionsParameter) {
        if (regionsParameter == null || regionsParameter.isBlank() || regions.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(regionsParameter.split(",")).map(s -> s.trim().toLowerCase(Locale.ROOT))
                .filter(regions::containsKey).distinct().sorted().toList();
    }

    /** Eureka's single-app fallback: an app unknown locally is read from the first region that has it. */
    public Optional<Application> fallback(String app) {
        if (config == null || config.disableTransparentFallback()) {
            return Optional.empty();
        }
        for (RemoteRegion region : regions.values()) {
            RemoteRegion.State s = region.state();
            if (s != null) {
                Optional<Application> found = s.copy().applications().stream()
                        .filter(a -> a.name().equals(app)).findFirst();
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    /** Whether reading this app may fall back to a remote region (its cached answer then follows them). */
    public boolean fallsBack() {
        return !regions.isEmpty() && !config.disableTransparentFallback();
    }

    /** The full registry with the requested regions: local apps first merged with the remote instances. */
    public Applications merged(Applications local, List<String> requested) {
        return merge(local, requested, RemoteRegion.State::copy);
    }

    /**
     * The delta with the requested regions: the local delta plus what each region's last fetch brought, with the
     * hash of the merged full registry, so a client that applies it and recounts finds the same hash.
     */
    public Applications mergedDelta(Applications localDelta, List<String> requested) {
        return merge(localDelta, requested, RemoteRegion.State::lastDelta);
    }

    private Applications merge(Applications local, List<String> requested,
                               java.util.function.Function<RemoteRegion.State, Applications> content) {
        if (requested.isEmpty()) {
            return local;   // no region asked for: exactly the local view, as before remote regions existed
        }
        Map<String, List<InstanceInfo>> apps = new LinkedHashMap<>();
        local.applications().forEach(a -> apps.put(a.name(), new ArrayList<>(a.instances())));
        // the local view's hash already counts the whole local registry (a delta's too): extend it, never recount
        Map<InstanceStatus, Integer> counts = AppsHashCode.parse(local.appsHashCode());
        for (String name : requested) {
            RemoteRegion.State s = regions.get(name) == null ? null : regions.get(name).state();
            if (s == null) {
                continue;
            }
            AppsHashCode.addCounts(counts, admitted(name, s.copy()));
            for (Application app : admitted(name, content.apply(s))) {
                apps.computeIfAbsent(app.name(), n -> new ArrayList<>()).addAll(app.instances());
            }
        }
        List<Application> result = new ArrayList<>();
        apps.forEach((name, instances) -> result.add(new Application(name, instances)));
        return new Applications(local.version(), AppsHashCode.of(counts), result);
    }

    private List<Application> admitted(String region, Applications apps) {
        return apps.applications().stream().filter(a -> config.admits(region, a.name())).toList();
    }

    /** Each region's freshness as the status document shows it, aged as of {@code now}. */
    public List<Map<String, Object>> describe(Instant now) {
        return regions.values().stream().map(r -> r.status().describe(now)).toList();
    }
}
