package io.muster.jmx;

import io.muster.config.ServerConfig;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Immutable: the settings are read once at start. */
final class SettingsBean implements SettingsMXBean {
    private final Map<String, String> settings;
    private final List<String> unknown;
    private final List<String> noEffect;
    private final Map<String, String> sources;
    private final List<String> shadowed;

    SettingsBean(ServerConfig.KeyReport keys) {
        Map<String, String> m = new TreeMap<>();
        keys.effective().forEach((k, v) -> m.put(k, String.valueOf(v)));
        this.settings = Collections.unmodifiableMap(m);
        this.unknown = keys.unknown().stream().map(k -> k.key() + ": " + k.note()).toList();
        this.noEffect = keys.noEffect().stream().map(k -> k.key() + ": " + k.note()).toList();
        Map<String, String> from = new TreeMap<>();
        keys.effective().keySet().forEach(k -> from.put(k, keys.sourceOf(k)));
        this.sources = Collections.unmodifiableMap(from);
        this.shadowed = keys.shadowed().stream().map(k -> k.key() + " " + k.note()).toList();
    }

    @Override
    public Map<String, String> getSources() {
        return sources;
    }

    @Override
    public List<String> getShadowedKeys() {
        return shadowed;
    }

    @Override
    public Map<String, String> getSettings() {
        return settings;
    }

    @Override
    public List<String> getUnknownKeys() {
        return unknown;
    }

    @Override
    public List<String> getKeysWithoutEffect() {
        return noEffect;
    }
}
