package io.muster.api;

import io.muster.testing.BuiltVersion;
import io.muster.testing.CapturedLog;
import io.muster.testing.Http;
import io.muster.testing.PackagedWar;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The build's version (the packaged WAR's, as its manifest says) is in the start-up log, once, in {@code /status}
 * in both formats, in the dashboard's document and in the metrics. Deployed by hand, so the log of its start is
 * captured (the test runs in the container's JVM).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class VersionIT {
    private static final String ROOT = "http://127.0.0.1:" + System.getProperty("payara.test.http.port", "18090")
            + "/";

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = "versioned", managed = false, testable = false)
    static WebArchive versioned() {
        return PackagedWar.named("versioned", Map.of());
    }

    @Test
    void theVersionIsLoggedAtStartAndShownWhereverTheServerDescribesItself() {
        String version = BuiltVersion.ofPackagedWar();
        CapturedLog log = new CapturedLog();
        Logger logger = Logger.getLogger("io.muster.bootstrap.RegistryBootstrap");
        logger.addHandler(log);
        try {
            deployer.deploy("versioned");
        } finally {
            logger.removeHandler(log);
        }
        try {
            assertThat(log.records).filteredOn(r -> r.getMessage().contains(version)).singleElement()
                    .satisfies(r -> {
                        assertThat(r.getLevel()).isEqualTo(Level.INFO);
                        assertThat(r.getMessage()).isEqualTo("Muster " + version + " starting at /versioned/");
                    });
            Http http = new Http(ROOT + "versioned/");
            assertThat(http.getJson("status").body()).contains("\"muster-version\":\"" + version + "\"");
            assertThat(http.get("v2/status").body()).contains("<muster-version>" + version + "</muster-version>");
            assertThat(http.get("api/status").body()).contains("\"version\":\"" + version + "\"");
            assertThat(http.get("metrics").body()).contains("muster_build_info{version=\"" + version + "\"} 1");
        } finally {
            deployer.undeploy("versioned");
        }
    }
}
