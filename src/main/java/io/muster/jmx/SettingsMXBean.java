package io.muster.jmx;

import java.util.List;
import java.util.Map;

/** The settings this deployment runs with, as the dashboard's settings view shows them. */
@Description("The settings in effect, read once at start (a change takes effect at the next start of the"
        + " application), and what the operator wrote that Muster does not use")
public interface SettingsMXBean {
    @Description("Every setting the server read, by its documented name, with the value in effect (durations in"
            + " milliseconds; no credentials)")
    Map<String, String> getSettings();

    @Description("Where each setting in effect came from: a source (context parameter, MicroProfile Config: …,"
            + " system property, …) or default")
    Map<String, String> getSources();

    @Description("Keys set in two sources with different values, each naming the source that won")
    List<String> getShadowedKeys();

    @Description("Keys given that Muster does not know, each with a note (a misspelling, usually)")
    List<String> getUnknownKeys();

    @Description("Keys given that Muster knows but that have no effect here, each with why")
    List<String> getKeysWithoutEffect();
}
