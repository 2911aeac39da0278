package io.muster.bootstrap;

import io.muster.config.ConfigLayer;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Muster's settings held in MicroProfile Config, where the container provides it: on Payara that is what
 * {@code asadmin set-config-property} and the console's application properties write. Read through reflection
 * from the application's own class loader, so the WAR links nothing of MicroProfile and a container without it
 * (Tomcat) simply has no such layer.
 *
 * <p>One layer per config source, in the sources' own order (lowest ordinal first), so the settings view names
 * the source a value came from ("MicroProfile Config: Domain"). Values also in the JVM's system properties are
 * left to the system-property layer, which MicroProfile Config reads as one of its sources too.
 */
final class MicroProfileConfig {
    private static final Logger LOG = Logger.getLogger(MicroProfileConfig.class.getName());
    private static final String PROVIDER = "org.eclipse.microprofile.config.ConfigProvider";
    private static final String SOURCE = "org.eclipse.microprofile.config.spi.ConfigSource";

    private MicroProfileConfig() {
    }

    static List<ConfigLayer> layers(ClassLoader loader) {
        Class<?> provider;
        try {
            provider = Class.forName(PROVIDER, true, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return List.of();   // no MicroProfile Config in this container
        }
        try {
            Object config = provider.getMethod("getConfig", ClassLoader.class).invoke(null, loader);
            Class<?> configType = Class.forName("org.eclipse.microprofile.config.Config", false, loader);
            Iterable<?> sources = (Iterable<?>) configType.getMethod("getConfigSources").invoke(config);
            Class<?> sourceType = Class.forName(SOURCE, false, loader);
            List<ConfigLayer> layers = new ArrayList<>();
            for (Object source : sources) {
                ConfigLayer layer = layer(sourceType, source);
                if (layer != null && !layer.values().isEmpty()) {
                    layers.add(layer);
                }
            }
            Collections.reverse(layers);   // the sources come highest ordinal first
            return layers;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.WARNING, "Muster: MicroProfile Config is present but could not be read; its settings are"
                    + " not applied", e instanceof InvocationTargetException t ? t.getCause() : e);
            return List.of();
        }
    }

    /** Muster's keys in one source, or null when the source cannot list its keys. */
    @SuppressWarnings("unchecked")
    private static ConfigLayer layer(Class<?> sourceType, Object source) throws ReflectiveOperationException {
        Method names = sourceType.getMethod("getPropertyNames");
        Method value = sourceType.getMethod("getValue", String.class);
        String name = String.valueOf(sourceType.getMethod("getName").invoke(source));
        Map<String, String> found = new HashMap<>();
        Set<String> keys;
        try {
            keys = (Set<String>) names.invoke(source);
        } catch (InvocationTargetException e) {
            return null;   // a source that looks values up one at a time (a vault, say) cannot be listed
        }
        for (String key : keys) {
            if (key != null && isMusters(key) && !isSystemProperty(key, source, value)) {
                Object v = value.invoke(source, key);
                if (v != null) {
                    found.put(key, v.toString());
                }
            }
        }
        return new ConfigLayer("MicroProfile Config: " + name, found);
    }

    private static boolean isMusters(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.startsWith("eureka.") || k.startsWith("muster.") || k.equals("spring.application.name");
    }

    private static boolean isSystemProperty(String key, Object source, Method value)
            throws ReflectiveOperationException {
        String system = System.getProperty(key);
        return system != null && system.equals(value.invoke(source, key));
    }
}
