package io.muster.testing;

import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The WAR the build packaged ({@code -Dmuster.war}), as the Arquillian tests deploy it: the real artifact. */
public final class PackagedWar {
    private PackagedWar() {
    }

    public static WebArchive load() {
        return ShrinkWrap.createFromZipFile(WebArchive.class, new File(System.getProperty("muster.war")));
    }

    /**
     * The packaged WAR under another name (so it deploys at {@code /name/}), with settings as context parameters
     * in its web.xml, as an operator would give them.
     */
    public static WebArchive named(String name, Map<String, String> contextParams) {
        WebArchive renamed = ShrinkWrap.create(WebArchive.class, name + ".war").merge(load());
        if (!contextParams.isEmpty()) {
            StringBuilder params = new StringBuilder();
            contextParams.forEach((k, v) -> params.append("<context-param><param-name>").append(k)
                    .append("</param-name><param-value>").append(v).append("</param-value></context-param>\n"));
            String webXml = read(renamed, "/WEB-INF/web.xml").replace("<listener>", params + "<listener>");
            renamed.delete("/WEB-INF/web.xml");
            renamed.setWebXML(new StringAsset(webXml));
        }
        return renamed;
    }

    private static String read(WebArchive war, String path) {
        try (InputStream in = war.get(path).getAsset().openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
