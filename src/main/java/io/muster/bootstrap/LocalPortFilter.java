package io.muster.bootstrap;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

import java.io.IOException;
import java.util.function.IntConsumer;

/**
 * Tells the server which ports it answers on (one volatile read per request once the port is known), so that it
 * recognises its own URL in the peer list when nothing said so at start-up.
 */
final class LocalPortFilter implements Filter {
    private final IntConsumer onNewPort;
    private volatile int lastPort;

    LocalPortFilter(IntConsumer onNewPort) {
        this.onNewPort = onNewPort;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        int port = request.getLocalPort();
        if (port != lastPort) {
            lastPort = port;
            onNewPort.accept(port);
        }
        chain.doFilter(request, response);
    }
}
