import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Merges the RESULT lines of both servers into one Markdown table with Muster / anchor ratios. */
public final class Report {
    /** {@code Report MUSTER.jsonl ANCHOR.jsonl [HEAP] [LABEL]}; LABEL names Muster's container. */
    public static void main(String[] args) throws Exception {
        Map<String, String> muster = read(Path.of(args[0]));
        Map<String, String> anchor = read(Path.of(args[1]));
        String label = args.length > 3 ? args[3] : "embedded Payara";
        StringBuilder md = new StringBuilder();
        md.append("Muster (").append(label).append(") vs anchor (Spring Cloud Netflix Eureka Server), heap `")
                .append(args.length > 2 ? args[2] : "").append("`, ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores shared with the load tool. Where a scenario ran more than once (ROUNDS), each server's run "
                        + "with the least server CPU per request is shown.\n\n");
        summary(md, muster, anchor);
        md.append("| metric | Muster | anchor | Muster / anchor |\n|---|---:|---:|---:|\n");
        for (String key : muster.keySet()) {
            if (key.equals("scenario") || key.equals("url")) {
                continue;
            }
            String m = muster.get(key);
            String a = anchor.getOrDefault(key, "");
            md.append("| ").append(key).append(" | ").append(m).append(" | ").append(a).append(" | ")
                    .append(ratio(m, a)).append(" |\n");
        }
        System.out.print(md);
    }

    /**
     * One row per measured phase (every phase that reports server CPU per request): requests/s, server CPU µs per
     * request and p99 for each server. A mixed phase's p99 is its heartbeats'.
     */
    private static void summary(StringBuilder md, Map<String, String> muster, Map<String, String> anchor) {
        md.append("| scenario | Muster req/s | Muster CPU µs/req | Muster p99 ms | anchor req/s | anchor CPU µs/req "
                + "| anchor p99 ms | CPU Muster / anchor |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
        Map<String, String> all = new LinkedHashMap<>(muster);
        anchor.forEach(all::putIfAbsent);
        String suffix = "_server_cpu_us_per_request";
        for (String key : all.keySet()) {
            if (!key.endsWith(suffix)) {
                continue;
            }
            String phase = key.substring(0, key.length() - suffix.length());
            md.append("| ").append(phase).append(" | ").append(rate(muster, phase)).append(" | ")
                    .append(muster.getOrDefault(key, "")).append(" | ").append(p99(muster, phase))
                    .append(" | ").append(rate(anchor, phase)).append(" | ")
                    .append(anchor.getOrDefault(key, "")).append(" | ").append(p99(anchor, phase))
                    .append(" | ").append(ratio(muster.getOrDefault(key, ""), anchor.getOrDefault(key, "")))
                    .append(" |\n");
        }
        md.append("\n");
        aboveFloor(md, muster, anchor);
    }

    /**
     * With the churn floor measured (mixed_canned, a web application that answers the churn mix and does nothing,
     * on Muster's Tomcat), what each server costs above it: the part of a churn request a registry's own code
     * decides, apart from what the container charges any application on this machine that day.
     */
    private static void aboveFloor(StringBuilder md, Map<String, String> muster, Map<String, String> anchor) {
        String key = "mixed_server_cpu_us_per_request";
        try {
            double floor = Double.parseDouble(muster.get("mixed_canned_server_cpu_us_per_request"));
            double m = Double.parseDouble(muster.get(key)) - floor;
            double a = Double.parseDouble(anchor.get(key)) - floor;
            md.append(String.format("Churn above the churn floor (%.1f µs, mixed_canned): Muster %.1f µs, anchor %.1f µs"
                    + " per request (Muster / anchor %.2f); the floor is %.2f of the anchor's churn.%n%n", floor, m, a,
                    m / a, floor / (a + floor)));
        } catch (NullPointerException | NumberFormatException notMeasured) {
            // no churn floor in this run
        }
    }

    /** Requests a second: as measured, or a mixed phase's requests over its seconds. */
    private static String rate(Map<String, String> values, String phase) {
        String measured = values.get(phase + "_per_second");
        if (measured != null) {
            return measured;
        }
        try {
            return String.format("%.0f", Double.parseDouble(values.get(phase + "_requests"))
                    / Double.parseDouble(values.get(phase + "_seconds")));
        } catch (NullPointerException | NumberFormatException notMeasured) {
            return "";
        }
    }

    private static String p99(Map<String, String> values, String phase) {
        return values.getOrDefault(phase + "_p99_ms", values.getOrDefault(phase + "_renew_p99_ms", ""));
    }

    private static String ratio(String m, String a) {
        try {
            double x = Double.parseDouble(m);
            double y = Double.parseDouble(a);
            return y == 0 ? "" : String.format("%.2f", x / y);
        } catch (NumberFormatException e) {
            return "";
        }
    }

    /**
     * The values of every line; of lines that measured the same phase again (compare.sh's ROUNDS), the one with
     * the least server CPU per request is kept whole: the quietest run, so that a collection or a compilation
     * landing in one short run does not decide the ratio.
     */
    private static Map<String, String> read(Path file) throws Exception {
        Map<String, String> values = new LinkedHashMap<>();
        Pattern p = Pattern.compile("\"([^\"]+)\":(\"[^\"]*\"|[-0-9.Ee]+)");
        for (String line : Files.readAllLines(file)) {
            Map<String, String> these = new LinkedHashMap<>();
            Matcher m = p.matcher(line);
            while (m.find()) {
                these.put(m.group(1), m.group(2).replace("\"", ""));
            }
            if (!noisier(these, values)) {
                values.putAll(these);
            }
        }
        return values;
    }

    /** True when {@code line} measured a phase already in {@code kept} and cost more server CPU per request. */
    private static boolean noisier(Map<String, String> line, Map<String, String> kept) {
        for (Map.Entry<String, String> e : line.entrySet()) {
            if (e.getKey().endsWith("_server_cpu_us_per_request") && kept.containsKey(e.getKey())) {
                try {
                    return Double.parseDouble(e.getValue()) > Double.parseDouble(kept.get(e.getKey()));
                } catch (NumberFormatException notANumber) {
                    return false;
                }
            }
        }
        return false;
    }
}
