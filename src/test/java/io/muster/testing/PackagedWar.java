package io.muster.testing;

import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;

import java.io.File;

/** The WAR the build packaged ({@code -Dmuster.war}), as the Arquillian tests deploy it: the real artifact. */
public final class PackagedWar {
    private PackagedWar() {
    }

    public static WebArchive load() {
        return ShrinkWrap.createFromZipFile(WebArchive.class, new File(System.getProperty("muster.war")));
    }
}
