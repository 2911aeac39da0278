package io.muster.compat;

import io.muster.testing.ChildJvm;
import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The Spring Boot Eureka client of src/test/spring-client, started by its run.sh (which builds it once) as a child
 * process with the JVM options of every server a functional check starts. Skips the test where the script is missing.
 */
final class SpringClientApp {
    private static final File SCRIPT = new File("src/test/spring-client/run.sh");

    private SpringClientApp() {
    }

    /** Skips the test unless the client can be started. */
    static void assumeAvailable() {
        Assumptions.assumeTrue(SCRIPT.canExecute(), "no Spring client at " + SCRIPT);
    }

    /** Starts the client on {@code port} with these {@code --key=value} arguments, its output in {@code log}. */
    static Process start(int port, File log, String... arguments) throws IOException {
        assumeAvailable();
        List<String> command = new ArrayList<>(List.of(SCRIPT.getAbsolutePath(), Integer.toString(port)));
        command.addAll(List.of(arguments));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log);
        pb.environment().put("JAVA_OPTS", ChildJvm.quickStartOptions(256));
        return pb.start();
    }
}
