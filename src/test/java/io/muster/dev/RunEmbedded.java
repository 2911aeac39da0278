package io.muster.dev;

import org.glassfish.embeddable.BootstrapProperties;
import org.glassfish.embeddable.GlassFish;
import org.glassfish.embeddable.GlassFishProperties;
import org.glassfish.embeddable.GlassFishRuntime;

import java.io.File;
import java.net.URL;

/**
 * Serves the built WAR on embedded Payara in the foreground: {@code mvn -Prun}. Port from {@code -Dport}, else the
 * {@code PORT} environment variable, else 8761; context {@code /eureka}. Prints {@code MUSTER-READY <url>} when it
 * listens. The class path must hold only this class and payara-embedded-web (never target/classes, or the app
 * cannot see its WEB-INF/lib). Tests start it in a child JVM from a directory holding its class alone
 * ({@code java <flags> -cp DIR:payara-embedded-web.jar io.muster.dev.RunEmbedded eureka.war}); it also runs as a single
 * source file. With {@code -Dmuster.exitWithParent=true} (as {@code mvn -Prun} starts it) it stops when the process
 * that started it ends.
 */
public final class RunEmbedded {
    public static void main(String[] args) throws Exception {
        if (Boolean.getBoolean("muster.exitWithParent")) {
            // mvn -Prun: a Maven stopped otherwise than by Ctrl+C (kill, an IDE's stop button) left this JVM
            // serving and holding the port, and the next mvn -Prun could not bind it
            ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> System.exit(0)));
        }
        int port = port();
        if (System.getProperty("embedded.port") == null) {
            // the application learns its port from this (ContainerPorts): with it, its snapshot identity is known
            // at start, which embedded Payara's throw-away instance root cannot provide (8761 by default too)
            System.setProperty("port", Integer.toString(port));
        }
        int adminPort = Integer.getInteger("admin.port", port + 10000);
        File war = new File(args.length > 0 ? args[0] : "target/eureka.war");
        if (!war.isFile()) {
            throw new IllegalStateException("WAR not found: " + war.getAbsolutePath() + " (run mvn package first)");
        }
        GlassFishRuntime runtime = GlassFishRuntime.bootstrap(new BootstrapProperties());
        GlassFishProperties props = new GlassFishProperties();
        props.setConfigFileURI(domainXml());
        props.setConfigFileReadOnly(true);
        props.setPort("http-listener", port);
        props.setProperty("embedded-glassfish-config.server.network-config.network-listeners.network-listener"
                + ".admin-listener.port", Integer.toString(adminPort));
        GlassFish glassFish = runtime.newGlassFish(props);
        glassFish.start();
        createUsers(glassFish);
        String name = glassFish.getDeployer().deploy(war, "--name=eureka", "--contextroot=eureka", "--force=true");
        if (name == null) {
            System.err.println("MUSTER-DEPLOY-FAILED: see the log above");
            glassFish.dispose();
            runtime.shutdown();
            System.exit(1);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                glassFish.dispose();
                runtime.shutdown();
            } catch (Exception e) {
                e.printStackTrace();
            }
        }, "muster-embedded-shutdown"));
        System.out.println("MUSTER-READY http://localhost:" + port + "/eureka/ (Eureka API at "
                + "http://localhost:" + port + "/eureka/apps/ ; stop with Ctrl+C)");
        Thread.currentThread().join();
    }

    /**
     * File-realm users for local use, from {@code MUSTER_USERS} (or {@code -Dmuster.users}):
     * {@code user:password:role[;role...]} entries separated by commas, e.g.
     * {@code peer:secret:eureka-peer,admin:changeit:eureka-admin}. Roles are realm groups of the same name.
     */
    private static void createUsers(GlassFish glassFish) throws Exception {
        String spec = System.getProperty("muster.users", System.getenv("MUSTER_USERS"));
        if (spec == null || spec.isBlank()) {
            return;
        }
        for (String entry : spec.split(",")) {
            String[] p = entry.trim().split(":", 3);
            if (p.length != 3) {
                throw new IllegalArgumentException("MUSTER_USERS entry must be user:password:role[;role...]");
            }
            java.nio.file.Path passwordFile = java.nio.file.Files.createTempFile("muster-user", ".txt");
            try {
                java.nio.file.Files.writeString(passwordFile, "AS_ADMIN_USERPASSWORD=" + p[1] + "\n");
                var result = glassFish.getCommandRunner().run("create-file-user", "--groups",
                        p[2].replace(';', ':'), "--passwordfile", passwordFile.toString(), p[0]);
                System.out.println("MUSTER-USER " + p[0] + " (" + p[2] + "): " + result.getExitStatus());
            } finally {
                java.nio.file.Files.deleteIfExists(passwordFile);
            }
        }
    }

    /** {@code -Dembedded.port} sets the port without telling the application (tests of port discovery). */
    private static int port() {
        String p = System.getProperty("embedded.port", System.getProperty("port"));
        if (p == null || p.isBlank()) {
            p = System.getenv("PORT");
        }
        return p == null || p.isBlank() ? 8761 : Integer.parseInt(p.trim());
    }

    /** The patched domain.xml the build generates (no Hazelcast, loopback only); a file path may be given. */
    private static String domainXml() throws Exception {
        String file = System.getProperty("payara.domain.xml");
        if (file != null) {
            return new File(file).toURI().toString();
        }
        URL onClassPath = RunEmbedded.class.getResource("/payara-embedded/domain-1.xml");
        if (onClassPath == null) {
            throw new IllegalStateException("no patched domain.xml: run mvn process-test-resources first");
        }
        return onClassPath.toURI().toString();
    }
}
