package io.muster.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** What became of every key given: used, known to have no effect here (with why), or unknown (with a suggestion). */
final class KeyReports {
    private KeyReports() {
    }

    /** Accounts for every key given: used, without effect here, or unknown with the closest known key. */
    static ServerConfig.KeyReport of(RawSettings s) {
        List<ServerConfig.KeyNote> unknown = new ArrayList<>();
        List<ServerConfig.KeyNote> noEffect = new ArrayList<>();
        Set<String> used = new java.util.HashSet<>();
        s.consulted.forEach(c -> used.add(KnownKeys.normalize(c)));
        List<String> candidates = new ArrayList<>(s.consulted);
        s.values.keySet().stream().sorted().forEach(name -> {
            if (used.contains(name) || KnownKeys.MAP_PREFIXES.stream().anyMatch(name::startsWith)) {
                return;
            }
            String key = s.origins.get(name);
            String reason = KnownKeys.NO_EFFECT.get(name);
            if (reason != null) {
                noEffect.add(new ServerConfig.KeyNote(key, "no effect in Muster: " + reason));
                return;
            }
            String closest = KnownKeys.closest(name, candidates);
            unknown.add(new ServerConfig.KeyNote(key, closest == null ? "not a setting Muster knows"
                    : "did you mean " + spelledLike(key, closest) + "?"));
        });
        return new ServerConfig.KeyReport(unknown, noEffect, s.effective, s.effectiveSource, s.shadowed);
    }

    /** The suggestion written with the prefix the operator used ({@code eureka.server.} or {@code eureka.}). */
    static String spelledLike(String key, String name) {
        boolean clientOrInstance = name.startsWith("client.") || name.startsWith("instance.")
                || name.startsWith("dashboard.");
        String lower = key.toLowerCase(Locale.ROOT);
        String prefix = !clientOrInstance && lower.startsWith("eureka.server.") ? "eureka.server." : "eureka.";
        return prefix + name;
    }
}
