package io.muster.snapshot;

/** A snapshot file that must be ignored, with the reason in words for the log. */
public final class UnusableSnapshotException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UnusableSnapshotException(String reason) {
        super(reason, null, false, false);
    }
}
