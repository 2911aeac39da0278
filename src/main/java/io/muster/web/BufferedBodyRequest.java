package io.muster.web;

import io.muster.api.BodyLimits;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The request with its body already in memory, as {@link BodyIntake} took it: handlers read it as if from the
 * connection, and never wait for a client.
 */
final class BufferedBodyRequest extends HttpServletRequestWrapper {
    private final byte[] body;
    private final int size;
    private boolean opened;

    BufferedBodyRequest(HttpServletRequest request, byte[] body, int size) {
        super(request);
        this.body = body;
        this.size = size;
    }

    @Override
    public ServletInputStream getInputStream() {
        opened = true;
        return new Stream(body, size);
    }

    @Override
    public BufferedReader getReader() {
        if (opened) {
            throw new IllegalStateException("getInputStream() was already called");
        }
        String enc = getCharacterEncoding();
        Charset charset = enc == null ? StandardCharsets.ISO_8859_1 : Charset.forName(enc);
        return new BufferedReader(new InputStreamReader(new Stream(body, size), charset));
    }

    private static final class Stream extends ServletInputStream implements BodyLimits.InMemory {
        private final byte[] body;
        private final int size;
        private int position;

        Stream(byte[] body, int size) {
            this.body = body;
            this.size = size;
        }

        @Override
        public int read() {
            return position < size ? body[position++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (position == size) {
                return -1;
            }
            int n = Math.min(len, size - position);
            System.arraycopy(body, position, b, off, n);
            position += n;
            return n;
        }

        @Override
        public byte[] takeBytes() {
            byte[] rest = position == 0 && size == body.length ? body : Arrays.copyOfRange(body, position, size);
            position = size;
            return rest;
        }

        @Override
        public int available() {
            return size - position;
        }

        @Override
        public boolean isFinished() {
            return position == size;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            throw new IllegalStateException("the body is already read");
        }
    }
}
