package io.muster.config;

import java.util.List;

/** Thrown at start-up when one or more settings are invalid; the message names every bad key. */
public class InvalidConfigException extends RuntimeException {
    public InvalidConfigException(List<String> problems) {
        super("Invalid Muster configuration: " + String.join("; ", problems));
    }
}
