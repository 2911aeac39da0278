package io.muster.testing;

import org.glassfish.embeddable.CommandResult;
import org.glassfish.embeddable.CommandRunner;
import org.glassfish.internal.api.Globals;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Users in the file realm of the embedded Payara that Arquillian started in this JVM, as an operator would
 * create them with {@code asadmin create-file-user}. Only for tests running in that JVM.
 */
public final class EmbeddedRealm {
    public static final String ADMIN = "admin";
    public static final String ADMIN_PASSWORD = "admin-pw";
    public static final String PEER = "peer";
    public static final String PEER_PASSWORD = "peer-pw";
    public static final String CLIENT = "client";
    public static final String CLIENT_PASSWORD = "client-pw";
    public static final String NOBODY = "nobody";
    public static final String NOBODY_PASSWORD = "nobody-pw";

    private EmbeddedRealm() {
    }

    /** Creates the test users once; later calls find them there. */
    public static synchronized void ensureUsers() throws Exception {
        create(ADMIN, ADMIN_PASSWORD, "eureka-admin");
        create(PEER, PEER_PASSWORD, "eureka-peer");
        create(CLIENT, CLIENT_PASSWORD, "eureka-client");
        create(NOBODY, NOBODY_PASSWORD, "staff");
    }

    private static void create(String user, String password, String group) throws Exception {
        CommandRunner runner = Globals.getDefaultHabitat().getService(CommandRunner.class);
        Path file = Files.createTempFile("muster-user", ".txt");
        try {
            Files.writeString(file, "AS_ADMIN_USERPASSWORD=" + password + "\n");
            CommandResult r = runner.run("create-file-user", "--groups", group, "--passwordfile", file.toString(),
                    user);
            if (r.getExitStatus() != CommandResult.ExitStatus.SUCCESS && !r.getOutput().contains("already exists")) {
                throw new IllegalStateException("create-file-user " + user + ": " + r.getOutput());
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
