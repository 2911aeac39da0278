package io.muster.config;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The remote-region settings, under Netflix's and Spring's spellings. */
final class RemoteRegionSettings {
    private RemoteRegionSettings() {
    }

    /**
     * Remote regions under both spellings: Netflix's ({@code eureka.remoteRegionUrlsWithName=us-west;http://…,eu;…},
     * {@code eureka.remoteRegion.<region>.appWhiteList}, {@code eureka.remoteRegion.global.appWhiteList}) and
     * Spring's maps ({@code eureka.server.remoteRegionUrlsWithName.<region>=http://…},
     * {@code eureka.server.remoteRegionAppWhitelist.<region>}). {@code region=url} pairs are accepted beside
     * Netflix's {@code region;url}. URLs may carry credentials, so they are not shown among the settings in effect.
     */
    static ServerConfig.RemoteRegionConfig read(RawSettings s) {
        Map<String, String> urls = new LinkedHashMap<>();
        String urlsKey = "remoteRegionUrlsWithName";
        for (String pair : RawSettings.list(RawSettings.orDefault(s.raw(urlsKey), ""))) {
            int split = firstOf(pair, ';', '=');
            if (split <= 0 || split == pair.length() - 1) {
                s.problems.add(s.origins.get(urlsKey.toLowerCase(Locale.ROOT))
                        + " has an entry that is not region;url (or region=url)");
                continue;
            }
            urls.put(pair.substring(0, split).trim().toLowerCase(Locale.ROOT), pair.substring(split + 1).trim());
        }
        Map<String, java.util.Set<String>> whitelists = new HashMap<>();
        String global = s.raw("remoteRegionAppWhitelist");   // a plain list: the global whitelist
        if (global != null) {
            whitelists.put(ServerConfig.RemoteRegionConfig.GLOBAL, appNames(global));
            s.effectiveSource.put("remoteRegionAppWhitelist." + ServerConfig.RemoteRegionConfig.GLOBAL,
                    s.sourceOf.get("remoteregionappwhitelist"));
        }
        for (String name : s.values.keySet().stream().sorted().toList()) {
            String value = s.values.get(name);
            if (name.startsWith("remoteregionurlswithname.")) {
                s.consulted.add(name);
                urls.put(name.substring("remoteregionurlswithname.".length()), value.trim());
            } else if (name.startsWith("remoteregionappwhitelist.")) {
                s.consulted.add(name);
                String region = name.substring("remoteregionappwhitelist.".length());
                whitelists.put(region, appNames(value));
                s.effectiveSource.put("remoteRegionAppWhitelist." + region, s.sourceOf.get(name));
            } else if (name.matches("remoteregion\\.[^.]+\\.appwhitelist")) {
                s.consulted.add(name);
                String region = name.split("\\.")[1];
                whitelists.put(region, appNames(value));
                s.effectiveSource.put("remoteRegionAppWhitelist." + region, s.sourceOf.get(name));
            }
        }
        urls.forEach((region, url) -> s.checkUrl("remote region " + region + " URL", url));
        whitelists.forEach((region, apps) -> s.effective.put("remoteRegionAppWhitelist." + region,
                String.join(",", new java.util.TreeSet<>(apps))));
        return new ServerConfig.RemoteRegionConfig(urls,
                Duration.ofSeconds(s.integer(30, 1, "remoteRegionRegistryFetchInterval",
                        "remoteRegion.registryFetchIntervalInSeconds")),
                s.millis(2_000, 1, "remoteRegionConnectTimeoutMs"),
                s.millis(5_000, 1, "remoteRegionReadTimeoutMs"),
                whitelists,
                s.bool(false, "disableDeltaForRemoteRegions"),
                s.bool(false, "disableTransparentFallbackToOtherRegion", "remoteRegion.disable.transparent.fallback"));
    }

    static int firstOf(String s, char a, char b) {
        int i = s.indexOf(a);
        int j = s.indexOf(b);
        return i < 0 ? j : j < 0 ? i : Math.min(i, j);
    }

    static java.util.Set<String> appNames(String csv) {
        java.util.Set<String> names = new java.util.HashSet<>();
        RawSettings.list(csv).forEach(n -> names.add(n.toUpperCase(Locale.ROOT)));
        return names;
    }
}
