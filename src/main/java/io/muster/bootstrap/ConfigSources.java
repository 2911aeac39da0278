package io.muster.bootstrap;

import io.muster.config.ConfigLayer;
import io.muster.config.ConfigLoader;
import jakarta.servlet.ServletContext;

import javax.naming.Binding;
import javax.naming.InitialContext;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The layers settings come from, lowest priority first (README, "Configuration"):
 * <ol>
 *   <li>{@code WEB-INF/classes/eureka-server.properties};</li>
 *   <li>the file named by {@code -Deureka.server.props};</li>
 *   <li>servlet context parameters (Tomcat context files, {@code asadmin set-web-context-param});</li>
 *   <li>JNDI {@code java:comp/env} entries;</li>
 *   <li>MicroProfile Config, where the container has it (Payara: {@code asadmin set-config-property}, the
 *       console's application properties), its sources in their own order;</li>
 *   <li>system properties;</li>
 *   <li>environment variables.</li>
 * </ol>
 * Read at start, and again when the settings view asks what the next start would read.
 */
final class ConfigSources {
    private ConfigSources() {
    }

    static List<ConfigLayer> of(ServletContext context) {
        List<ConfigLayer> layers = new ArrayList<>();
        layers.add(new ConfigLayer("eureka-server.properties in the WAR",
                classpathProperties(context.getClassLoader(), "eureka-server.properties")));
        String named = System.getProperty("eureka.server.props");
        if (named != null && !named.isBlank()) {
            layers.add(new ConfigLayer("file " + named.trim(), namedProperties(context.getClassLoader(),
                    named.trim())));
        }
        layers.add(new ConfigLayer("context parameter", contextParameters(context)));
        layers.add(new ConfigLayer("JNDI java:comp/env", jndi()));
        layers.addAll(MicroProfileConfig.layers(context.getClassLoader()));
        layers.add(new ConfigLayer("system property", systemProperties()));
        layers.add(new ConfigLayer("environment variable", environment()));
        return layers;
    }

    private static Map<String, String> classpathProperties(ClassLoader loader, String resource) {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            return in == null ? Map.of() : toMap(load(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** A file path, or as in Eureka a name whose {@code .properties} is on the class path. */
    private static Map<String, String> namedProperties(ClassLoader loader, String name) {
        Path file = Path.of(name);
        if (Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                return toMap(load(in));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        Map<String, String> found = classpathProperties(loader, name.endsWith(".properties") ? name
                : name + ".properties");
        if (found.isEmpty()) {
            throw new IllegalStateException("eureka.server.props=" + name + ": no such file or class-path resource");
        }
        return found;
    }

    private static Properties load(InputStream in) throws IOException {
        Properties p = new Properties();
        p.load(in);
        return p;
    }

    private static Map<String, String> toMap(Properties p) {
        Map<String, String> m = new HashMap<>();
        p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
        return m;
    }

    private static Map<String, String> contextParameters(ServletContext context) {
        Map<String, String> m = new HashMap<>();
        for (String name : Collections.list(context.getInitParameterNames())) {
            m.put(name, context.getInitParameter(name));
        }
        return m;
    }

    private static Map<String, String> jndi() {
        Map<String, String> m = new HashMap<>();
        try {
            InitialContext ctx = new InitialContext();
            try {
                NamingEnumeration<Binding> bindings = ctx.listBindings("java:comp/env");
                while (bindings.hasMore()) {
                    Binding b = bindings.next();
                    if (b.getObject() != null && !(b.getObject() instanceof javax.naming.Context)) {
                        m.put(b.getName(), b.getObject().toString());
                    }
                }
            } finally {
                ctx.close();
            }
        } catch (NamingException | RuntimeException e) {
            // no JNDI environment in this container: nothing configured there
        }
        return m;
    }

    private static Map<String, String> systemProperties() {
        return toMap(System.getProperties());
    }

    private static Map<String, String> environment() {
        Map<String, String> m = new HashMap<>();
        System.getenv().forEach((k, v) -> m.put(ConfigLoader.keyOfEnvironmentVariable(k), v));
        return m;
    }
}
