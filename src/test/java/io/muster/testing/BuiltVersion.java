package io.muster.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.jar.JarFile;

/**
 * The version the build stamped on the packaged WAR's manifest ({@code Implementation-Version}): what the server
 * must report, read here from another place than the server reads it.
 */
public final class BuiltVersion {
    private BuiltVersion() {
    }

    public static String ofPackagedWar() {
        try (JarFile war = new JarFile(System.getProperty("muster.war"))) {
            String v = war.getManifest().getMainAttributes().getValue("Implementation-Version");
            if (v == null || v.isBlank()) {
                throw new IllegalStateException("the packaged WAR's manifest has no Implementation-Version");
            }
            return v;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
