package io.muster.files;

import java.io.IOException;

/** A file or directory the server must not trust (a symlink, another user's, writable by others), with why. */
public final class UnsafeFileException extends IOException {
    private static final long serialVersionUID = 1L;

    public UnsafeFileException(String reason) {
        super(reason);
    }
}
