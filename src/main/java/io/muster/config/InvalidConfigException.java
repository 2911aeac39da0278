package io.muster.config;

import java.util.List;

/** Thrown at start-up when one or more settings are invalid; the message names every bad key. */
public class InvalidConfigException extends RuntimeException {
    private final List<String> problems;

    public InvalidConfigException(List<String> problems) {
        super("Invalid Muster configuration: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
